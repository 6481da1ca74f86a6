// Package jwtauth verifies the access tokens issued by the auth service and
// exposes the caller's identity to Fiber handlers.
//
// Only the auth service holds private keys. Every other service verifies
// tokens against the public keys auth publishes at its JWKS URL, through
// this package, so that the verification rules live in one place.
package jwtauth

import (
	"errors"

	"github.com/golang-jwt/jwt/v5"
)

// Roles carried in the "role" claim.
const (
	RoleEmpresa     = "empresa"
	RoleFuncionario = "funcionario"
	RoleAdmin       = "admin"
)

var (
	// ErrUnknownRole means the token's role is none of the known roles.
	ErrUnknownRole = errors.New("jwtauth: unknown role")
	// ErrTenantClaims means empresaId/funcionarioId do not fit the role.
	ErrTenantClaims = errors.New("jwtauth: tenant claims do not match role")
)

// Claims are the access token claims. iss, aud, exp, iat and sub live in
// RegisteredClaims.
type Claims struct {
	jwt.RegisteredClaims
	Role          string `json:"role"`
	EmpresaID     int64  `json:"empresaId,omitempty"`
	FuncionarioID int64  `json:"funcionarioId,omitempty"`
	// SessionID (sid) names the login session the token was issued in,
	// so that its logout voids it (pkg/revocation).
	SessionID string `json:"sid,omitempty"`
}

// Validate checks that the tenant claims are consistent with the role.
// golang-jwt calls it after the standard claim checks, so a token that is
// validly signed but malformed (e.g. a funcionario without funcionarioId)
// never reaches a handler, and handlers may trust the IDs are set.
func (c *Claims) Validate() error {
	switch c.Role {
	case RoleAdmin:
		// Admins are not bound to a tenant; IDs here would suggest a bug in
		// auth, and silently ignoring them could hide it.
		if c.EmpresaID != 0 || c.FuncionarioID != 0 {
			return ErrTenantClaims
		}
	case RoleEmpresa:
		if c.EmpresaID <= 0 || c.FuncionarioID != 0 {
			return ErrTenantClaims
		}
	case RoleFuncionario:
		if c.EmpresaID <= 0 || c.FuncionarioID <= 0 {
			return ErrTenantClaims
		}
	case RoleServico:
		// A service acts for no tenant; its subject is its name.
		if c.EmpresaID != 0 || c.FuncionarioID != 0 || c.Subject == "" {
			return ErrTenantClaims
		}
	default:
		return ErrUnknownRole
	}
	return nil
}

// IsEmpresa reports whether the caller is a company account.
func (c *Claims) IsEmpresa() bool { return c != nil && c.Role == RoleEmpresa }

// IsFuncionario reports whether the caller is an employee.
func (c *Claims) IsFuncionario() bool { return c != nil && c.Role == RoleFuncionario }

// IsAdmin reports whether the caller is a platform admin.
func (c *Claims) IsAdmin() bool { return c != nil && c.Role == RoleAdmin }

// OwnsEmpresa reports whether the caller belongs to the given company:
// the company itself or one of its employees. It is false for admins on
// purpose: admin access must be granted explicitly by the handler, never
// fall out of a tenant check.
func (c *Claims) OwnsEmpresa(empresaID int64) bool {
	if !c.IsEmpresa() && !c.IsFuncionario() {
		return false
	}
	return empresaID > 0 && c.EmpresaID == empresaID
}

// IsFuncionarioSelf reports whether the caller is the given employee.
func (c *Claims) IsFuncionarioSelf(funcionarioID int64) bool {
	return c.IsFuncionario() && funcionarioID > 0 && c.FuncionarioID == funcionarioID
}
