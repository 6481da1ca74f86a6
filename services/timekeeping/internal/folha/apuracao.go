package folha

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
)

// Apuracao is Totais over the workday engine: the timesheet's figures,
// read once for every employee of the export.
type Apuracao struct {
	Engine    *apuracao.Apuracao
	Employees *employee.Client
	Zones     *fuso.Zones
	Clock     *clock.Clock
	DB        *pgxpool.Pool // the establishments
}

// Periodo computes the totals of company empresaID's active employees
// (of filtro's establishment) over [inicio, fim], up to today, with
// their hour banks' movements of the period.
func (r *Apuracao) Periodo(ctx context.Context, empresaID int64, filtro Filtro, inicio, fim time.Time) ([]TotaisFuncionario, error) {
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
	out := make([]TotaisFuncionario, len(funcs))
	for i, f := range funcs {
		out[i] = TotaisFuncionario{FuncionarioID: f.ID, CPF: f.CPF, Nome: f.Nome,
			Matricula: strconv.FormatInt(f.ID, 10), Afastamentos: map[string]int{}}
	}
	if ate.Before(inicio) {
		return out, nil
	}
	escalas, err := apuracao.EscalasOf(roster.Escalas)
	if err != nil {
		return nil, err
	}
	res, err := r.Engine.Apurar(ctx, apuracao.Consulta{EmpresaID: empresaID, Funcionarios: funcs, Escalas: escalas,
		Inicio: inicio, Fim: ate, DSR: true,
		Banco: &apuracao.ConsultaBanco{Ate: ate, ApurarAte: hoje.AddDate(0, 0, -1), Desde: inicio}})
	if err != nil {
		return nil, err
	}
	for i, a := range res.Each() {
		f := a.Folha(inicio, ate)
		o := &out[i]
		o.Extras50, o.Extras100 = f.Extras50, f.Extras100
		o.Noturnos, o.NoturnosReduzidos = f.Noturnos, f.NoturnosReduzidos
		o.Atrasos, o.FaltasDias, o.FaltasMinutos = f.Atrasos, f.FaltasDias, f.FaltasMinutos
		o.DSRPerdidos = f.DSRPerdidos
		o.BancoPago, o.BancoDescontado = f.BancoPago, f.BancoDescontado
		o.IntervaloSuprimido, o.Interjornada = f.IntervaloSuprimido, f.Interjornada
		o.Afastamentos = f.Afastamentos
	}
	return out, nil
}

// listed are roster's employees of filtro's establishment (all without
// one; the principal's own id names 0, as the employee service does).
func (r *Apuracao) listed(ctx context.Context, empresaID int64, roster employee.Empresa, filtro Filtro) ([]employee.Funcionario, error) {
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
