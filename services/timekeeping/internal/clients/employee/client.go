// Package employee calls the employee service's internal API
// (docs/internal-api.md, section "employee"): employees, their work
// schedules and the employees of a department. The peer's failures are
// *apierr.Error values from svcclient (its 404 stays a 404, a down or
// failing peer is a 503); what the client finds wrong itself (an employee
// missing from a batch) is a domain error.
package employee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
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
// Employee record), which the clock-in answer nests (PublicJSON).
//
// Raw is read-only once decoded. The clock-in cache (Cached) keeps its
// records with PublicJSON rendered and Raw dropped, and hands the same
// record to concurrent requests.
type Funcionario struct {
	ID               int64  `json:"id"`
	EmpresaID        int64  `json:"empresaId"`
	EscalaTrabalhoID int64  `json:"escalaTrabalhoId"`
	Nome             string `json:"nome"`
	Cargo            string `json:"cargo"`
	CPF              string `json:"cpfcnpj"`
	Ativo            bool   `json:"ativo"`
	Segmento         *int   `json:"segmento"`
	// FusoHorario is the employee's own zone (his place of work), nil for
	// his company's.
	FusoHorario *string `json:"fusoHorario"`
	// Escala is his work schedule, which decides his workdays (nil
	// without one).
	Escala *Escala `json:"escala"`

	Raw map[string]json.RawMessage `json:"-"`
	// public is PublicJSON rendered once (by the cache), and schedule
	// Escala as the core reads it.
	public   []byte
	schedule *core.Escala
}

// Admissao is the admission date of the record (the employee service
// answers it as an ISO timestamp), false without one.
func (f Funcionario) Admissao() (time.Time, bool) {
	var s *string
	if raw, ok := f.Raw["dataAdmissao"]; !ok || json.Unmarshal(raw, &s) != nil || s == nil || len(*s) < 10 {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, (*s)[:10])
	return d, err == nil
}

// Zone is the employee's own time zone, nil for his company's.
func (f Funcionario) Zone() *string { return f.FusoHorario }

// Schedule is the employee's schedule as the record core reads it
// (Escala.Core, computed once per cached record).
func (f Funcionario) Schedule() *core.Escala {
	if f.schedule != nil {
		return f.schedule
	}
	return f.Escala.Core()
}

// PublicJSON is the record as its employee may see it, as a JSON object
// left open for the caller to append members and the closing brace:
// every member the employee service sent except registrosPonto (the
// clock-in writes its own), escala (internal) and codeVerify, which is null as on every
// public answer (the internal view carries the login code's hash). It
// always holds at least that member: `{"ativo":true,...,"codeVerify":null`.
func (f Funcionario) PublicJSON() ([]byte, error) {
	if f.public != nil {
		return f.public, nil
	}
	m := make(map[string]json.RawMessage, len(f.Raw))
	for k, v := range f.Raw {
		if k != "registrosPonto" && k != "escala" {
			m[k] = v
		}
	}
	m["codeVerify"] = json.RawMessage("null")
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("employee: render record %d: %w", f.ID, err)
	}
	return b[:len(b)-1], nil
}

// rendered is f as the cache keeps it: PublicJSON rendered once, and Raw
// (the larger part, and the login code's hash with it) dropped.
func (f Funcionario) rendered() (Funcionario, error) {
	public, err := f.PublicJSON()
	if err != nil {
		return Funcionario{}, err
	}
	f.public, f.Raw, f.schedule = public, nil, f.Escala.Core()
	return f, nil
}

// UnmarshalJSON keeps the whole record in Raw and reads the typed fields
// from Raw's values, so the record is scanned once rather than once for the
// struct and again for the map (it is on the clock-in's path). Keys match
// exactly, as the employee service renders them.
func (f *Funcionario) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*f = Funcionario{Raw: raw}
	for _, field := range [...]struct {
		key  string
		into any
	}{
		{"id", &f.ID}, {"empresaId", &f.EmpresaID}, {"escalaTrabalhoId", &f.EscalaTrabalhoID},
		{"nome", &f.Nome}, {"cargo", &f.Cargo}, {"cpfcnpj", &f.CPF}, {"ativo", &f.Ativo}, {"segmento", &f.Segmento},
		{"fusoHorario", &f.FusoHorario}, {"escala", &f.Escala},
	} {
		if v, ok := raw[field.key]; ok {
			if err := scalar(v, field.into); err != nil {
				return fmt.Errorf("employee: field %s: %w", field.key, err)
			}
		}
	}
	return nil
}

// scalar decodes one value of Raw into p as json.Unmarshal would. A small
// json.Unmarshal costs about as much as decoding the whole record into the
// struct did, so the usual shapes (a string without escapes, digits, true,
// false, null) are read directly; anything else goes to json.Unmarshal.
func scalar(v json.RawMessage, p any) error {
	switch p := p.(type) {
	case *string:
		if n := len(v); n >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
			*p = string(v[1 : n-1])
			return nil
		}
	case *bool:
		switch string(v) {
		case "true":
			*p = true
			return nil
		case "false":
			*p = false
			return nil
		}
	case *int64:
		if n, ok := digits(v); ok {
			*p = n
			return nil
		}
	case **int:
		if string(v) == "null" {
			*p = nil
			return nil
		}
		if n, ok := digits(v); ok {
			i := int(n)
			*p = &i
			return nil
		}
	}
	return json.Unmarshal(v, p)
}

