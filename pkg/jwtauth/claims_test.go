package jwtauth_test

import (
	"errors"
	"testing"

	"github.com/ponto/ponto/pkg/jwtauth"
)

func TestClaimsValidate(t *testing.T) {
	tests := []struct {
		name   string
		claims jwtauth.Claims
		want   error
	}{
		{"empresa", jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 1}, nil},
		{"funcionario", jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 1, FuncionarioID: 2}, nil},
		{"admin", jwtauth.Claims{Role: jwtauth.RoleAdmin}, nil},
		{"empresa without empresaId", jwtauth.Claims{Role: jwtauth.RoleEmpresa}, jwtauth.ErrTenantClaims},
		{"empresa with negative empresaId", jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: -1}, jwtauth.ErrTenantClaims},
		{"empresa with funcionarioId", jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 1, FuncionarioID: 2}, jwtauth.ErrTenantClaims},
		{"funcionario without funcionarioId", jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 1}, jwtauth.ErrTenantClaims},
		{"funcionario without empresaId", jwtauth.Claims{Role: jwtauth.RoleFuncionario, FuncionarioID: 2}, jwtauth.ErrTenantClaims},
		{"admin with empresaId", jwtauth.Claims{Role: jwtauth.RoleAdmin, EmpresaID: 1}, jwtauth.ErrTenantClaims},
		{"admin with funcionarioId", jwtauth.Claims{Role: jwtauth.RoleAdmin, FuncionarioID: 2}, jwtauth.ErrTenantClaims},
		{"unknown role", jwtauth.Claims{Role: "root", EmpresaID: 1}, jwtauth.ErrUnknownRole},
		{"role differs in case", jwtauth.Claims{Role: "Admin"}, jwtauth.ErrUnknownRole},
		{"no role", jwtauth.Claims{}, jwtauth.ErrUnknownRole},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.claims.Validate(); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Validate() = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestClaimsRoleHelpers(t *testing.T) {
	empresa := &jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 1}
	funcionario := &jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 1, FuncionarioID: 2}
	admin := &jwtauth.Claims{Role: jwtauth.RoleAdmin}
	var none *jwtauth.Claims

	check := func(name string, got, want bool) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("empresa.IsEmpresa", empresa.IsEmpresa(), true)
	check("empresa.IsFuncionario", empresa.IsFuncionario(), false)
	check("empresa.IsAdmin", empresa.IsAdmin(), false)
	check("funcionario.IsFuncionario", funcionario.IsFuncionario(), true)
	check("funcionario.IsEmpresa", funcionario.IsEmpresa(), false)
	check("admin.IsAdmin", admin.IsAdmin(), true)
	check("admin.IsEmpresa", admin.IsEmpresa(), false)
	check("nil.IsAdmin", none.IsAdmin(), false)
	check("nil.IsEmpresa", none.IsEmpresa(), false)
	check("nil.IsFuncionario", none.IsFuncionario(), false)
}

func TestOwnsEmpresa(t *testing.T) {
	tests := []struct {
		name      string
		claims    *jwtauth.Claims
		empresaID int64
		want      bool
	}{
		{"empresa, own", &jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 10}, 10, true},
		{"empresa, other", &jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 10}, 11, false},
		{"funcionario, own company", &jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 10, FuncionarioID: 3}, 10, true},
		{"funcionario, other company", &jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 10, FuncionarioID: 3}, 11, false},
		{"admin", &jwtauth.Claims{Role: jwtauth.RoleAdmin}, 10, false},
		// Zero must never match an unset EmpresaID.
		{"admin, zero", &jwtauth.Claims{Role: jwtauth.RoleAdmin}, 0, false},
		{"empresa, zero", &jwtauth.Claims{Role: jwtauth.RoleEmpresa}, 0, false},
		{"unknown role with empresaId", &jwtauth.Claims{Role: "root", EmpresaID: 10}, 10, false},
		{"nil claims", nil, 10, false},
	}
	for _, tt := range tests {
		if got := tt.claims.OwnsEmpresa(tt.empresaID); got != tt.want {
			t.Errorf("%s: OwnsEmpresa(%d) = %v, want %v", tt.name, tt.empresaID, got, tt.want)
		}
	}
}

func TestIsFuncionarioSelf(t *testing.T) {
	tests := []struct {
		name          string
		claims        *jwtauth.Claims
		funcionarioID int64
		want          bool
	}{
		{"self", &jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 10, FuncionarioID: 3}, 3, true},
		{"colleague", &jwtauth.Claims{Role: jwtauth.RoleFuncionario, EmpresaID: 10, FuncionarioID: 3}, 4, false},
		// The company owns its employees but is none of them.
		{"empresa", &jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 10}, 3, false},
		{"empresa, zero", &jwtauth.Claims{Role: jwtauth.RoleEmpresa, EmpresaID: 10}, 0, false},
		{"admin", &jwtauth.Claims{Role: jwtauth.RoleAdmin}, 3, false},
		{"admin carrying an id", &jwtauth.Claims{Role: jwtauth.RoleAdmin, FuncionarioID: 3}, 3, false},
		{"nil claims", nil, 3, false},
	}
	for _, tt := range tests {
		if got := tt.claims.IsFuncionarioSelf(tt.funcionarioID); got != tt.want {
			t.Errorf("%s: IsFuncionarioSelf(%d) = %v, want %v", tt.name, tt.funcionarioID, got, tt.want)
		}
	}
}
