package clt

// Dia is what is known of an employee's workday before the rules apply.
type Dia struct {
	// Trabalhados are the minutes of the complete periods of work.
	Trabalhados int
	// Previstos are the schedule's expected minutes for the weekday (0 on a
	// rest day).
	Previstos int
	// AtrasoBruto is how late the first entrada was against the schedule.
	AtrasoBruto int
	// Marcas are the effective punches, minutes after local midnight.
	Marcas []int
	// Programadas are the schedule's marks for the weekday (entrada, lunch
	// out, lunch back, saída), minutes after local midnight; empty on a
	// rest day.
	Programadas []int
	// Descanso is the rest since the previous workday's last punch, when
	// the previous date had punches.
	Descanso *int
	Domingo  bool
	Feriado  bool
	// ForaDoLocal counts the punches outside every work place.
	ForaDoLocal int
}

// Apuracao is a workday after the rules.
type Apuracao struct {
	Previstos, Extras, Extras50, Extras100, Atraso, Saldo int
	Noturnos, NoturnosReduzidos                           int
	// Tolerancia is true when art. 58 §1 absorbed the day's variations.
	Tolerancia bool
	Alertas    []string
}

// Apurar applies the rules to one day:
//
//   - a holiday expects no work, so all of it is overtime;
//   - within the tolerance (art. 58 §1) the day is as scheduled: no
//     overtime, no lateness, balance 0; beyond it everything counts:
//     overtime is worked minus expected, lateness the first entrada's;
//   - overtime is at 100% on Sundays and holidays, else at 50%;
//   - night minutes (art. 73) are shown on their own, in clock minutes and
//     in night-hour minutes;
//   - alerts: break too short (art. 71), rest too short (art. 66), more
//     than 2 hours of overtime (art. 59), punches outside the work places.
func Apurar(d Dia) Apuracao {
	a := Apuracao{Previstos: d.Previstos, Atraso: d.AtrasoBruto, Alertas: []string{}}
	programadas := d.Programadas
	if d.Feriado {
		a.Previstos, a.Atraso, programadas = 0, 0, nil
	}
	a.Saldo = d.Trabalhados - a.Previstos
	a.Extras = max(0, a.Saldo)
	if Tolerada(d.Marcas, programadas) {
		a.Tolerancia = true
		a.Saldo, a.Extras, a.Atraso = 0, 0, 0
	}
	a.Extras50, a.Extras100 = DividirExtras(a.Extras, d.Domingo || d.Feriado)
	a.Noturnos = MinutosNoturnos(d.Marcas)
	a.NoturnosReduzidos = NoturnosReduzidos(a.Noturnos)
	if IntervaloInsuficiente(d.Trabalhados, d.Marcas) {
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
