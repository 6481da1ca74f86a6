// Package companybilling is the employee service's side of
// company-billing's internal API (services/company-billing/internalapi,
// docs/internal-api.md): the establishment an employee is assigned to
// must be an active one of his company.
package companybilling

import (
	"context"
	"errors"
	"net/http"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
	companyapi "github.com/ponto/ponto/services/company-billing/internalapi"
)

// Client checks establishments through company-billing's internal API.
type Client struct{ api *companyapi.Client }

// New calls company-billing at baseURL (COMPANY_BILLING_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{api: companyapi.New(baseURL, opts...)}
}

// field is the request field the answers name.
const field = "estabelecimentoId"

// Estabelecimento answers the id to store for establishment id of
// company empresaID: 0 for 0 or the principal one (stored as 0), id for
// another active one. Unknown or another company's is a 404 naming the
// field, an inactive one a 400; company-billing down is a 503.
func (c *Client) Estabelecimento(ctx context.Context, empresaID, id int64) (int64, error) {
	if id == 0 {
		return 0, nil
	}
	e, err := c.api.GetEstabelecimento(ctx, empresaID, id)
	if ae, ok := apierr.As(err); ok && ae.Status == http.StatusNotFound {
		nf := domainerr.NotFound("estabelecimento não encontrado")
		nf.Fields = map[string]string{field: "estabelecimento não encontrado"}
		return 0, nf
	}
	if ae, ok := apierr.As(err); ok && ae.Status >= 500 {
		return 0, ae
	}
	if err != nil {
		return 0, domainerr.BadDependency("company-billing", err)
	}
	switch {
	case e.EmpresaID != empresaID:
		return 0, domainerr.BadDependency("company-billing", errOtherCompany)
	case !e.Ativo:
		return 0, domainerr.InvalidField(field, "estabelecimento inativo")
	case e.Principal:
		return 0, nil
	}
	return e.ID, nil
}

var errOtherCompany = errors.New("company-billing answered another company's establishment")
