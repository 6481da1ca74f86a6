// Package companybilling calls the company-billing service's internal API
// (docs/internal-api.md, section "company-billing") for what the
// compliance documents print about the employer: its legal name and CNPJ.
// Failures are *apierr.Error values from svcclient: the peer's 404 stays a
// 404, a down or failing peer is a 503.
package companybilling

import (
	"context"
	"strconv"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Client is the company-billing service seen from timekeeping.
type Client struct{ c *svcclient.Client }

// New returns a client of company-billing at baseURL (its internal
// listener).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// Empresa is the part of the company view the AFD header, the receipt
// and the timesheet print.
type Empresa struct {
	ID          int64  `json:"id"`
	Nome        string `json:"nome"`
	RazaoSocial string `json:"razaoSocial"`
	CNPJ        string `json:"cnpj"`
	// FusoHorario is the company's IANA time zone ("" from a
	// company-billing that predates it).
	FusoHorario string `json:"fusoHorario"`
}

// Get returns company id (blocked or not: its records stay the law's).
func (c *Client) Get(ctx context.Context, id int64) (Empresa, error) {
	var e Empresa
	err := c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(id, 10), &e)
	return e, err
}
