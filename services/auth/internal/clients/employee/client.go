// Package employee is auth's side of the employee service's internal API
// (services/employee/internalapi, docs/internal-api.md): employments by
// e-mail, the employee view, with "not found" as an answer rather than an
// error, and the login code's hash.
package employee

import (
	"context"
	"errors"
	"net/http"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
)

// Funcionario is the employee view auth decides on and answers the
// employee's login with (Profile).
type Funcionario = employeeapi.Funcionario

// Client calls the employee service's internal API.
type Client struct{ api *employeeapi.Client }

// New returns a client for the employee service's internal base URL
// (EMPLOYEE_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{api: employeeapi.New(baseURL, opts...)}
}

// Employments are the employees whose e-mail is email, one per company
// (a person may work for several).
func (e *Client) Employments(ctx context.Context, email string) ([]Funcionario, error) {
	fs, err := e.api.ListVinculos(ctx, email)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if err := check(f); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// Get reads an employee. found is false on 404.
func (e *Client) Get(ctx context.Context, id int64) (Funcionario, bool, error) {
	f, err := e.api.GetFuncionario(ctx, id)
	if ae, ok := apierr.As(err); ok && ae.Status == http.StatusNotFound {
		return Funcionario{}, false, nil
	}
	if err != nil {
		return Funcionario{}, false, err
	}
	if err := check(f.Funcionario); err != nil {
		return Funcionario{}, false, err
	}
	return f.Funcionario, true, nil
}

// check refuses a view auth could not put in a token.
func check(f Funcionario) error {
	if f.ID <= 0 || f.EmpresaID <= 0 {
		return domainerr.BadDependency("employee", errors.New("employee view without id or empresaId"))
	}
	return nil
}

// Profile is the employee's record as his login answers it: the view
// with codeVerify null, as the employee service's public routes show it
// (the internal view carries the hash of the latest login code for auth's
// own use).
func Profile(f Funcionario) Funcionario {
	f.CodeVerify = nil
	return f
}

// SetCodeVerify records the hash of the employee's latest login code.
func (e *Client) SetCodeVerify(ctx context.Context, id int64, hash string) error {
	return e.api.SetCodeVerify(ctx, id, &hash)
}
