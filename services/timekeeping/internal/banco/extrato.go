package banco

import (
	"context"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// Banco computes employees' hour banks from their workdays (relatorio)
// and their manual movements.
type Banco struct {
	store *Store
	days  *relatorio.Store
}

// New returns a Banco over the policies and movements of store and the
// workdays of days.
func New(store *Store, days *relatorio.Store) *Banco { return &Banco{store: store, days: days} }

// Politica returns company empresaID's policy.
func (b *Banco) Politica(ctx context.Context, empresaID int64) (Politica, error) {
	return b.store.Politica(ctx, empresaID)
}

// Saldo is an employee's bank up to a date (Ate): the period holding it,
// the balance and the period's movements (from the vencimento of the
// period before, when it left a balance). Workdays count up to
// ApuradoAte: the day before today at most, as a workday in progress is
// not banked.
type Saldo struct {
	FuncionarioID int64       `json:"funcionarioId"`
	Ate           string      `json:"ate"`
	ApuradoAte    string      `json:"apuradoAte"`
	Ativo         bool        `json:"ativo"`
	Periodo       *Periodo    `json:"periodo"`
	SaldoMinutos  int         `json:"saldoMinutos"`
	Movimentos    []Movimento `json:"movimentos"`
}

// Periodo is a compensation period.
type Periodo struct {
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

// Saldos computes the banks up to civil date ate of the employees of
// params (relatorio.Params over the dates it is given) under policy pol,
// counting workdays up to apurarAte: one read of the workdays and one of
// the manual movements for all of them. Movements before desde are left
// out of the answers (the report's or the timesheet's own period).
func (b *Banco) Saldos(ctx context.Context, empresaID int64, ids []int64, pol Politica, ate, apurarAte, desde time.Time,
	params func(inicio, fim time.Time) relatorio.Params) (map[int64]Saldo, error) {
	out := make(map[int64]Saldo, len(ids))
	apurarAte = minDate(apurarAte, ate)
	if !pol.Ativo {
		for _, id := range ids {
			out[id] = Saldo{FuncionarioID: id, Ate: ate.Format(time.DateOnly), ApuradoAte: apurarAte.Format(time.DateOnly),
				Movimentos: []Movimento{}}
		}
		return out, nil
	}
	p := pol.Core()
	p.Inicio = Janela(p, ate)
	dias := map[int64][]core.DiaBanco{}
	if !apurarAte.Before(p.Inicio) {
		rp := params(p.Inicio, apurarAte)
		days, err := b.days.Days(ctx, rp)
		if err != nil {
			return nil, err
		}
		relatorio.ComputeDays(days, rp)
		for i := range days {
			d := &days[i]
			data, _ := time.Parse(time.DateOnly, d.Data)
			dias[d.FuncionarioID] = append(dias[d.FuncionarioID], core.DiaBanco{Data: data, Saldo: d.SaldoMinutos,
				Ausencia: d.Ausencia()})
		}
	}
	manuais, err := b.store.manuais(ctx, empresaID, ids, p.Inicio, ate)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		x := core.ComputeBanco(p, dias[id], manuais[id], ate)
		out[id] = saldo(id, x, ate, apurarAte, maxDate(desde, x.Inicio))
	}
	return out, nil
}

// saldo renders extrato x of employee id, with its movements from desde.
func saldo(id int64, x core.Extrato, ate, apurado, desde time.Time) Saldo {
	s := Saldo{FuncionarioID: id, Ate: ate.Format(time.DateOnly), ApuradoAte: apurado.Format(time.DateOnly), Ativo: true,
		Periodo:      &Periodo{Inicio: x.Inicio.Format(time.DateOnly), Fim: x.Fim.Format(time.DateOnly)},
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

// Relatorio is the department report's hour bank (relatorio.BancoHoras):
// each listed employee's Saldo at ate, with the movements from inicio.
func (b *Banco) Relatorio(ctx context.Context, empresaID int64, listed []employee.Funcionario,
	escalas map[int64]*core.Escala, inicio, ate, hoje time.Time) (map[int64]any, error) {
	pol, err := b.store.Politica(ctx, empresaID)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(listed))
	for _, f := range listed {
		ids = append(ids, f.ID)
	}
	saldos, err := b.Saldos(ctx, empresaID, ids, pol, ate, hoje.AddDate(0, 0, -1), inicio,
		func(i, f time.Time) relatorio.Params { return relatorio.NewParams(empresaID, i, f, listed, escalas) })
	if err != nil {
		return nil, err
	}
	out := make(map[int64]any, len(saldos))
	for id, s := range saldos {
		out[id] = s
	}
	return out, nil
}
