// Package employee calls the employee service's internal API (see
// docs/internal-api.md): employments by e-mail, the employee view and the
// login code's hash.
package employee

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// Funcionario is the part of the employee service's employee view that
// auth decides on; Profile is the whole view, the employee's public
// profile that the login answers with.
type Funcionario struct {
	ID        int64  `json:"id"`
	EmpresaID int64  `json:"empresaId"`
	Nome      string `json:"nome"`
	Email     string `json:"email"`
	Ativo     bool   `json:"ativo"`

	Profile json.RawMessage `json:"-"`
}

// Client calls the employee service's internal API.
type Client struct {
	c *svcclient.Client
}

// New returns a client for the employee service's internal base URL
// (EMPLOYEE_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// Employments are the employees whose e-mail is email, one per company
// (a person may work for several): GET /internal/funcionarios/vinculos.
func (e *Client) Employments(ctx context.Context, email string) ([]Funcionario, error) {
	var out struct {
		Funcionarios []json.RawMessage `json:"funcionarios"`
	}
	if err := e.c.GetJSON(ctx, "/internal/funcionarios/vinculos?email="+url.QueryEscape(email), &out); err != nil {
		return nil, err
	}
	fs := make([]Funcionario, 0, len(out.Funcionarios))
	for _, raw := range out.Funcionarios {
		f, err := decodeFuncionario(raw)
		if err != nil {
			return nil, domainerr.BadDependency("employee", err)
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// Get reads an employee: GET /internal/funcionarios/{id}. found is false
// on 404.
func (e *Client) Get(ctx context.Context, id int64) (Funcionario, bool, error) {
	return e.get(ctx, "/internal/funcionarios/"+strconv.FormatInt(id, 10))
}

func (e *Client) get(ctx context.Context, path string) (Funcionario, bool, error) {
	var raw json.RawMessage
	err := e.c.GetJSON(ctx, path, &raw)
	if isNotFound(err) {
		return Funcionario{}, false, nil
	}
	if err != nil {
		return Funcionario{}, false, err
	}
	f, err := decodeFuncionario(raw)
	if err != nil {
		return Funcionario{}, false, domainerr.BadDependency("employee", err)
	}
	return f, true, nil
}

// decodeFuncionario keeps the view as the profile, minus a password field
// and the login-code hash, should they appear in it: the employee service promises never to
// send one, and a login answer is the wrong place to find out it did.
func decodeFuncionario(raw json.RawMessage) (Funcionario, error) {
	var f Funcionario
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, fmt.Errorf("employee view: %w", err)
	}
	if f.ID <= 0 || f.EmpresaID <= 0 {
		return f, fmt.Errorf("employee view without id or empresaId")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return f, fmt.Errorf("employee view: %w", err)
	}
	delete(fields, "password")
	// The internal view carries the hash of the latest login code for
	// auth's own use; public answers show it as null, as the employee
	// service's public routes do.
	if _, ok := fields["codeVerify"]; ok {
		fields["codeVerify"] = json.RawMessage("null")
	}
	profile, err := json.Marshal(fields)
	if err != nil {
		return f, err
	}
	f.Profile = profile
	return f, nil
}

// SetCodeVerify records the hash of the employee's latest login code:
// PUT /internal/funcionarios/{id}/code-verify → 204.
func (e *Client) SetCodeVerify(ctx context.Context, id int64, hash string) error {
	return e.c.PutJSON(ctx, "/internal/funcionarios/"+strconv.FormatInt(id, 10)+"/code-verify",
		map[string]string{"codeVerify": hash}, nil)
}

func isNotFound(err error) bool {
	ae, ok := apierr.As(err)
	return ok && ae.Status == http.StatusNotFound
}
