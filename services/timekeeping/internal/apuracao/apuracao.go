// Package apuracao is the workday engine: given a company, employees and
// a period, it reads once everything their workdays need (Leituras: the
// punches and their treatment, abonos, absences, holidays, the company's
// first day on ponto, the hour bank's policy and movements) and answers
// each employee's computed days, rest days (DSR), totals and hour bank
// through the record core's rules (package core). The timesheet, the
// department report, the hour bank, the AEJ and the day at a glance are
// its callers; none of them knows the order of the reads and the rules.
package apuracao

import (
	"context"
	"iter"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// Apuracao computes workdays from its reads.
type Apuracao struct{ leituras Leituras }

// New returns the engine over reads l (NewStore's in production).
func New(l Leituras) *Apuracao { return &Apuracao{leituras: l} }

// Consulta is what a caller asks the engine.
type Consulta struct {
	EmpresaID int64
	// Funcionarios are the employees, in the answer's order; Escalas
	// their schedules by schedule id (EscalasOf).
	Funcionarios []employee.Funcionario
	Escalas      map[int64]*core.Escala
	// Inicio and Fim are the days computed (the caller stops Fim at
	// today: days to come have nothing to show).
	Inicio, Fim time.Time
	// DSR asks for the weekly rest days, which read the six days before
	// Inicio (their absences cost the first ones).
	DSR bool
	// Detalhe tells whose punches and rest days are spelled out (nil:
	// nobody's); everybody counts in the totals.
	Detalhe func(i int) bool
	// EmCurso keeps the days as read, no rule applied: a day under way
	// (the day at a glance) is no absence yet.
	EmCurso bool
	// Banco asks for the hour bank too (nil: none).
	Banco *ConsultaBanco
}

// Resultado is a computation: each employee's days come from it, one
// employee at a time (Each).
type Resultado struct {
	c      Consulta
	f      *fatos
	bancos map[int64]Saldo
	cur    Apurado
}

// Apurado is one employee's computed period.
type Apurado struct {
	Funcionario employee.Funcionario
	// Dias are the days from Inicio with a shift, punches, an absence or
	// abonos; DSR the rest days (with Consulta.DSR, for the detailed).
	Dias []Dia
	DSR  []DSR
	// Totais sum Dias, with the rest days lost.
	Totais Totais
	// Banco is the hour bank (with Consulta.Banco, for those it names).
	Banco *Saldo
}

// Apurar reads c's facts and returns the computation.
func (a *Apuracao) Apurar(ctx context.Context, c Consulta) (*Resultado, error) {
	from := c.Inicio
	if c.DSR {
		from = Antes(c.Inicio)
	}
	f := newFatos(newParams(c.EmpresaID, from, c.Fim, c.Funcionarios, c.Escalas))
	if err := a.leituras.Fatos(ctx, f.p.Periodo, f); err != nil {
		return nil, err
	}
	f.ordenar()
	r := &Resultado{c: c, f: f}
	if c.Banco != nil {
		var err error
		if r.bancos, err = a.bancos(ctx, c); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// InicioUso is the company's first day on ponto (nil: not set): the
// rest days before it owe nothing.
func (r *Resultado) InicioUso() *time.Time { return r.f.inicioUso }

// Len counts the employees.
func (r *Resultado) Len() int { return len(r.c.Funcionarios) }

// Apurado computes employee i's period. It and its days are reused for
// the next call: Copia keeps them.
func (r *Resultado) Apurado(i int) *Apurado {
	r.cur = Apurado{Funcionario: r.c.Funcionarios[i]}
	r.apurar(i, r.f.rows(i, r.c.Detalhe != nil && r.c.Detalhe(i)), &r.cur)
	return &r.cur
}

// Each yields, in the order of Consulta.Funcionarios, each employee's
// index and computed period (Apurado).
func (r *Resultado) Each() iter.Seq2[int, *Apurado] {
	return func(yield func(int, *Apurado) bool) {
		for i := range r.c.Funcionarios {
			if !yield(i, r.Apurado(i)) {
				return
			}
		}
	}
}

// Todos are every employee's computed periods, kept.
func (r *Resultado) Todos() []Apurado {
	out := make([]Apurado, 0, len(r.c.Funcionarios))
	for _, a := range r.Each() {
		out = append(out, a.Copia())
	}
	return out
}

// apurar computes employee i's days (read from the facts' first date)
// into a: the rules, the rest days, the days from Inicio, the totals.
func (r *Resultado) apurar(i int, days []Dia, a *Apurado) {
	c, p := &r.c, r.f.p
	id := c.Funcionarios[i].ID
	if !c.EmCurso {
		computeDays(days, p)
	}
	var perdidos int
	if c.DSR {
		ds := p.dsrOf(id, days, c.Inicio, c.Fim)
		perdidos = core.Perdidos(ds)
		if c.Detalhe != nil && c.Detalhe(i) {
			a.DSR = dsrs(ds)
		}
		days = desde(days, c.Inicio)
	}
	a.Dias = days
	a.Totais = Sum(days)
	a.Totais.DSRPerdidos = perdidos
	if s, ok := r.bancos[id]; ok {
		b := s // on the heap only for those with a bank
		a.Banco = &b
	}
}

// Copia is a with its days copied, to keep past the next employee.
func (a *Apurado) Copia() Apurado {
	out := *a
	out.Dias = cloneDias(a.Dias)
	return out
}

// desde drops, in place, the days before inicio (read only for the DSR).
func desde(days []Dia, inicio time.Time) []Dia {
	from := inicio.Format(time.DateOnly)
	k := 0
	for k < len(days) && days[k].Data < from {
		k++
	}
	return days[k:]
}
