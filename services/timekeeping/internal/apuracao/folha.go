package apuracao

import (
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Folha is an employee's period as payroll pays it, in minutes (days
// where it says so): what a payroll export maps to the company's codes.
type Folha struct {
	Extras50, Extras100 int
	// Noturnos are the night minutes by the clock, NoturnosReduzidos in
	// night hours of 52'30" (CLT art. 73 §1).
	Noturnos, NoturnosReduzidos int
	Atrasos                     int
	// FaltasDias counts the unexcused absences, FaltasMinutos the
	// minutes they owe.
	FaltasDias, FaltasMinutos int
	DSRPerdidos               int
	// BancoPago is the hour-bank credit paid out, BancoDescontado the
	// debit discounted from pay, both dated in the period.
	BancoPago, BancoDescontado int
	// IntervaloSuprimido is art. 71 §4's, Interjornada art. 66's.
	IntervaloSuprimido, Interjornada int
	// Afastamentos are the leave days by kind (calendar days, inside the
	// bond), as the timesheet's days carry them.
	Afastamentos map[string]int
}

// Folha sums a's days (and its bank's movements from inicio to fim) as
// payroll reads them.
func (a *Apurado) Folha(inicio, fim time.Time) Folha {
	t := a.Totais
	out := Folha{Extras50: t.MinutosExtras50, Extras100: t.MinutosExtras100, Noturnos: t.MinutosNoturnos,
		NoturnosReduzidos: t.MinutosNoturnosReduzidos, Atrasos: t.MinutosAtraso, FaltasDias: t.Faltas,
		DSRPerdidos: t.DSRPerdidos, IntervaloSuprimido: t.MinutosIntervaloSuprimido, Interjornada: t.MinutosInterjornada,
		Afastamentos: map[string]int{}}
	for k, v := range t.DiasAfastamento {
		out.Afastamentos[k] = v
	}
	for i := range a.Dias {
		if d := &a.Dias[i]; d.Falta && d.SaldoMinutos < 0 {
			out.FaltasMinutos -= d.SaldoMinutos
		}
	}
	if a.Banco == nil {
		return out
	}
	de, ate := inicio.Format(time.DateOnly), fim.Format(time.DateOnly)
	for _, m := range a.Banco.Movimentos {
		if m.Data < de || m.Data > ate {
			continue
		}
		switch m.Tipo {
		case core.MovPagamento:
			out.BancoPago += abs(m.Minutos)
		case core.MovDesconto:
			out.BancoDescontado += abs(m.Minutos)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
