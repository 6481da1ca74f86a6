package core

import (
	"slices"
	"time"
)

// The paid weekly rest (descanso semanal remunerado, DSR, Lei 605/49):
// every employee has a paid day of rest a week, on the days the schedule
// names (Escala.DescansoSemanal, Sunday by default). Art. 6: the rest is
// not paid when, without a justified reason, the employee did not work
// the whole week before it. ponto reads "the week before" as the six days
// before each rest day, so a rest day is lost (DSR.Perdido) when an
// unexcused absence (FaltaInjustificada) falls in those six days.
//
// A 12x36 schedule has no DSR of its own to lose: CLT art. 59-A sole
// paragraph says its monthly pay already covers the weekly rest.

// DiasSemanaDSR is the window before a rest day that art. 6 looks at.
const DiasSemanaDSR = 6

// DSR is one rest day of the period and whether it is lost, with the
// absences that cost it.
type DSR struct {
	Data    time.Time // civil date
	Perdido bool
	Faltas  []time.Time
}

// Descanso reports whether civil date d is a weekly rest day of the
// schedule: one of DescansoSemanal, or Sunday when it names none. A
// 12x36 schedule, or none, has no weekly rest day (see above).
func (e *Escala) Descanso(d time.Time) bool {
	if e == nil || e.Ciclo != nil {
		return false
	}
	if len(e.DescansoSemanal) == 0 {
		return d.Weekday() == time.Sunday
	}
	return slices.Contains(e.DescansoSemanal, Weekday(d))
}

// DSRs are the weekly rest days of schedule e from civil date inicio to
// fim, each lost when ausente (the unexcused absences by civil date)
// holds one of the DiasSemanaDSR days before it. The caller gives the
// absences from inicio minus DiasSemanaDSR on, so the first rest days of
// a month see the end of the month before.
func DSRs(e *Escala, inicio, fim time.Time, ausente map[string]bool) []DSR {
	return DSRsPor(e, inicio, fim, func(d time.Time) bool { return ausente[d.Format(time.DateOnly)] })
}

// DSRsPor is DSRs with the unexcused absences given as a test of a civil
// date, for a caller that holds them otherwise (the department report,
// which computes a thousand employees' rest days, indexes them by day).
func DSRsPor(e *Escala, inicio, fim time.Time, ausente func(time.Time) bool) []DSR {
	out := []DSR{}
	for d := inicio; !d.After(fim); d = d.AddDate(0, 0, 1) {
		if !e.Descanso(d) {
			continue
		}
		r := DSR{Data: d, Faltas: []time.Time{}}
		for k := DiasSemanaDSR; k >= 1; k-- {
			if day := d.AddDate(0, 0, -k); ausente(day) {
				r.Faltas = append(r.Faltas, day)
			}
		}
		r.Perdido = len(r.Faltas) > 0
		out = append(out, r)
	}
	return out
}

// CustaDSR reports whether a day costs the week's paid rest (Lei 605/49
// art. 6): an unexcused absence does, and so does a leave day whose kind
// says so (PerdeDSR: a disciplinary suspension, CLT art. 474, and an
// unpaid leave, whose weeks are not worked "integralmente"); other
// leaves are justified absences (art. 6 §1) and keep it.
func CustaDSR(ausencia bool, afastamento *Regra) bool {
	return ausencia || (afastamento != nil && afastamento.PerdeDSR)
}

// Perdidos counts the lost rest days of ds.
func Perdidos(ds []DSR) int {
	n := 0
	for _, d := range ds {
		if d.Perdido {
			n++
		}
	}
	return n
}
