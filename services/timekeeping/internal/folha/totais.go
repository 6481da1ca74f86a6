package folha

import (
	"context"
	"time"
)

// Totais is what the export needs of the workday engine: each listed
// employee's totals over [inicio, fim], as his timesheet shows them.
type Totais interface {
	Periodo(ctx context.Context, empresaID int64, filtro Filtro, inicio, fim time.Time) ([]TotaisFuncionario, error)
}

// Filtro narrows the employees: Estabelecimento an establishment's id
// (nil: all; 0 the principal), as the day at a glance reads it.
type Filtro struct {
	Estabelecimento *int64
}

// TotaisFuncionario are one employee's figures of the period, in
// minutes unless named in days.
type TotaisFuncionario struct {
	FuncionarioID int64
	CPF, Nome     string
	// Matricula is the registration the payroll knows him by (ponto's
	// employee id until the employee record carries one).
	Matricula string

	Extras50, Extras100         int
	Noturnos, NoturnosReduzidos int
	Atrasos                     int
	// FaltasDias are the unexcused absence days, FaltasMinutos their
	// scheduled minutes.
	FaltasDias, FaltasMinutos int
	DSRPerdidos               int // days
	BancoPago                 int // hour-bank credit paid as overtime
	BancoDescontado           int // hour-bank debit discounted from pay
	IntervaloSuprimido        int // art. 71 §4
	Interjornada              int // art. 66
	// Afastamentos are the leave days by kind (TiposAfastamento).
	Afastamentos map[string]int
}

// Lancamento is one line of the export: an employee's event.
type Lancamento struct {
	Funcionario *TotaisFuncionario
	Evento      string
	Codigo      string
	Minutos     int
	// Dias is set for the events counted in days (faltas, dsrPerdidos,
	// afastamento_*); EmDias tells those counted in days only.
	Dias   *int
	EmDias bool
}

// Lancamentos are t's non-zero events under the codes of mapa, in the
// order of Eventos; an event mapped to "" is left out.
func (t *TotaisFuncionario) Lancamentos(mapa map[string]string) []Lancamento {
	var out []Lancamento
	for _, ev := range ordem {
		codigo := mapa[ev]
		if codigo == "" {
			continue
		}
		l := Lancamento{Funcionario: t, Evento: ev, Codigo: codigo}
		// dias is the event's days when it counts them (contaDias); the
		// pointer is taken only for an event kept.
		dias, contaDias := 0, true
		switch {
		case ev == Faltas:
			l.Minutos, dias = t.FaltasMinutos, t.FaltasDias
		case ev == DSRPerdidos:
			dias, l.EmDias = t.DSRPerdidos, true
		case len(ev) > len(PrefixoAfastamento) && ev[:len(PrefixoAfastamento)] == PrefixoAfastamento:
			dias, l.EmDias = t.Afastamentos[ev[len(PrefixoAfastamento):]], true
		default:
			l.Minutos, contaDias = t.minutos(ev), false
		}
		if l.Minutos != 0 || dias != 0 {
			if contaDias {
				l.Dias = ptr(dias)
			}
			out = append(out, l)
		}
	}
	return out
}

func ptr(n int) *int { return &n }

// minutos is t's figure for an event counted in minutes (0 for others).
func (t *TotaisFuncionario) minutos(ev string) int {
	switch ev {
	case Extras50:
		return t.Extras50
	case Extras100:
		return t.Extras100
	case Noturnos:
		return t.Noturnos
	case NoturnosReduzidos:
		return t.NoturnosReduzidos
	case Atrasos:
		return t.Atrasos
	case BancoPago:
		return t.BancoPago
	case BancoDescontado:
		return t.BancoDescontado
	case IntervaloSuprimido:
		return t.IntervaloSuprimido
	case Interjornada:
		return t.Interjornada
	}
	return 0
}
