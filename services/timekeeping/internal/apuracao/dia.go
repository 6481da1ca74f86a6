package apuracao

import (
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// params are a computation's facts to read (Periodo) and each
// employee's schedule and bond for the record core.
type params struct {
	Periodo
	// escalas are each employee's schedules as the core reads them;
	// admissoes the admission dates (YYYY-MM-DD) of those who have one.
	escalas   map[int64]*core.Escala
	admissoes map[int64]string
	// demissoes are the termination dates (YYYY-MM-DD) of those who have
	// one: after it, as before the admission, nothing is owed.
	demissoes map[int64]string
}

// foraDoVinculo reports whether date data (YYYY-MM-DD) of employee id is
// before his admission or after his termination.
func (p params) foraDoVinculo(id int64, data string) bool {
	if a, ok := p.admissoes[id]; ok && data < a {
		return true
	}
	d, ok := p.demissoes[id]
	return ok && data > d
}

// Dia is one employee's day in the report.
type Dia struct {
	FuncionarioID      int64     `json:"-"`
	Data               string    `json:"data"`
	Marcacoes          Marcacoes `json:"marcacoes"`
	MinutosTrabalhados int       `json:"minutosTrabalhados"`
	MinutosPrevistos   int       `json:"minutosPrevistos"`
	MinutosExtras      int       `json:"minutosExtras"`
	MinutosAtraso      int       `json:"minutosAtraso"`
	SaldoMinutos       int       `json:"saldoMinutos"`
	// MinutosAbonados are the scheduled minutes excused by abonos: in the
	// balance as worked, never overtime.
	MinutosAbonados int `json:"minutosAbonados"`
	// Falta is the rule's verdict (core.FaltaInjustificada): an unexcused
	// absence, the company's mark or a scheduled day without punches;
	// FaltaMarcada the company's explicit mark (not undone).
	Falta            bool `json:"falta"`
	FaltaMarcada     bool `json:"faltaMarcada"`
	AjustesPendentes int  `json:"ajustesPendentes"`
	Incompleto       bool `json:"incompleto"`
	// ForaDoVinculo: the date is before the admission or after the
	// termination; nothing is owed.
	ForaDoVinculo bool `json:"foraDoVinculo"`
	// MinutosIntervaloSuprimido are art. 71 §4's suppressed break minutes,
	// MinutosInterjornada the minutes short of art. 66's 11 hours of rest.
	MinutosIntervaloSuprimido int `json:"minutosIntervaloSuprimido"`
	MinutosInterjornada       int `json:"minutosInterjornada"`

	// The CLT figures (core.ComputeApuracao): overtime split by rate, night work in
	// clock and night-hour minutes, whether the tolerance of art. 58 §1
	// absorbed the day's variations, the rest since the previous workday,
	// the company holiday and the day's alerts.
	MinutosExtras50          int      `json:"minutosExtras50"`
	MinutosExtras100         int      `json:"minutosExtras100"`
	MinutosNoturnos          int      `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int      `json:"minutosNoturnosReduzidos"`
	ToleranciaAplicada       bool     `json:"toleranciaAplicada"`
	DescansoMinutos          *int     `json:"descansoMinutos"`
	Feriado                  *string  `json:"feriado"`
	Alertas                  []string `json:"alertas"`
	// Afastamento is the leave covering the day (nil: none).
	Afastamento *Afastamento `json:"afastamento,omitempty"`

	// The facts the rules start from. marcas are the effective times of
	// the punches, in NSR order, as minutes after the local midnight of
	// the workday's date (past 1440 for a night shift's punches after
	// midnight; below 0 or past a day when an approved adjustment moved a
	// punch to another date).
	marcas []int
	fora   int
	// The day's treatment, parallel to marcas (incluidas,
	// desconsideradas: nil when no punch is one) and its abonos (a whole day, or ranges in minutes
	// after the workday's local midnight).
	incluidas, desconsideradas []bool
	abonoDia                   bool
	abonoInicios, abonoFins    []int
	// ausencia is core.Apuracao.Ausencia, once computed; feriadoSeguinte
	// tells that the next date is a holiday.
	ausencia        bool
	feriadoSeguinte bool
	// perdeDSR: the day costs the week's rest (core.CustaDSR).
	perdeDSR bool
	// antesDoUso: the date is before the company's first day on ponto
	// (core.AntesDoUso), outside the bond as the rules see it.
	antesDoUso bool
	// data is Data as a civil date (UTC midnight), kept so that computing
	// a department's tens of thousands of days does not parse each one
	// back.
	data time.Time
}

// Afastamento is a day's leave as the answers name it, with the day's
// rule (core.Afastamento.RegraDia).
type Afastamento struct {
	ID    int64      `json:"id"`
	Tipo  string     `json:"tipo"`
	regra core.Regra `json:"-"`
}

// Regra is the leave's rule for the day.
func (a *Afastamento) Regra() core.Regra { return a.regra }

// Totais sums days: minutes, absences and pending adjustments.
type Totais struct {
	MinutosTrabalhados int `json:"minutosTrabalhados"`
	MinutosPrevistos   int `json:"minutosPrevistos"`
	MinutosExtras      int `json:"minutosExtras"`
	MinutosAtraso      int `json:"minutosAtraso"`
	SaldoMinutos       int `json:"saldoMinutos"`
	MinutosAbonados    int `json:"minutosAbonados"`
	Faltas             int `json:"faltas"`
	AjustesPendentes   int `json:"ajustesPendentes"`

	MinutosExtras50          int `json:"minutosExtras50"`
	MinutosExtras100         int `json:"minutosExtras100"`
	MinutosNoturnos          int `json:"minutosNoturnos"`
	MinutosNoturnosReduzidos int `json:"minutosNoturnosReduzidos"`
	// Alertas counts the alerts of the days.
	Alertas int `json:"alertas"`
	// The suppressed break (art. 71 §4) and rest (art. 66) minutes.
	MinutosIntervaloSuprimido int `json:"minutosIntervaloSuprimido"`
	MinutosInterjornada       int `json:"minutosInterjornada"`
	// DSRPerdidos counts the weekly rest days lost to unexcused absences
	// (Lei 605/49 art. 6).
	DSRPerdidos int `json:"dsrPerdidos"`
	// DiasAfastamento counts the leave days (inside the bond) by kind.
	DiasAfastamento map[string]int `json:"diasAfastamento,omitempty"`
}
