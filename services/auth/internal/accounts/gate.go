package accounts

import (
	"context"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/auth/internal/clients/companybilling"
	"github.com/ponto/ponto/services/auth/internal/clients/employee"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

// Gate decides whether an account may (still) log in.
type Gate struct {
	Admins    Admins
	Companies *companybilling.Client
	Employees *employee.Client
}

// EmployeeMayLogIn: the employee is active and the company exists and is
// not blocked (a blocked company's employees lose access with it).
func (g *Gate) EmployeeMayLogIn(ctx context.Context, f employee.Funcionario) (bool, error) {
	if !f.Ativo {
		return false, nil
	}
	return g.companyActive(ctx, f.EmpresaID)
}

func (g *Gate) companyActive(ctx context.Context, empresaID int64) (bool, error) {
	e, found, err := g.Companies.Get(ctx, empresaID)
	if err != nil {
		return false, err
	}
	return found && !e.Bloqueada, nil
}

// MayRefresh implements tokens.Gate: the same rules as at login, asked
// again of the owners of the accounts. A peer that is down is an error
// (503), not a refusal, so an outage does not log everyone out.
func (g *Gate) MayRefresh(ctx context.Context, id tokens.Identity) (bool, error) {
	switch id.Role {
	case jwtauth.RoleAdmin:
		return g.Admins.Has(id.AdminEmail()), nil
	case jwtauth.RoleEmpresa:
		return g.companyActive(ctx, id.EmpresaID)
	case jwtauth.RoleFuncionario:
		f, found, err := g.Employees.Get(ctx, id.FuncionarioID)
		if err != nil || !found || f.EmpresaID != id.EmpresaID {
			return false, err
		}
		return g.EmployeeMayLogIn(ctx, f)
	}
	return false, nil
}
