package relatorio

import (
	"time"

	"github.com/ponto/ponto/services/timekeeping/internal/clt"
)

// apurar applies the CLT rules (package clt) to each day row, in one pass
// over the rows the SQL already aggregated, using each employee's
// scheduled marks from p.
func apurar(days []Dia, p Params) {
	for i := range days {
		d := &days[i]
		data, _ := time.Parse(time.DateOnly, d.Data)
		weekday := (int(data.Weekday()) + 6) % 7 // 0 Monday ... 6 Sunday
		var programadas []int
		if week := p.programadas[d.FuncionarioID]; week != nil {
			programadas = week[weekday]
		}
		a := clt.Apurar(clt.Dia{Trabalhados: d.MinutosTrabalhados, Previstos: d.MinutosPrevistos,
			AtrasoBruto: d.atrasoBruto, Marcas: d.marcas, Programadas: programadas, Descanso: d.DescansoMinutos,
			Domingo: data.Weekday() == time.Sunday, Feriado: d.Feriado != nil, ForaDoLocal: d.fora})
		d.MinutosPrevistos, d.MinutosExtras, d.MinutosAtraso, d.SaldoMinutos = a.Previstos, a.Extras, a.Atraso, a.Saldo
		d.MinutosExtras50, d.MinutosExtras100 = a.Extras50, a.Extras100
		d.MinutosNoturnos, d.MinutosNoturnosReduzidos = a.Noturnos, a.NoturnosReduzidos
		d.ToleranciaAplicada, d.Alertas = a.Tolerancia, a.Alertas
	}
}

// Apurar is apurar for the timesheet, which reads its rows with Days.
func Apurar(days []Dia, p Params) { apurar(days, p) }

// add sums day d into t.
func (t *Totais) add(d *Dia) {
	t.MinutosTrabalhados += d.MinutosTrabalhados
	t.MinutosPrevistos += d.MinutosPrevistos
	t.MinutosExtras += d.MinutosExtras
	t.MinutosAtraso += d.MinutosAtraso
	t.SaldoMinutos += d.SaldoMinutos
	if d.Falta {
		t.Faltas++
	}
	t.AjustesPendentes += d.AjustesPendentes
	t.MinutosExtras50 += d.MinutosExtras50
	t.MinutosExtras100 += d.MinutosExtras100
	t.MinutosNoturnos += d.MinutosNoturnos
	t.MinutosNoturnosReduzidos += d.MinutosNoturnosReduzidos
	t.Alertas += len(d.Alertas)
}

// Somar is the totals of days.
func Somar(days []Dia) Totais {
	var t Totais
	for i := range days {
		t.add(&days[i])
	}
	return t
}
