// Package employee is timekeeping's side of the employee service's
// internal API (services/employee/internalapi, docs/internal-api.md):
// the employee and his schedule as timekeeping reads them (the record
// rendered once for the clock-in answer, the schedule as the core reads
// it), the company checks on its answers, and the clock-in cache
// (Cached). The peer's failures are *apierr.Error values from svcclient
// (its 404 stays a 404, a down or failing peer is a 503); what the client
// finds wrong itself (another company's employee or department) is a
// domain error.
package employee

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/validate"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Client is the employee service seen from timekeeping.
type Client struct{ api *employeeapi.Client }

// New returns a client of the employee service at baseURL (its internal
// listener).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{api: employeeapi.New(baseURL, opts...)}
}

// Funcionario is the employee view with his schedule, and what timekeeping
// derives from it once per cached record.
//
// The clock-in cache (Cached) keeps its records with PublicJSON rendered
// and hands the same record to concurrent requests: it is read-only once
// made.
type Funcionario struct {
	employeeapi.Funcionario
	// Escala is his work schedule, which decides his workdays (nil
	// without one).
	Escala *Escala

	// public is PublicJSON rendered once (by the cache), and schedule
	// Escala as the core reads it.
	public   []byte
	schedule *core.Escala
}

func fromAPI(f employeeapi.FuncionarioComEscala) Funcionario {
	return Funcionario{Funcionario: f.Funcionario, Escala: (*Escala)(f.Escala)}
}

// Admissao is the admission date of the record (the employee service
// answers it as an ISO timestamp), false without one.
func (f Funcionario) Admissao() (time.Time, bool) {
	if s := f.DataAdmissao; s != nil && len(*s) >= 10 {
		d, err := time.Parse(time.DateOnly, (*s)[:10])
		return d, err == nil
	}
	return time.Time{}, false
}

// Demissao is the termination date of the record, false without one.
func (f Funcionario) Demissao() (time.Time, bool) {
	if s := f.DataDemissao; s != nil && len(*s) >= 10 {
		d, err := time.Parse(time.DateOnly, (*s)[:10])
		return d, err == nil
	}
	return time.Time{}, false
}

// ForaDoVinculo reports whether civil date d is before the admission or
// after the termination: no employment bond, nothing owed, no treatment.
func (f Funcionario) ForaDoVinculo(d time.Time) bool {
	day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	if a, ok := f.Admissao(); ok && day.Before(a) {
		return true
	}
	t, ok := f.Demissao()
	return ok && day.After(t)
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
// left open for the caller to append members and the closing brace: the
// employee view without registrosPonto (the clock-in writes its own) and
// with codeVerify null, as on every public answer (the internal view
// carries the login code's hash). It always holds at least one member.
func (f Funcionario) PublicJSON() ([]byte, error) {
	if f.public != nil {
		return f.public, nil
	}
	r := f.Funcionario
	r.RegistrosPonto, r.CodeVerify = nil, nil
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("employee: render record %d: %w", f.ID, err)
	}
	return b[:len(b)-1], nil
}

// rendered is f as the cache keeps it: PublicJSON rendered once, and the
// login code's hash dropped.
func (f Funcionario) rendered() (Funcionario, error) {
	public, err := f.PublicJSON()
	if err != nil {
		return Funcionario{}, err
	}
	f.public, f.schedule, f.CodeVerify = public, f.Escala.Core(), nil
	return f, nil
}

// Horario is one working day of a schedule.
type Horario = employeeapi.Horario

// Escala is a work schedule, read by the core through Core.
type Escala employeeapi.Escala

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

// Departamento is a department as the by-name route answers it.
type Departamento = employeeapi.Departamento

var errFuncionarioNotFound = domainerr.NotFound("funcionário não encontrado")

// Funcionario returns employee id if he belongs to empresaID. Another
// company's employee is the same 404 as an unknown one.
func (c *Client) Funcionario(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	f, err := c.api.GetFuncionario(ctx, id)
	if err != nil {
		return Funcionario{}, err
	}
	if f.ID != id || f.EmpresaID != empresaID {
		return Funcionario{}, errFuncionarioNotFound
	}
	return fromAPI(f), nil
}

// MaxFuncionarios bounds the ids of one Funcionarios call (the employee
// service's limit).
const MaxFuncionarios = employeeapi.MaxIDs

// Funcionarios returns those of employees ids (at most MaxFuncionarios)
// that exist, by id, whatever their company: the caller checks it. known
// (at most MaxFuncionarios) are schedules the caller holds: an employee on
// one of them comes without his Escala, for the caller to give him.
func (c *Client) Funcionarios(ctx context.Context, ids, known []int64) (map[int64]Funcionario, error) {
	fs, err := c.api.ListFuncionarios(ctx, ids, known)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Funcionario, len(fs))
	for _, f := range fs {
		byID[f.ID] = fromAPI(f)
	}
	return byID, nil
}

// Escala returns the work schedule of employee funcionarioID.
func (c *Client) Escala(ctx context.Context, funcionarioID int64) (Escala, error) {
	e, err := c.api.GetEscala(ctx, funcionarioID)
	return Escala(e), err
}

// Quadro is a department as its reports read it: its employees ordered
// by name, active or not, as Funcionario values holding only what the
// reports read (id, nome, cargo, CPF, ativo, segmento, the schedule's id
// and Escala, the admission date, the zone, the company), and each of
// their schedules once, by id.
type Quadro struct {
	Departamento Departamento
	Funcionarios []Funcionario
	Escalas      map[int64]Escala
}

// Quadro returns company empresaID's department named nome (any case).
func (c *Client) Quadro(ctx context.Context, empresaID int64, nome string) (Quadro, error) {
	out, err := c.api.GetQuadro(ctx, empresaID, nome)
	if err != nil {
		return Quadro{}, err
	}
	if out.Departamento.EmpresaID != empresaID {
		return Quadro{}, domainerr.NotFound("departamento não encontrado")
	}
	q := Quadro{Departamento: out.Departamento, Funcionarios: make([]Funcionario, len(out.Funcionarios)),
		Escalas: make(map[int64]Escala, len(out.Escalas))}
	for _, e := range out.Escalas {
		q.Escalas[e.ID] = Escala(e)
	}
	for i, m := range out.Funcionarios {
		f := Funcionario{Funcionario: employeeapi.Funcionario{ID: m.ID, Nome: m.Nome, Cargo: m.Cargo, CPF: m.CPF,
			Ativo: m.Ativo, Segmento: m.Segmento, EscalaTrabalhoID: m.EscalaTrabalhoID, DataAdmissao: m.DataAdmissao,
			DataDemissao: m.DataDemissao, FusoHorario: m.FusoHorario, EmpresaID: empresaID, DepartamentoID: &q.Departamento.ID}}
		if e, ok := q.Escalas[m.EscalaTrabalhoID]; ok {
			f.Escala = &e
		}
		q.Funcionarios[i] = f
	}
	return q, nil
}
