package internalapi

import (
	"context"
	"strconv"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Client calls company-billing's internal API. Failures are *apierr.Error
// values from svcclient: company-billing's 4xx passes on as it came, a
// down or failing service is a 503.
type Client struct{ c *svcclient.Client }

// New returns a client for company-billing's internal base URL
// (COMPANY_BILLING_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// Login checks a company's credentials: POST /internal/empresas/login. An
// unknown e-mail and a wrong password are the same 401
// credenciais_invalidas, after the same work; a blocked company whose
// password is right is a 403 empresa_bloqueada.
func (c *Client) Login(ctx context.Context, email, password string) (Empresa, error) {
	var e Empresa
	err := c.c.PostJSON(ctx, "/internal/empresas/login", Login{Email: email, Password: password}, &e)
	return e, err
}

// GetEmpresa reads company id, blocked or not: GET /internal/empresas/{id}.
func (c *Client) GetEmpresa(ctx context.Context, id int64) (Empresa, error) {
	var e Empresa
	err := c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(id, 10), &e)
	return e, err
}

// GetEstabelecimento reads establishment id of company empresaID, active
// or not: GET /internal/empresas/{empresaId}/estabelecimentos/{id}; a 404
// when the company has no such establishment.
func (c *Client) GetEstabelecimento(ctx context.Context, empresaID, id int64) (Estabelecimento, error) {
	var e Estabelecimento
	err := c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(empresaID, 10)+
		"/estabelecimentos/"+strconv.FormatInt(id, 10), &e)
	return e, err
}