// digits reads v as a non-negative decimal integer of at most 18 digits
// (no overflow possible).
func digits(v []byte) (int64, bool) {
	if len(v) == 0 || len(v) > 18 || (v[0] == '0' && len(v) > 1) {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// Horario is one working day of a schedule: entrada is HH:MM local time,
// the rest minutes after entrada.
type Horario struct {
	Entrada       string `json:"entrada"`
	SaidaAlmoco   int    `json:"saidaAlmoco"`
	RetornoAlmoco int    `json:"retornoAlmoco"`
	Saida         int    `json:"saida"`
	// IntervaloPreAssinalado: the break is pre-assigned (counted without
	// punches, Portaria 671 art. 83).
	IntervaloPreAssinalado bool `json:"intervaloPreAssinalado,omitempty"`
}

// Escala is a work schedule: horarios[0] is Monday ... horarios[6]
// Sunday; days past the last entry are rest days.
type Escala struct {
	ID        int64     `json:"id"`
	EmpresaID int64     `json:"empresaId"`
	Nome      string    `json:"nome"`
	Horarios  []Horario `json:"horarios"`
	// Tipo is "12x36" for a 12x36 schedule (its one shift on DataInicio
	// and every second day), empty for a weekly one.
	Tipo       string  `json:"tipo,omitempty"`
	DataInicio *string `json:"dataInicio,omitempty"`
	// DescansoSemanal are a weekly schedule's rest days (0 Monday ... 6
	// Sunday); none: Sunday.
	DescansoSemanal []int `json:"descansoSemanal,omitempty"`
}

// Core is the schedule as the record core reads it: weekday i's shift
// (0 Monday), nil on rest days; nil for no schedule or one the core could
// not read (the employee then keeps the calendar day).
func (e *Escala) Core() *core.Escala {
	if e == nil || len(e.Horarios) == 0 {
		return nil
	}
	out := &core.Escala{DescansoSemanal: e.DescansoSemanal}
	if e.Tipo == "12x36" {
		return e.ciclo()
	}
	for i, h := range e.Horarios {
		entrada, ok := validate.ClockTime(h.Entrada)
		if !ok || i > 6 {
			return nil
		}
		out.Semana[i] = &core.Turno{Entrada: entrada, SaidaAlmoco: h.SaidaAlmoco, RetornoAlmoco: h.RetornoAlmoco, Saida: h.Saida,
			PreAssinalado: h.IntervaloPreAssinalado}
	}
	return out
}

// Departamento is a department as the by-name route answers it.
type Departamento struct {
	ID        int64  `json:"id"`
	EmpresaID int64  `json:"empresaId"`
	Nome      string `json:"nome"`
}

var errFuncionarioNotFound = domainerr.NotFound("funcionário não encontrado")

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

// MaxFuncionarios bounds the ids of one Funcionarios call (the employee
// service's limit).
const MaxFuncionarios = 100

// Funcionarios returns those of employees ids (at most MaxFuncionarios)
// that exist, by id, whatever their company: the caller checks it.
func (c *Client) Funcionarios(ctx context.Context, ids []int64) (map[int64]Funcionario, error) {
	q := make([]byte, 0, len(ids)*8)
	for i, id := range ids {
		if i > 0 {
			q = append(q, ',')
		}
		q = strconv.AppendInt(q, id, 10)
	}
	var out struct {
		Funcionarios []Funcionario `json:"funcionarios"`
	}
	if err := c.c.GetJSON(ctx, "/internal/funcionarios?ids="+string(q), &out); err != nil {
		return nil, err
	}
	byID := make(map[int64]Funcionario, len(out.Funcionarios))
	for _, f := range out.Funcionarios {
		byID[f.ID] = f
	}
	return byID, nil
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
		return Departamento{}, nil, domainerr.NotFound("departamento não encontrado")
	}
	return out.Departamento, out.Funcionarios, nil
}

// ciclo is a 12x36 schedule as the core reads it: its one shift on its
// anchor date; nil when malformed.
func (e *Escala) ciclo() *core.Escala {
	if len(e.Horarios) != 1 || e.DataInicio == nil {
		return nil
	}
	base, err := time.Parse(time.DateOnly, *e.DataInicio)
	h := e.Horarios[0]
	entrada, ok := validate.ClockTime(h.Entrada)
	if err != nil || !ok {
		return nil
	}
	return &core.Escala{Ciclo: &core.Ciclo12x36{Base: base, Turno: &core.Turno{Entrada: entrada,
		SaidaAlmoco: h.SaidaAlmoco, RetornoAlmoco: h.RetornoAlmoco, Saida: h.Saida, PreAssinalado: h.IntervaloPreAssinalado}}}
}
