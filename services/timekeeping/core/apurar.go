package core

// Dia is what is known of an employee's workday before the rules apply.
type Dia struct {
	// Marcas are the effective punches in punch order, minutes after the
	// local midnight of the workday's date: the REP's originals and the
	// punches the company included, which Tratamento tells apart.
	Marcas []int
	// Turno is the schedule's shift of the workday (nil on a rest day or
	// without a schedule).
	Turno *Turno
	// Descanso is the rest since the previous workday's last punch, when
	// the previous date had punches.
	Descanso *int
	Domingo  bool
	Feriado  bool
	// FeriadoSeguinte: the next calendar day is a holiday, so a night
	// shift's minutes after midnight fall on it (see FeriadoMinutos).
	FeriadoSeguinte bool
	// Ciclo12x36: the schedule is a 12x36 (CLT art. 59-A): its scheduled
	// shift on a Sunday or holiday is an ordinary shift.
	Ciclo12x36 bool
	// ForaDoVinculo: the date is before the admission or after the
	// termination: there is no employment bond, so nothing is owed.
	ForaDoVinculo bool
	// ForaDoLocal counts the punches outside every work place.
	ForaDoLocal int
	// Falta is the company's mark of an absence on the day (not undone).
	Falta bool
	// Tratamento is the day's treatment (inclusions, disregarded punches,
	// abonos); the schedule's pre-assigned break comes with Turno.
	Tratamento Tratamento
	// Afastamento is the rule of the leave covering the day (nil: none):
	// it wins over the schedule and the absence mark (Regra.Aplicar).
	Afastamento *Regra
}

// Apuracao is a workday after the rules.
type Apuracao struct {
	Trabalhados, Previstos, Extras, Extras50, Extras100, Atraso, Saldo int
	// Abonados are the scheduled minutes excused by abonos: they count in
	// the balance as worked, never as overtime (see Abonados).
	Abonados int
	// Incompleto is true when the last period has no closing punch.
	Incompleto                  bool
	Noturnos, NoturnosReduzidos int
	// Tolerancia is true when art. 58 §1 absorbed the day's variations.
	Tolerancia bool
	// Ausencia is an unexcused absence (FaltaInjustificada): it costs the
	// week's DSR and is not banked.
	Ausencia bool
	// IntervaloSuprimido are the minutes of art. 71's break not taken
	// (art. 71 §4: only the suppressed part is owed, at +50%, as an
	// indemnity); Interjornada the minutes short of art. 66's 11 hours of
	// rest (TST OJ 355 SDI-1: paid as overtime).
	IntervaloSuprimido, Interjornada int
	Alertas                          []string
}

