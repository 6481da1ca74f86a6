package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// doze is a 12x36 day shift, 07:00-19:00 with a 12:00-13:00 break: 660
// minutes expected.
var doze = &Turno{Entrada: hm(7, 0), SaidaAlmoco: 300, RetornoAlmoco: 360, Saida: 720}

var dozeMarcas = []int{hm(7, 0), hm(12, 0), hm(13, 0), hm(19, 0)}

// The rules of issue #43, one case each, the figures computed by hand in
// the comment.
func TestRegrasDaJornada(t *testing.T) {
	for _, c := range []struct {
		name string
		dia  Dia
		want Apuracao
	}{
		// CLT art. 59-A sole paragraph: the 12x36's pay covers holidays and
		// the weekly rest, so its scheduled shift on a holiday is ordinary:
		// 660 expected, 660 worked, balance 0 (within tolerance).
		{"12x36 on a holiday is an ordinary shift",
			Dia{Marcas: dozeMarcas, Turno: doze, Feriado: true, Ciclo12x36: true},
			Apuracao{Trabalhados: 660, Previstos: 660, Tolerancia: true, Alertas: []string{}}},
		// The same on a Sunday: 30 minutes more at the end (19:30) are 50%
		// overtime: 690 - 660 = 30.
		{"12x36 on a Sunday: its overtime at 50%",
			Dia{Marcas: []int{hm(7, 0), hm(12, 0), hm(13, 0), hm(19, 30)}, Turno: doze, Domingo: true, Ciclo12x36: true},
			Apuracao{Trabalhados: 690, Previstos: 660, Extras: 30, Extras50: 30, Saldo: 30, Alertas: []string{}}},
		// A 12x36 employee working on a holiday that is not his shift day:
		// nothing scheduled, 4 h at 100%.
		{"12x36 working a holiday off his cycle",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0)}, Feriado: true, Ciclo12x36: true},
			Apuracao{Trabalhados: 240, Extras: 240, Extras100: 240, Saldo: 240, Alertas: []string{}}},
		// Before the admission (or after the termination) nothing is owed:
		// no expected minutes, no absence, even with the company's mark.
		{"a scheduled day outside the employment bond",
			Dia{Turno: standardTurno, Falta: true, ForaDoVinculo: true},
			Apuracao{Alertas: []string{}}},
		// The one rule for an unpunched scheduled day: 480 owed, an absence.
		{"an unpunched scheduled day is an absence",
			Dia{Turno: standardTurno},
			Apuracao{Previstos: 480, Saldo: -480, Ausencia: true, Alertas: []string{}}},
		// An unpunched scheduled holiday owes nothing and is no absence.
		{"an unpunched holiday",
			Dia{Turno: standardTurno, Feriado: true},
			Apuracao{Alertas: []string{}}},
		// Art. 71 §4: 8:00-12:00, 12:20-16:20 is 480 worked with a 20 minute
		// break: 60 - 20 = 40 suppressed.
		{"a 20 minute lunch: 40 suppressed",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(12, 20), hm(16, 20)}, Turno: standardTurno},
			Apuracao{Trabalhados: 480, Previstos: 480, IntervaloSuprimido: 40, Alertas: []string{AlertaIntervalo}}},
		// Art. 66 / OJ 355: 9 h 30 of rest is 660 - 570 = 90 minutes short.
		{"9 h 30 between shifts: 90 short",
			Dia{Marcas: standard, Turno: standardTurno, Descanso: ptr(570)},
			Apuracao{Trabalhados: 480, Previstos: 480, Tolerancia: true, Interjornada: 90,
				Alertas: []string{AlertaDescanso}}},
		// Art. 59 alert on 50% overtime only: 08:00-12:00, 13:00-20:00 on a
		// Sunday that is a working day of the schedule is 660 - 480 = 180
		// at 100%: no alert; the same on a Monday is 180 at 50%: alert.
		{"3 h overtime on a scheduled Sunday: 100%, no art. 59 alert",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(20, 0)}, Turno: standardTurno, Domingo: true},
			Apuracao{Trabalhados: 660, Previstos: 480, Extras: 180, Extras100: 180, Saldo: 180, Alertas: []string{}}},
		{"3 h overtime on a weekday: 50%, art. 59 alert",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(20, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 660, Previstos: 480, Extras: 180, Extras50: 180, Saldo: 180, Alertas: []string{AlertaExtras}}},
		// A day shift on the eve of a holiday ends before midnight: nothing
		// falls on the holiday, an ordinary day.
		{"a day shift on the eve of a holiday",
			Dia{Marcas: standard, Turno: standardTurno, FeriadoSeguinte: true},
			Apuracao{Trabalhados: 480, Previstos: 480, Tolerancia: true, Alertas: []string{}}},
	} {
		if diff := cmp.Diff(c.want, ComputeApuracao(c.dia)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
