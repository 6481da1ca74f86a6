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
	// ForaDoLocal counts the punches outside every work place.
	ForaDoLocal int
	// Falta is the company's mark of an absence on the day (not undone).
	Falta bool
	// Tratamento is the day's treatment (inclusions, disregarded punches,
	// abonos); the schedule's pre-assigned break comes with Turno.
	Tratamento Tratamento
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
	Alertas  []string
}

// ComputeApuracao applies the rules to one day:
//
//   - the treatment first (Treat): disregarded punches leave, included
//     punches join, a pre-assigned break is counted without punches; the
//     rules below see only the treated punches;
//   - abonos excuse scheduled minutes not worked: they fill the balance
//     and excuse lateness, and are never overtime;
//   - a holiday expects no work, so all of it is overtime;
//   - within the tolerance (art. 58 §1) the day is as scheduled: no
//     overtime, no lateness, balance 0; beyond it everything counts:
//     overtime is worked minus expected, lateness the first entrada's;
//   - overtime is at 100% on Sundays and holidays, else at 50%;
//   - night minutes (art. 73) are shown on their own, in clock minutes and
//     in night-hour minutes;
//   - alerts: break too short (art. 71), rest too short (art. 66), more
//     than 2 hours of overtime (art. 59), punches outside the work places.
func ComputeApuracao(d Dia) Apuracao {
	marcas := d.Marcas
	if !d.Tratamento.Empty() || (d.Turno != nil && d.Turno.PreAssinalado) {
		marcas = Treat(d.Marcas, d.Tratamento, d.Turno)
	}
	trabalhados := Trabalhados(marcas)
	a := Apuracao{Trabalhados: trabalhados, Incompleto: len(marcas)%2 == 1, Alertas: []string{}}
	var programadas []int
	if d.Turno != nil && !d.Feriado {
		programadas = d.Turno.Marcas()
		a.Previstos = d.Turno.Previstos()
		a.Abonados = Abonados(marcas, d.Tratamento, d.Turno)
		if first, ok := PrimeiraEntrada(marcas); ok && first > d.Turno.Entrada {
			a.Atraso = first - d.Turno.Entrada - atrasoAbonado(d.Turno.Entrada, first, d.Tratamento)
		}
	}
	a.Saldo = trabalhados + a.Abonados - a.Previstos
	a.Extras = max(0, a.Saldo)
	if Tolerada(marcas, programadas) {
		a.Tolerancia = true
		a.Saldo, a.Extras, a.Atraso = 0, 0, 0
	}
	a.Extras50, a.Extras100 = DividirExtras(a.Extras, d.Domingo || d.Feriado)
	a.Ausencia = FaltaInjustificada(d, a, len(marcas))
	a.Noturnos = MinutosNoturnos(marcas)
	a.NoturnosReduzidos = NoturnosReduzidos(a.Noturnos)
	if IntervaloInsuficiente(trabalhados, marcas) {
		a.Alertas = append(a.Alertas, AlertaIntervalo)
	}
	if d.Descanso != nil && DescansoInsuficiente(*d.Descanso) {
		a.Alertas = append(a.Alertas, AlertaDescanso)
	}
	if ExtrasAcimaDoLimite(a.Extras) {
		a.Alertas = append(a.Alertas, AlertaExtras)
	}
	if d.ForaDoLocal > 0 {
		a.Alertas = append(a.Alertas, AlertaLocal)
	}
	return a
}

// FaltaInjustificada applies Lei 605/49 art. 6's "sem motivo
// justificado" to a workday with punches counted punches (treated): the
// company marked an absence, or a scheduled working day (not a holiday)
// has no punch at all; unless abonos excuse the whole shift. A day with
// some punches is a short day (lateness, early leave), not an absence.
func FaltaInjustificada(d Dia, a Apuracao, punches int) bool {
	excused := a.Previstos > 0 && a.Abonados >= a.Previstos
	scheduled := d.Turno != nil && !d.Feriado
	return !excused && (d.Falta || (scheduled && punches == 0))
}
