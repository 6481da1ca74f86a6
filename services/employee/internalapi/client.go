package internalapi

import (
	"context"
	"net/url"
	"strconv"

	"github.com/ponto/ponto/pkg/svcclient"
)

// maxAnswer bounds what the by-name department route may send: it lists
// every employee of a department at once (about 1 KiB each).
const maxAnswer = 16 << 20

// Client calls the employee service's internal API. Failures are
// *apierr.Error values from svcclient: the service's 404 stays a 404, a
// down or failing service is a 503.
type Client struct{ c *svcclient.Client }

// New returns a client for the employee service's internal base URL
// (EMPLOYEE_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	opts = append([]svcclient.Option{svcclient.WithMaxResponseBytes(maxAnswer)}, opts...)
	return &Client{c: svcclient.New(baseURL, opts...)}
}

func funcionarioPath(id int64) string { return "/internal/funcionarios/" + strconv.FormatInt(id, 10) }

// GetFuncionario reads employee id, of any company:
// GET /internal/funcionarios/{id}.
func (c *Client) GetFuncionario(ctx context.Context, id int64) (FuncionarioComEscala, error) {
	var f FuncionarioComEscala
	err := c.c.GetJSON(ctx, funcionarioPath(id), &f)
	return f, err
}

// ListFuncionarios reads those of employees ids (1 to MaxIDs) that exist,
// in any order, each with his schedule and without the login code's hash:
// GET /internal/funcionarios?ids=&escalas=separadas, whose schedules,
// sent once each, it hands to their employees (who share them: read-only).
// known (at most MaxIDs) are the ids of schedules the caller holds
// (escalasConhecidas): they are not sent, and an employee on one of them
// comes with a nil Escala for the caller to give him. An employee service
// older than the separate form answers every schedule in every record, one
// older than escalasConhecidas every schedule apart: both read the same.
func (c *Client) ListFuncionarios(ctx context.Context, ids, known []int64) ([]FuncionarioComEscala, error) {
	q := []byte("/internal/funcionarios?escalas=separadas&ids=")
	q = appendIDs(q, ids)
	if len(known) > 0 {
		q = appendIDs(append(q, "&escalasConhecidas="...), known)
	}
	var out Funcionarios
	if err := c.c.GetJSON(ctx, string(q), &out); err != nil {
		return nil, err
	}
	escalas := make(map[int64]*Escala, len(out.Escalas))
	for i := range out.Escalas {
		escalas[out.Escalas[i].ID] = &out.Escalas[i]
	}
	for i := range out.Funcionarios {
		f := &out.Funcionarios[i]
		if f.Escala == nil {
			f.Escala = escalas[f.EscalaTrabalhoID]
		}
		f.CodeVerify = nil
	}
	return out.Funcionarios, nil
}

// appendIDs appends ids to q, separated by commas.
func appendIDs(q []byte, ids []int64) []byte {
	for i, id := range ids {
		if i > 0 {
			q = append(q, ',')
		}
		q = strconv.AppendInt(q, id, 10)
	}
	return q
}

// ListVinculos reads every employment of an e-mail (ignoring case),
// active or not, in company order: GET /internal/funcionarios/vinculos.
func (c *Client) ListVinculos(ctx context.Context, email string) ([]Funcionario, error) {
	var out Vinculos
	err := c.c.GetJSON(ctx, "/internal/funcionarios/vinculos?email="+url.QueryEscape(email), &out)
	return out.Funcionarios, err
}

// GetByEmail reads the one employment of an e-mail, of company empresaID
// unless 0: GET /internal/funcionarios/por-email. Several companies and
// none named is a 409 email_ambiguo.
func (c *Client) GetByEmail(ctx context.Context, email string, empresaID int64) (Funcionario, error) {
	q := url.Values{"email": {email}}
	if empresaID != 0 {
		q.Set("empresaId", strconv.FormatInt(empresaID, 10))
	}
	var f Funcionario
	err := c.c.GetJSON(ctx, "/internal/funcionarios/por-email?"+q.Encode(), &f)
	return f, err
}

// GetEscala reads employee funcionarioID's work schedule:
// GET /internal/funcionarios/{id}/escala.
func (c *Client) GetEscala(ctx context.Context, funcionarioID int64) (Escala, error) {
	var e Escala
	err := c.c.GetJSON(ctx, funcionarioPath(funcionarioID)+"/escala", &e)
	return e, err
}

// GetQuadro reads company empresaID's department named nome (any case)
// with all its employees, active or not, and their schedules:
// GET /internal/empresas/{empresaId}/departamentos/por-nome/{nome}/quadro.
func (c *Client) GetQuadro(ctx context.Context, empresaID int64, nome string) (Quadro, error) {
	var out Quadro
	path := "/internal/empresas/" + strconv.FormatInt(empresaID, 10) +
		"/departamentos/por-nome/" + url.PathEscape(nome) + "/quadro"
	err := c.c.GetJSON(ctx, path, &out)
	return out, err
}

// GetQuadroEmpresa reads company empresaID's active employees with their
// departments' names and schedules: GET /internal/empresas/{empresaId}/quadro.
func (c *Client) GetQuadroEmpresa(ctx context.Context, empresaID int64) (QuadroEmpresa, error) {
	var out QuadroEmpresa
	err := c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(empresaID, 10)+"/quadro", &out)
	return out, err
}

// SetFoto sets (nil: clears) the employee's fotoProfile:
// PUT /internal/funcionarios/{id}/foto → 204. Sent once, never retried.
func (c *Client) SetFoto(ctx context.Context, id int64, fotoProfile *string) error {
	return c.c.PutJSON(ctx, funcionarioPath(id)+"/foto", Foto{FotoProfile: fotoProfile}, nil)
}

// SetCodeVerify records (nil: clears) the hash of the employee's latest
// login code: PUT /internal/funcionarios/{id}/code-verify → 204.
func (c *Client) SetCodeVerify(ctx context.Context, id int64, hash *string) error {
	return c.c.PutJSON(ctx, funcionarioPath(id)+"/code-verify", CodeVerify{CodeVerify: hash}, nil)
}

// AtivosNoEstabelecimento counts the active employees of establishment
// estabelecimentoID (positive) of company empresaID:
// GET /internal/empresas/{empresaId}/estabelecimentos/{id}/ativos.
func (c *Client) AtivosNoEstabelecimento(ctx context.Context, empresaID, estabelecimentoID int64) (int, error) {
	var a Ativos
	err := c.c.GetJSON(ctx, "/internal/empresas/"+strconv.FormatInt(empresaID, 10)+"/estabelecimentos/"+
		strconv.FormatInt(estabelecimentoID, 10)+"/ativos", &a)
	return a.Ativos, err
}
