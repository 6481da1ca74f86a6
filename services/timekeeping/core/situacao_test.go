package core

import "testing"

func TestSituacaoArt58(t *testing.T) {
	// standardTurno: 08:00 (480) to 17:00 (480 + 540 = 1020), lunch
	// 12:00 (480 + 240 = 720) to 13:00 (480 + 300 = 780).
	night := &Turno{Entrada: hm(22, 0), Saida: 420} // 22:00 (1320) to 05:00 (1320 + 420 = 1740)
	noBreak := &Turno{Entrada: hm(8, 0), SaidaAlmoco: 0, RetornoAlmoco: 0, Saida: 360}
	for _, c := range []struct {
		name string
		in   Agora
		want Situacao
	}{
		{"07:30, before the shift: waiting", Agora{Turno: standardTurno, Minuto: hm(7, 30)}, SituacaoAguardando},
		// 480 + 5 = 485 = 08:05: the last minute of the tolerance.
		{"08:05, at the tolerance: waiting", Agora{Turno: standardTurno, Minuto: hm(8, 5)}, SituacaoAguardando},
		// 486 > 485.
		{"08:06, past it: late", Agora{Turno: standardTurno, Minuto: hm(8, 6)}, SituacaoAtrasado},
		// 1019 < 1020: the shift still runs.
		{"16:59 without punches: late", Agora{Turno: standardTurno, Minuto: hm(16, 59)}, SituacaoAtrasado},
		// 1020 = 1020: the shift is over.
		{"17:00 without punches: absent", Agora{Turno: standardTurno, Minuto: hm(17, 0)}, SituacaoAusente},
		{"in at 08:02: working", Agora{Turno: standardTurno, Marcas: []int{hm(8, 2)}, Minuto: hm(9, 0)}, SituacaoTrabalhando},
		{"out to lunch at 12:01: on the break", Agora{Turno: standardTurno, Marcas: []int{hm(8, 2), hm(12, 1)},
			Minuto: hm(12, 30)}, SituacaoIntervalo},
		{"back from lunch: working", Agora{Turno: standardTurno, Marcas: []int{hm(8, 2), hm(12, 1), hm(13, 0)},
			Minuto: hm(14, 0)}, SituacaoTrabalhando},
		{"four punches: finished", Agora{Turno: standardTurno, Marcas: []int{hm(8, 2), hm(12, 1), hm(13, 0), hm(17, 0)},
			Minuto: hm(17, 30)}, SituacaoEncerrado},
		// 2 punches, 17:10 (1030) >= 1020: the shift is over, he left.
		{"two punches after the shift: finished", Agora{Turno: standardTurno, Marcas: []int{hm(8, 0), hm(12, 0)},
			Minuto: hm(17, 10)}, SituacaoEncerrado},
		{"two punches, shift without a break: finished", Agora{Turno: noBreak, Marcas: []int{hm(8, 0), hm(10, 0)},
			Minuto: hm(11, 0)}, SituacaoEncerrado},
		{"punched on a rest day: working", Agora{Marcas: []int{hm(9, 0)}, Minuto: hm(10, 0)}, SituacaoTrabalhando},
		{"rest day", Agora{Minuto: hm(10, 0)}, SituacaoFolga},
		{"holiday", Agora{Turno: standardTurno, Feriado: true, Minuto: hm(10, 0)}, SituacaoFolga},
		{"whole-day abono", Agora{Turno: standardTurno, Afastado: true, Minuto: hm(10, 0)}, SituacaoAfastado},
		{"absence recorded before the shift ends", Agora{Turno: standardTurno, Falta: true, Minuto: hm(10, 0)}, SituacaoAusente},
		// 22:00 + 5 = 1325 = 22:05; 23:00 = 1380 > 1325 and < 1740.
		{"night shift, 23:00 without punches: late", Agora{Turno: night, Minuto: hm(23, 0)}, SituacaoAtrasado},
		{"night shift, 21:00: waiting", Agora{Turno: night, Minuto: hm(21, 0)}, SituacaoAguardando},
	} {
		if got := SituacaoDe(c.in); got != c.want {
			t.Errorf("%s: SituacaoDe = %q, want %q", c.name, got, c.want)
		}
	}
}
