package core

import "time"

// AntesDoUso reports whether civil date data is before inicio, the first
// day the company recorded its workdays with ponto (nil: not set, no day
// is). Such a day is outside the bond as ponto sees it, the same rule as a
// day before the admission (Dia.ForaDoVinculo): nothing expected, no
// absence, no DSR lost. Why: CLT art. 74 §2 makes the record of the
// working hours the proof of the workday, and no article of the CLT, Lei
// 605/49 or Portaria 671/2021 obliges charging (or paying) a day the REP
// never recorded; an unpunched day before the company used ponto is the
// absence of a record, not of the employee.
func AntesDoUso(data time.Time, inicio *time.Time) bool {
	if inicio == nil {
		return false
	}
	y, m, d := data.Date()
	iy, im, id := inicio.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Before(time.Date(iy, im, id, 0, 0, 0, 0, time.UTC))
}
