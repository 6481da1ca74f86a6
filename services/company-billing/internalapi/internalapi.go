// Package internalapi is company-billing's internal API
// (docs/internal-api.md, section "company-billing"), defined here once
// for both sides: the wire types its handlers answer with and decode, and
// the client other services call it with.
//
// It is a module of its own, depending only on pkg, so that a caller's
// image builds it without the rest of company-billing.
package internalapi

// Empresa is the company view. It never carries the password hash.
type Empresa struct {
	ID          int64  `json:"id"`
	Email       string `json:"email"`
	Nome        string `json:"nome"`
	RazaoSocial string `json:"razaoSocial"`
	CNPJ        string `json:"cnpj"`
	Role        string `json:"role"`
	NomeDoPlano string `json:"nomeDoPlano"`
	// AssinaturaStatus is the subscription's status, null before there
	// is one.
	AssinaturaStatus *string `json:"assinaturaStatus"`
	Bloqueada        bool    `json:"bloqueada"`
	// FusoHorario is the company's IANA time zone: the zone of its
	// employees' workdays and records unless an employee has his own.
	FusoHorario string `json:"fusoHorario"`
	// Responsavel is null until the company names one: timekeeping then
	// writes zeros as the responsible CPF.
	Responsavel *Responsavel `json:"responsavel"`
}

// Responsavel is the company's responsible person: name and CPF
// (###.###.###-##).
type Responsavel struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// Login is the body of POST /internal/empresas/login.
type Login struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Estabelecimento is an establishment of a company (GET
// /empresas/me/estabelecimentos and the internal
// GET /internal/empresas/{empresaId}/estabelecimentos/{estabelecimentoId}).
// Each has its own NSR sequence in the REP.
type Estabelecimento struct {
	ID        int64 `json:"id"`
	EmpresaID int64 `json:"empresaId"`
	// Principal is the first one, made from the company's own CNPJ: it
	// cannot be deactivated.
	Principal bool `json:"principal"`
	// Tipo is "cnpj", "caepf" or "cno"; Numero its characters, unmasked.
	Tipo        string `json:"tipo"`
	Numero      string `json:"numero"`
	Nome        string `json:"nome"`
	Endereco    string `json:"endereco"`
	FusoHorario string `json:"fusoHorario"`
	Ativo       bool   `json:"ativo"`
}
