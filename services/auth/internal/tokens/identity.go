// Package tokens issues access tokens (Ed25519 JWTs) and refresh tokens
// (opaque, kept hashed in Redis), and serves the routes that use them:
// POST /auth/refresh-token, POST /auth/logout and the internal
// POST /internal/tokens/revogar.
package tokens

import (
	"strconv"
	"strings"

	"github.com/ponto/ponto/pkg/jwtauth"
)

// Identity is who a token speaks for. Subject is "<role>:<id>", the JWT
// sub; admins, who have no numeric id, use their e-mail as id.
type Identity struct {
	Role          string
	Subject       string
	EmpresaID     int64
	FuncionarioID int64
	// SessionID is the login session's id (the access token's sid): the
	// first half of its refresh family's hash, which tells nothing of
	// the refresh token itself.
	SessionID string
}

// Empresa is the identity of a company account.
func Empresa(empresaID int64) Identity {
	return Identity{Role: jwtauth.RoleEmpresa, Subject: jwtauth.RoleEmpresa + ":" + strconv.FormatInt(empresaID, 10), EmpresaID: empresaID}
}

// Funcionario is the identity of an employee of empresaID.
func Funcionario(empresaID, funcionarioID int64) Identity {
	return Identity{
		Role:          jwtauth.RoleFuncionario,
		Subject:       jwtauth.RoleFuncionario + ":" + strconv.FormatInt(funcionarioID, 10),
		EmpresaID:     empresaID,
		FuncionarioID: funcionarioID,
	}
}

// Admin is the identity of a platform admin, named by e-mail. Admins carry
// no empresaId: jwtauth refuses admin tokens that do.
func Admin(email string) Identity {
	return Identity{Role: jwtauth.RoleAdmin, Subject: jwtauth.RoleAdmin + ":" + email}
}

// AdminEmail returns the e-mail of an admin identity ("" for others).
func (id Identity) AdminEmail() string {
	email, _ := strings.CutPrefix(id.Subject, jwtauth.RoleAdmin+":")
	if id.Role != jwtauth.RoleAdmin || email == id.Subject {
		return ""
	}
	return email
}