// ComputeApuracao applies the rules to one day:
//
//   - outside the employment bond (before the admission, after the
//     termination) nothing is expected and nothing is an absence;
//   - the treatment first (Treat): disregarded punches leave, included
//     punches join, a pre-assigned break is counted without punches; the
//     rules below see only the treated punches;
//   - abonos excuse scheduled minutes not worked: they fill the balance
//     and excuse lateness, and are never overtime;
//   - a holiday expects no work: the minutes worked on a holiday's
//     calendar day are overtime at 100% and its scheduled minutes are not
//     expected, minute by minute, so a night shift into or out of a
//     holiday splits at midnight (FeriadoMinutos); a 12x36's scheduled
//     shift on a Sunday or holiday is ordinary (art. 59-A sole paragraph);
//   - within the tolerance (art. 58 §1) the day is as scheduled: no
//     overtime, no lateness, balance 0; beyond it everything counts:
//     overtime is worked minus expected, lateness the first entrada's;
//   - other overtime is at 100% on Sundays, else at 50%;
//   - night minutes (art. 73) are shown on their own, in clock minutes and
//     in night-hour minutes;
//   - the suppressed break (art. 71 §4) and the rest short of 11 hours
//     (art. 66) are counted in minutes;
//   - alerts: break too short (art. 71), rest too short (art. 66), more
//     than 2 hours of 50% overtime (art. 59), punches outside the work
//     places.
func ComputeApuracao(d Dia) Apuracao {
	marcas := d.Marcas
	if !d.Tratamento.Empty() || (d.Turno != nil && d.Turno.PreAssinalado) {
		marcas = Treat(d.Marcas, d.Tratamento, d.Turno)
	}
	if d.ForaDoVinculo {
		d.Turno, d.Falta, d.Afastamento = nil, false, nil
	}
	if d.Ciclo12x36 && d.Turno != nil { // art. 59-A sole paragraph
		d.Feriado, d.FeriadoSeguinte, d.Domingo = false, false, false
	}
	feriados := FeriadoFaixas(d.Feriado, d.FeriadoSeguinte)
	trabalhados := Trabalhados(marcas)
	noFeriado := FeriadoMinutos(marcas, feriados)
	a := Apuracao{Trabalhados: trabalhados, Incompleto: len(marcas)%2 == 1, Alertas: []string{}}
	var programadas []int
	if d.Turno != nil {
		turnoFeriado := FeriadoMinutos(d.Turno.Marcas(), feriados)
		a.Previstos = d.Turno.Previstos() - turnoFeriado
		if turnoFeriado == 0 && noFeriado == 0 {
			programadas = d.Turno.Marcas()
		}
		if !emFeriado(d.Turno.Entrada, feriados) {
			a.Abonados = Abonados(marcas, d.Tratamento, d.Turno)
			if first, ok := PrimeiraEntrada(marcas); ok && first > d.Turno.Entrada {
				a.Atraso = first - d.Turno.Entrada - atrasoAbonado(d.Turno.Entrada, first, d.Tratamento)
			}
		}
	}
	ordinario := trabalhados - noFeriado + a.Abonados - a.Previstos
	a.Saldo = ordinario + noFeriado
	a.Extras = max(0, ordinario) + noFeriado
	if Tolerada(marcas, programadas) {
		a.Tolerancia = true
		a.Saldo, a.Extras, a.Atraso, ordinario = 0, 0, 0, 0
	}
	a.Extras50, a.Extras100 = DividirExtras(max(0, ordinario), d.Domingo)
	a.Extras100 += noFeriado
	a.Ausencia = FaltaInjustificada(d, a, len(marcas))
	a.Noturnos = MinutosNoturnos(marcas)
	a.NoturnosReduzidos = NoturnosReduzidos(a.Noturnos)
	a.IntervaloSuprimido = IntervaloSuprimido(trabalhados, marcas)
	if a.IntervaloSuprimido > 0 {
		a.Alertas = append(a.Alertas, AlertaIntervalo)
	}
	if d.Descanso != nil && DescansoInsuficiente(*d.Descanso) {
		a.Interjornada = DescansoMinimo - *d.Descanso
		a.Alertas = append(a.Alertas, AlertaDescanso)
	}
	if ExtrasAcimaDoLimite(a.Extras50) {
		a.Alertas = append(a.Alertas, AlertaExtras)
	}
	if d.ForaDoLocal > 0 {
		a.Alertas = append(a.Alertas, AlertaLocal)
	}
	if d.Afastamento != nil {
		a = d.Afastamento.Aplicar(a, len(marcas))
	}
	return a
}

// FeriadoFaixas are the holiday calendar days a workday's marks can meet,
// in minutes after its date's local midnight: its own date when feriado,
// the next date when seguinte.
func FeriadoFaixas(feriado, seguinte bool) [][2]int {
	var out [][2]int
	if feriado {
		out = append(out, [2]int{0, minutosDia})
	}
	if seguinte {
		out = append(out, [2]int{minutosDia, 2 * minutosDia})
	}
	return out
}

// FeriadoMinutos are the minutes of the periods of marcas (pairs) that
// fall on the holiday days faixas: Lei 605/49 art. 9 pays the work of a
// holiday, a calendar day, so a night shift is split at midnight rather
// than dated by its start.
func FeriadoMinutos(marcas []int, faixas [][2]int) int {
	total := 0
	for i := 0; i+1 < len(marcas); i += 2 {
		for _, f := range faixas {
			total += overlap(marcas[i], marcas[i+1], f[0], f[1])
		}
	}
	return total
}

// emFeriado reports whether minute m of the workday falls on a holiday.
func emFeriado(m int, faixas [][2]int) bool {
	for _, f := range faixas {
		if m >= f[0] && m < f[1] {
			return true
		}
	}
	return false
}

// FaltaInjustificada applies Lei 605/49 art. 6's "sem motivo
// justificado" to a workday with punches counted punches (treated): the
// company marked an absence, or a scheduled working day (not a holiday)
// has no punch at all; unless abonos excuse the whole shift. It is the one
// rule for an unpunched scheduled day: the timesheet's and the report's
// "falta", the DSR and the AEJ's type-07 code 2 all read it. Outside the
// employment bond nothing is an absence. A day with
// some punches is a short day (lateness, early leave), not an absence.
func FaltaInjustificada(d Dia, a Apuracao, punches int) bool {
	if d.ForaDoVinculo {
		return false
	}
	excused := a.Previstos > 0 && a.Abonados >= a.Previstos
	scheduled := d.Turno != nil && a.Previstos > 0
	return !excused && (d.Falta || (scheduled && punches == 0))
}
