package core

import (
	"reflect"
	"testing"
)

// hm is a clock time as minutes after midnight.
func hm(h, m int) int { return h*60 + m }

// standard is 08:00-12:00, 13:00-17:00.
var standard = []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0)}

// standardTurno is the shift whose marks are standard.
var standardTurno = &Turno{Entrada: hm(8, 0), SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}

func TestToleranciaArt58(t *testing.T) {
	for _, c := range []struct {
		name   string
		marcas []int
		want   bool
	}{
		{"exact", standard, true},
		{"5 late at entrada: at the per-punch limit", []int{hm(8, 5), hm(12, 0), hm(13, 0), hm(17, 0)}, true},
		{"6 late at entrada: beyond", []int{hm(8, 6), hm(12, 0), hm(13, 0), hm(17, 0)}, false},
		{"5 early out, 5 late in: 10 a day, at the limit", []int{hm(7, 55), hm(12, 0), hm(13, 0), hm(17, 5)}, true},
		{"4+3+2+2 = 11 a day: beyond", []int{hm(7, 56), hm(12, 3), hm(12, 58), hm(17, 2)}, false},
		{"3+3+2+2 = 10 a day: at the limit", []int{hm(7, 57), hm(12, 3), hm(12, 58), hm(17, 2)}, true},
		{"a missing punch", []int{hm(8, 0), hm(12, 0), hm(13, 0)}, false},
		{"an extra period", []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0), hm(19, 0), hm(19, 1)}, false},
	} {
		if got := Tolerada(c.marcas, standard); got != c.want {
			t.Errorf("%s: Tolerada = %v, want %v", c.name, got, c.want)
		}
	}
	if Tolerada([]int{hm(9, 0), hm(10, 0)}, nil) {
		t.Error("a rest day (no schedule) has no tolerance")
	}
}

