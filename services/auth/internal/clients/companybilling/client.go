// Package companybilling calls company-billing's internal API (see
// docs/internal-api.md): company credentials and the company view.
package companybilling

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// ErrBadCredentials means the e-mail is unknown or the password wrong;
// the two are never told apart.
var ErrBadCredentials = errors.New("companybilling: bad credentials")

// Empresa is company-billing's company view.
type Empresa struct {
	ID               int64           `json:"id"`
	Email            string          `json:"email"`
	Nome             string          `json:"nome"`
	RazaoSocial      string          `json:"razaoSocial"`
	CNPJ             string          `json:"cnpj"`
	Role             string          `json:"role"`
	NomeDoPlano      string          `json:"nomeDoPlano"`
	AssinaturaStatus json.RawMessage `json:"assinaturaStatus"`
	Bloqueada        bool            `json:"bloqueada"`
}

// Client calls company-billing's internal API.
type Client struct {
	c *svcclient.Client
}

// New returns a client for company-billing's internal base URL
// (COMPANY_BILLING_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// Login checks a company's credentials: POST /internal/empresas/login.
// company-billing equalises the time of unknown e-mails and wrong
// passwords and answers 401 for both (mapped to ErrBadCredentials here),
// 403 empresa_bloqueada for a blocked company (passed on as it came).
func (c *Client) Login(ctx context.Context, email, pw string) (Empresa, error) {
	var e Empresa
	err := c.c.PostJSON(ctx, "/internal/empresas/login", map[string]string{"email": email, "password": pw}, &e)
	if ae, ok := apierr.As(err); ok && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusNotFound) {
		return Empresa{}, ErrBadCredentials
	}
	return e, err
}

// Get reads a company: GET /internal/empresas/{id}. found is false on 404.
func (c *Client) Get(ctx context.Context, id int64) (e Empresa, found bool, err error) {
	err = c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(id, 10), &e)
	if isNotFound(err) {
		return Empresa{}, false, nil
	}
	return e, err == nil, err
}

func isNotFound(err error) bool {
	ae, ok := apierr.As(err)
	return ok && ae.Status == http.StatusNotFound
}
