// Package companybilling is auth's side of company-billing's internal API
// (services/company-billing/internalapi, docs/internal-api.md): company
// credentials, told apart only as good or bad, and the company view, with
// "not found" as an answer rather than an error.
package companybilling

import (
	"context"
	"errors"
	"net/http"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
)

// ErrBadCredentials means the e-mail is unknown or the password wrong;
// the two are never told apart.
var ErrBadCredentials = errors.New("companybilling: bad credentials")

// Client calls company-billing's internal API.
type Client struct{ api *companybillingapi.Client }

// New returns a client for company-billing's internal base URL
// (COMPANY_BILLING_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{api: companybillingapi.New(baseURL, opts...)}
}

// Login checks a company's credentials. company-billing equalises the
// time of unknown e-mails and wrong passwords and answers 401 for both
// (ErrBadCredentials here), 403 empresa_bloqueada for a blocked company
// (passed on as it came).
func (c *Client) Login(ctx context.Context, email, pw string) (companybillingapi.Empresa, error) {
	e, err := c.api.Login(ctx, email, pw)
	if ae, ok := apierr.As(err); ok && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusNotFound) {
		return companybillingapi.Empresa{}, ErrBadCredentials
	}
	return e, err
}

// Get reads a company. found is false on 404.
func (c *Client) Get(ctx context.Context, id int64) (e companybillingapi.Empresa, found bool, err error) {
	e, err = c.api.GetEmpresa(ctx, id)
	if isNotFound(err) {
		return companybillingapi.Empresa{}, false, nil
	}
	return e, err == nil, err
}

func isNotFound(err error) bool {
	ae, ok := apierr.As(err)
	return ok && ae.Status == http.StatusNotFound
}
