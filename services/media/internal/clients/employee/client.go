// Package employee calls the employee service's internal API: media reads
// an employee's company and current photo from it and writes fotoProfile
// back (docs/internal-api.md, employee section).
package employee

import (
	"context"
	"strconv"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Funcionario is the part of the internal employee view that media uses.
type Funcionario struct {
	ID          int64   `json:"id"`
	EmpresaID   int64   `json:"empresaId"`
	FotoProfile *string `json:"fotoProfile"`
	// Ativo is false once the company deactivated the employee: he may no
	// longer change or read his photo (his company still may).
	Ativo bool `json:"ativo"`
}

// Client talks to the employee service's internal listener.
type Client struct{ http *svcclient.Client }

// New returns a client for the internal API at baseURL
// (EMPLOYEE_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{http: svcclient.New(baseURL, opts...)}
}

// Get is GET /internal/funcionarios/{id}. An unknown employee is the
// peer's 404 *apierr.Error; an unreachable service is a 503.
func (c *Client) Get(ctx context.Context, id int64) (Funcionario, error) {
	var f Funcionario
	err := c.http.GetJSON(ctx, path(id), &f)
	return f, err
}

// SetFoto is PUT /internal/funcionarios/{id}/foto; nil clears the photo.
// It is sent once, never retried (svcclient retries only reads).
func (c *Client) SetFoto(ctx context.Context, id int64, fotoProfile *string) error {
	body := struct {
		FotoProfile *string `json:"fotoProfile"`
	}{fotoProfile}
	return c.http.PutJSON(ctx, path(id)+"/foto", body, nil)
}

func path(id int64) string { return "/internal/funcionarios/" + strconv.FormatInt(id, 10) }
