package apuracao

import (
	"context"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// ConsultaBanco asks for the hour bank at Ate.
type ConsultaBanco struct {
	// Ate is the balance's date; workdays count up to ApurarAte (a
	// workday under way is not banked); the movements before Desde are
	// left out of the answer (the period shown).
	Ate, ApurarAte, Desde time.Time
	// De tells whose bank (nil: everybody's).
	De func(i int) bool
	// Politica is the company's policy when the caller has read it
	// already (nil: read).
	Politica *Politica
}

// Politica is a company's hour-bank policy as the routes answer it; a
// company that never set one has the default, off (Inicio and
// AtualizadoEm null).
type Politica struct {
	Ativo                bool    `json:"ativo"`
	PeriodoMeses         int     `json:"periodoMeses"`
	Inicio               *string `json:"inicio"`
	LimiteCreditoMinutos int     `json:"limiteCreditoMinutos"`
	LimiteDebitoMinutos  int     `json:"limiteDebitoMinutos"`
	AtualizadoEm         *string `json:"atualizadoEm"`
}

// Core is the policy as the record core reads it.
func (p Politica) Core() core.PoliticaBanco {
	out := core.PoliticaBanco{PeriodoMeses: p.PeriodoMeses, LimiteCredito: p.LimiteCreditoMinutos,
		LimiteDebito: p.LimiteDebitoMinutos}
	if p.Inicio != nil {
		out.Inicio, _ = time.Parse(time.DateOnly, *p.Inicio)
	}
	return out
}

// Saldo is an employee's bank up to a date (Ate): the period holding it,
// the balance and the period's movements (from the vencimento of the
// period before, when it left a balance). Workdays count up to
// ApuradoAte: the day before today at most, as a workday in progress is
// not banked.
type Saldo struct {
	FuncionarioID int64         `json:"funcionarioId"`
	Ate           string        `json:"ate"`
	ApuradoAte    string        `json:"apuradoAte"`
	Ativo         bool          `json:"ativo"`
	Periodo       *PeriodoBanco `json:"periodo"`
	SaldoMinutos  int           `json:"saldoMinutos"`
	Movimentos    []Movimento   `json:"movimentos"`
}

// PeriodoBanco is a compensation period.
type PeriodoBanco struct {
	Inicio string `json:"inicio"`
	Fim    string `json:"fim"`
}

// Movimento is a movement of the bank: computed (id null: credito,
// debito, vencimento) or manual.
type Movimento struct {
	ID               *int64 `json:"id"`
	Data             string `json:"data"`
	Tipo             string `json:"tipo"`
	Minutos          int    `json:"minutos"`
	ExcedenteMinutos int    `json:"excedenteMinutos"`
	SaldoMinutos     int    `json:"saldoMinutos"`
	Motivo           string `json:"motivo"`
}

// Janela is the first date the bank of date ate is computed from: the
// start of the period before ate's (so that its vencimento shows), or
// the policy's start.
func Janela(p core.PoliticaBanco, ate time.Time) time.Time {
	inicio, _ := p.Periodo(ate)
	if inicio.After(p.Inicio) {
		inicio, _ = p.Periodo(inicio.AddDate(0, 0, -1))
	}
	return inicio
}

// Saldos is the hour bank of c's employees alone (Consulta.Banco set,
// Inicio and Fim unused).
func (a *Apuracao) Saldos(ctx context.Context, c Consulta) (map[int64]Saldo, error) {
	return a.bancos(ctx, c)
}

// bancos computes the banks of c.Banco's employees: one read of their
// workdays over the bank's window, one of their manual movements.
func (a *Apuracao) bancos(ctx context.Context, c Consulta) (map[int64]Saldo, error) {
	b := c.Banco
	var funcs = c.Funcionarios
	if b.De != nil {
		funcs = nil
		for i, f := range c.Funcionarios {
			if b.De(i) {
				funcs = append(funcs, f)
			}
		}
	}
	pol := b.Politica
	if pol == nil {
		p, err := a.leituras.Politica(ctx, c.EmpresaID)
		if err != nil {
			return nil, err
		}
		pol = &p
	}
	out := make(map[int64]Saldo, len(funcs))
	ate := b.Ate
	apurarAte := minDate(b.ApurarAte, ate)
	if !pol.Ativo {
		for _, f := range funcs {
			out[f.ID] = Saldo{FuncionarioID: f.ID, Ate: ate.Format(time.DateOnly),
				ApuradoAte: apurarAte.Format(time.DateOnly), Movimentos: []Movimento{}}
		}
		return out, nil
	}
	p := pol.Core()
	p.Inicio = Janela(p, ate)
	dias := map[int64][]core.DiaBanco{}
	if !apurarAte.Before(p.Inicio) && len(funcs) > 0 {
		r, err := a.Apurar(ctx, Consulta{EmpresaID: c.EmpresaID, Funcionarios: funcs, Escalas: c.Escalas,
			Inicio: p.Inicio, Fim: apurarAte})
		if err != nil {
			return nil, err
		}
		for _, x := range r.Each() {
			for i := range x.Dias {
				d := &x.Dias[i]
				dias[x.Funcionario.ID] = append(dias[x.Funcionario.ID], core.DiaBanco{Data: d.date(),
					Saldo: d.SaldoMinutos, Ausencia: d.ausencia})
			}
		}
	}
	ids := make([]int64, 0, len(funcs))
	for _, f := range funcs {
		ids = append(ids, f.ID)
	}
	manuais, err := a.leituras.Movimentos(ctx, c.EmpresaID, ids, p.Inicio, ate)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		x := core.ComputeBanco(p, dias[id], manuais[id], ate)
		out[id] = saldo(id, x, ate, apurarAte, maxDate(b.Desde, x.Inicio))
	}
	return out, nil
}

// saldo renders extrato x of employee id, with its movements from desde.
func saldo(id int64, x core.Extrato, ate, apurado, desde time.Time) Saldo {
	s := Saldo{FuncionarioID: id, Ate: ate.Format(time.DateOnly), ApuradoAte: apurado.Format(time.DateOnly), Ativo: true,
		Periodo:      &PeriodoBanco{Inicio: x.Inicio.Format(time.DateOnly), Fim: x.Fim.Format(time.DateOnly)},
		SaldoMinutos: x.Saldo, Movimentos: []Movimento{}}
	for _, m := range core.DoPeriodo(x.Movimentos, desde) {
		mv := Movimento{Data: m.Data.Format(time.DateOnly), Tipo: m.Tipo, Minutos: m.Minutos,
			ExcedenteMinutos: m.Excedente, SaldoMinutos: m.Saldo, Motivo: m.Motivo}
		if m.ID != 0 {
			id := m.ID
			mv.ID = &id
		}
		s.Movimentos = append(s.Movimentos, mv)
	}
	return s
}

func minDate(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxDate(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
