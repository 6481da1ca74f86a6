// Package employee calls the employee service's internal API
// (docs/internal-api.md, section "employee"): employees, their work
// schedules and the employees of a department. Failures are
// *apierr.Error values from svcclient: the peer's 404 stays a 404, a down
// or failing peer is a 503.
package employee

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// maxAnswer bounds what the by-name department route may send: it lists
// every employee of a department at once (about 1 KiB each).
const maxAnswer = 16 << 20

// Client is the employee service seen from timekeeping.
type Client struct{ c *svcclient.Client }

// New returns a client of the employee service at baseURL (its internal
// listener).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, append([]svcclient.Option{svcclient.WithMaxResponseBytes(maxAnswer)}, opts...)...)}
}

// Funcionario is the employee view: the fields timekeeping uses, and Raw,
// the whole record as the employee service rendered it (the contract's
// Employee record), which the clock-in answer nests.
type Funcionario struct {
	ID               int64  `json:"id"`
	EmpresaID        int64  `json:"empresaId"`
	EscalaTrabalhoID int64  `json:"escalaTrabalhoId"`
	Nome             string `json:"nome"`
	Cargo            string `json:"cargo"`
	CPF              string `json:"cpfcnpj"`
	Ativo            bool   `json:"ativo"`
	Segmento         *int   `json:"segmento"`

	Raw map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the whole record in Raw besides the typed fields.
func (f *Funcionario) UnmarshalJSON(b []byte) error {
	type plain Funcionario
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	return json.Unmarshal(b, &f.Raw)
}

// Horario is one working day of a schedule: entrada is HH:MM local time,
// the rest minutes after entrada.
type Horario struct {
	Entrada       string `json:"entrada"`
	SaidaAlmoco   int    `json:"saidaAlmoco"`
	RetornoAlmoco int    `json:"retornoAlmoco"`
	Saida         int    `json:"saida"`
}

// Escala is a work schedule: horarios[0] is Monday ... horarios[6]
// Sunday; days past the last entry are rest days.
type Escala struct {
	ID        int64     `json:"id"`
	EmpresaID int64     `json:"empresaId"`
	Nome      string    `json:"nome"`
	Horarios  []Horario `json:"horarios"`
}

// Departamento is a department as the by-name route answers it.
type Departamento struct {
	ID        int64  `json:"id"`
	EmpresaID int64  `json:"empresaId"`
	Nome      string `json:"nome"`
}

var errFuncionarioNotFound = apierr.NotFound("funcionário não encontrado")

// Funcionario returns employee id if he belongs to empresaID. Another
// company's employee is the same 404 as an unknown one.
func (c *Client) Funcionario(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	var f Funcionario
	if err := c.c.GetJSON(ctx, "/internal/funcionarios/"+strconv.FormatInt(id, 10), &f); err != nil {
		return Funcionario{}, err
	}
	if f.ID != id || f.EmpresaID != empresaID {
		return Funcionario{}, errFuncionarioNotFound
	}
	return f, nil
}

// Escala returns the work schedule of employee funcionarioID.
func (c *Client) Escala(ctx context.Context, funcionarioID int64) (Escala, error) {
	var e Escala
	err := c.c.GetJSON(ctx, "/internal/funcionarios/"+strconv.FormatInt(funcionarioID, 10)+"/escala", &e)
	return e, err
}

// Departamento returns company empresaID's department named nome (any
// case) with all its employees, ordered by name.
func (c *Client) Departamento(ctx context.Context, empresaID int64, nome string) (Departamento, []Funcionario, error) {
	var out struct {
		Departamento Departamento  `json:"departamento"`
		Funcionarios []Funcionario `json:"funcionarios"`
	}
	path := "/internal/empresas/" + strconv.FormatInt(empresaID, 10) +
		"/departamentos/por-nome/" + url.PathEscape(nome) + "/funcionarios"
	if err := c.c.GetJSON(ctx, path, &out); err != nil {
		return Departamento{}, nil, err
	}
	if out.Departamento.EmpresaID != empresaID {
		return Departamento{}, nil, apierr.NotFound("departamento não encontrado")
	}
	return out.Departamento, out.Funcionarios, nil
}
