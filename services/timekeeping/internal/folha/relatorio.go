package folha

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/banco"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// Relatorio is Totais over the department report's reads (package
// relatorio) and the hour bank (package banco), in the timesheet's order
// of calls, until the workday engine answers Totais itself.
type Relatorio struct {
	Days      *relatorio.Store
	Banco     *banco.Banco
	Employees *employee.Client
	Zones     *fuso.Zones
	Clock     *clock.Clock
	DB        *pgxpool.Pool // the establishments
}

// Periodo computes the totals of company empresaID's active employees
// (of filtro's establishment) over [inicio, fim], up to today: one read
// of the workdays for all of them, from six days before inicio (the
// DSR), and one of their hour banks.
func (r *Relatorio) Periodo(ctx context.Context, empresaID int64, filtro Filtro, inicio, fim time.Time) ([]TotaisFuncionario, error) {
	zone, err := r.Zones.Empresa(ctx, empresaID)
	if err != nil {
		return nil, err
	}
	hoje := r.Clock.Today(zone)
	ate := fim
	if hoje.Before(ate) {
		ate = hoje
	}
	roster, err := r.Employees.Empresa(ctx, empresaID)
	if err != nil {
		return nil, err
	}
	funcs, err := r.listed(ctx, empresaID, roster, filtro)
	if err != nil || len(funcs) == 0 {
		return []TotaisFuncionario{}, err
	}
	escalas, err := relatorio.EscalasOf(roster.Escalas)
	if err != nil {
		return nil, err
	}
	out := make([]TotaisFuncionario, len(funcs))
	for i, f := range funcs {
		out[i] = TotaisFuncionario{FuncionarioID: f.ID, CPF: f.CPF, Nome: f.Nome,
			Matricula: strconv.FormatInt(f.ID, 10), Afastamentos: map[string]int{}}
	}
	if !ate.Before(inicio) {
		if err := r.workdays(ctx, empresaID, funcs, escalas, inicio, ate, out); err != nil {
			return nil, err
		}
	}
	if err := r.bancos(ctx, empresaID, funcs, escalas, inicio, ate, hoje, out); err != nil {
		return nil, err
	}
	return out, nil
}

// listed are roster's employees of filtro's establishment (all without
// one; the principal's own id names 0, as the employee service does).
func (r *Relatorio) listed(ctx context.Context, empresaID int64, roster employee.Empresa, filtro Filtro) ([]employee.Funcionario, error) {
	if filtro.Estabelecimento == nil {
		return roster.Funcionarios, nil
	}
	want := *filtro.Estabelecimento
	if want != 0 {
		e, err := estabelecimento.Find(ctx, r.DB, empresaID, want)
		if err != nil {
			return nil, err
		}
		if e != nil && e.Principal {
			want = 0
		}
	}
	var out []employee.Funcionario
	for i, f := range roster.Funcionarios {
		if roster.Estabelecimentos[i] == want {
			out = append(out, f)
		}
	}
	return out, nil
}

// workdays sums each employee's computed days from inicio to ate and his
// lost rest days, as the timesheet does (Antes, ComputeDays, DSRs, Desde,
// Sum), into out.
func (r *Relatorio) workdays(ctx context.Context, empresaID int64, funcs []employee.Funcionario,
	escalas map[int64]*core.Escala, inicio, ate time.Time, out []TotaisFuncionario) error {
	p := relatorio.NewParams(empresaID, relatorio.Antes(inicio), ate, funcs, escalas)
	fatos, err := r.Days.Fatos(ctx, p)
	if err != nil {
		return err
	}
	for i, days := range fatos.Each(nil) {
		// One employee's parameters: DSRs answers every employee of its
		// Params, which over a department would be quadratic.
		one := relatorio.NewParams(empresaID, relatorio.Antes(inicio), ate, funcs[i:i+1], escalas)
		relatorio.ComputeDays(days, one)
		dsr := relatorio.DSRs(days, one, inicio, ate)[funcs[i].ID]
		days = relatorio.Desde(days, inicio)
		t := relatorio.Sum(days)
		o := &out[i]
		o.Extras50, o.Extras100 = t.MinutosExtras50, t.MinutosExtras100
		o.Noturnos, o.NoturnosReduzidos = t.MinutosNoturnos, t.MinutosNoturnosReduzidos
		o.Atrasos, o.FaltasDias = t.MinutosAtraso, t.Faltas
		o.IntervaloSuprimido, o.Interjornada = t.MinutosIntervaloSuprimido, t.MinutosInterjornada
		o.DSRPerdidos = relatorio.Perdidos(dsr)
		for j := range days {
			if days[j].Falta {
				o.FaltasMinutos += days[j].MinutosPrevistos
			}
		}
	}
	return nil
}

// bancos adds each employee's hour-bank payments and discounts dated
// from inicio to ate (the bank's movements, as the timesheet lists them).
func (r *Relatorio) bancos(ctx context.Context, empresaID int64, funcs []employee.Funcionario,
	escalas map[int64]*core.Escala, inicio, ate, hoje time.Time, out []TotaisFuncionario) error {
	if ate.Before(inicio) {
		return nil
	}
	saldos, err := r.Banco.Relatorio(ctx, empresaID, funcs, escalas, inicio, ate, hoje)
	if err != nil {
		return err
	}
	de, fim := inicio.Format(time.DateOnly), ate.Format(time.DateOnly)
	for i := range out {
		s, _ := saldos[out[i].FuncionarioID].(banco.Saldo)
		for _, m := range s.Movimentos {
			if m.Data < de || m.Data > fim {
				continue
			}
			switch m.Tipo {
			case core.MovPagamento:
				out[i].BancoPago += abs(m.Minutos)
			case core.MovDesconto:
				out[i].BancoDescontado += abs(m.Minutos)
			}
		}
	}
	return nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
