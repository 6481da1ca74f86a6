// Package internalapi is auth's internal API (docs/internal-api.md,
// section "auth"), defined here once for both sides: the body its handler
// decodes and the client other services call it with.
//
// It is a module of its own, depending only on pkg, so that a caller's
// image builds it without the rest of auth.
package internalapi

// Revogar is the body of POST /internal/tokens/revogar: exactly one of
// the two, a positive integer.
type Revogar struct {
	// EmpresaID revokes the company's tokens and its employees'.
	EmpresaID *int64 `json:"empresaId,omitempty"`
	// FuncionarioID revokes one employee's tokens.
	FuncionarioID *int64 `json:"funcionarioId,omitempty"`
}