func TestIntervaloArt71(t *testing.T) {
	for _, c := range []struct {
		trabalhados, want int
	}{{240, 0}, {241, 15}, {360, 15}, {361, 60}, {600, 60}} {
		if got := IntervaloExigido(c.trabalhados); got != c.want {
			t.Errorf("IntervaloExigido(%d) = %d, want %d", c.trabalhados, got, c.want)
		}
	}
	for _, c := range []struct {
		name        string
		trabalhados int
		marcas      []int
		want        bool
	}{
		{"8 h with 1 h lunch", 480, standard, false},
		{"6 h 01 with 59 min break", 361, []int{hm(8, 0), hm(11, 0), hm(11, 59), hm(15, 0)}, true},
		{"6 h 01 with 60 min break", 361, []int{hm(8, 0), hm(11, 0), hm(12, 0), hm(15, 1)}, false},
		{"6 h straight: 15 min needed, none taken", 360, []int{hm(8, 0), hm(14, 0)}, true},
		{"6 h with 15 min", 360, []int{hm(8, 0), hm(11, 0), hm(11, 15), hm(14, 15)}, false},
		{"6 h with 14 min", 360, []int{hm(8, 0), hm(11, 0), hm(11, 14), hm(14, 14)}, true},
		{"4 h straight", 240, []int{hm(8, 0), hm(12, 0)}, false},
		{"4 h 01 straight", 241, []int{hm(8, 0), hm(12, 1)}, true},
		{"two short breaks do not make one: 30 + 30 for 8 h", 480,
			[]int{hm(8, 0), hm(11, 0), hm(11, 30), hm(14, 0), hm(14, 30), hm(17, 30)}, true},
	} {
		if got := IntervaloInsuficiente(c.trabalhados, c.marcas); got != c.want {
			t.Errorf("%s: IntervaloInsuficiente = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDescansoArt66(t *testing.T) {
	for descanso, want := range map[int]bool{660: false, 659: true, 900: false, 0: true} {
		if got := DescansoInsuficiente(descanso); got != want {
			t.Errorf("DescansoInsuficiente(%d) = %v, want %v", descanso, got, want)
		}
	}
}

func TestNoturnoArt73(t *testing.T) {
	for _, c := range []struct {
		name          string
		marcas        []int
		real, reduzid int
	}{
		{"day work", standard, 0, 0},
		{"ends at 22:00 sharp", []int{hm(14, 0), hm(22, 0)}, 0, 0},
		{"one minute past 22:00", []int{hm(14, 0), hm(22, 1)}, 1, 1},
		{"18:00-23:30", []int{hm(18, 0), hm(23, 30)}, 90, 103},
		{"00:00-05:00 and 22:00-24:00: 7 clock hours count 8", []int{0, hm(5, 0), hm(22, 0), hm(24, 0)}, 420, 480},
		{"52 min 30 s is one night hour: 105 clock minutes count 120", []int{hm(3, 15), hm(5, 0)}, 105, 120},
		{"starts 04:59", []int{hm(4, 59), hm(9, 0)}, 1, 1},
		{"starts 05:00", []int{hm(5, 0), hm(9, 0)}, 0, 0},
		{"an unpaired punch counts nothing", []int{hm(22, 30)}, 0, 0},
	} {
		got := MinutosNoturnos(c.marcas)
		if got != c.real || NoturnosReduzidos(got) != c.reduzid {
			t.Errorf("%s: %d clock minutes (%d reduced), want %d (%d)", c.name, got, NoturnosReduzidos(got), c.real, c.reduzid)
		}
	}
}

func TestExtrasArt59AndSplit(t *testing.T) {
	for extras, want := range map[int]bool{120: false, 121: true, 0: false} {
		if got := ExtrasAcimaDoLimite(extras); got != want {
			t.Errorf("ExtrasAcimaDoLimite(%d) = %v, want %v", extras, got, want)
		}
	}
	if a50, a100 := DividirExtras(90, false); a50 != 90 || a100 != 0 {
		t.Errorf("weekday: %d/%d", a50, a100)
	}
	if a50, a100 := DividirExtras(90, true); a50 != 0 || a100 != 90 {
		t.Errorf("Sunday or holiday: %d/%d", a50, a100)
	}
}

func ptr(n int) *int { return &n }

func TestApurar(t *testing.T) {
	for _, c := range []struct {
		name string
		dia  Dia
		want Apuracao
	}{
		{"within tolerance: 07:55 in, 17:00 out, 485 worked, nothing extra",
			Dia{Marcas: []int{hm(7, 55), hm(12, 0), hm(13, 0), hm(17, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 485, Previstos: 480, Tolerancia: true, Alertas: []string{}}},
		{"within tolerance: 5 min late and 3 early out: lateness and debt forgiven",
			Dia{Marcas: []int{hm(8, 5), hm(12, 0), hm(13, 0), hm(16, 57)}, Turno: standardTurno},
			Apuracao{Trabalhados: 472, Previstos: 480, Tolerancia: true, Alertas: []string{}}},
		{"beyond the daily 10: all 11 minutes count (and the 55 min lunch is short)",
			Dia{Marcas: []int{hm(7, 56), hm(12, 3), hm(12, 58), hm(17, 2)}, Turno: standardTurno},
			// The 12:03-12:58 lunch is 55 minutes: 60 - 55 = 5 suppressed (art. 71 §4).
			Apuracao{Trabalhados: 491, Previstos: 480, Extras: 11, Extras50: 11, Saldo: 11, IntervaloSuprimido: 5,
				Alertas: []string{AlertaIntervalo}}},
		{"beyond per punch: 6 late counts as lateness and debt",
			Dia{Marcas: []int{hm(8, 6), hm(12, 0), hm(13, 0), hm(17, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 474, Previstos: 480, Atraso: 6, Saldo: -6, Alertas: []string{}}},
		{"2 h overtime: at the art. 59 limit",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(19, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 600, Previstos: 480, Extras: 120, Extras50: 120, Saldo: 120, Alertas: []string{}}},
		{"2 h 01 overtime: flagged",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(19, 1)}, Turno: standardTurno},
			Apuracao{Trabalhados: 601, Previstos: 480, Extras: 121, Extras50: 121, Saldo: 121, Alertas: []string{AlertaExtras}}},
		// 6 h straight: 15 - 0 = 15 suppressed; 360 at 100% are no art. 59
		// extension of an ordinary day, so no overtime alert.
		{"Sunday, a rest day: all at 100%, 6 h straight lacks its 15 min break",
			Dia{Marcas: []int{hm(8, 0), hm(14, 0)}, Domingo: true},
			Apuracao{Trabalhados: 360, Extras: 360, Extras100: 360, Saldo: 360, IntervaloSuprimido: 15,
				Alertas: []string{AlertaIntervalo}}},
		{"holiday on a working day: nothing expected, all at 100%, even an on-time day, no art. 59 alert",
			Dia{Marcas: standard, Turno: standardTurno, Feriado: true},
			Apuracao{Trabalhados: 480, Extras: 480, Extras100: 480, Saldo: 480, Alertas: []string{}}},
		{"night shift 18:00-23:30 after a short rest, one punch off-site",
			Dia{Marcas: []int{hm(18, 0), hm(23, 30)}, Turno: &Turno{Entrada: hm(18, 0), Saida: 330},
				Descanso: ptr(659), ForaDoLocal: 1},
			// 330 straight need 15 min of break: 15 suppressed; rest 659 = 660 - 1: 1 minute short (art. 66).
			Apuracao{Trabalhados: 330, Previstos: 330, Noturnos: 90, NoturnosReduzidos: 103, Tolerancia: true,
				IntervaloSuprimido: 15, Interjornada: 1, Alertas: []string{AlertaIntervalo, AlertaDescanso, AlertaLocal}}},
		{"rest of exactly 11 h is enough",
			Dia{Marcas: standard, Turno: standardTurno, Descanso: ptr(660)},
			Apuracao{Trabalhados: 480, Previstos: 480, Tolerancia: true, Alertas: []string{}}},
		{"absent: the whole day is owed",
			Dia{Turno: standardTurno},
			Apuracao{Previstos: 480, Saldo: -480, Ausencia: true, Alertas: []string{}}},
	} {
		if got := ComputeApuracao(c.dia); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
