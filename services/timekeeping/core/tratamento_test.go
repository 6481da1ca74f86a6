package core

import (
	"reflect"
	"testing"
)

// lunchPre is standardTurno with its break pre-assigned.
var lunchPre = &Turno{Entrada: hm(8, 0), SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540, PreAssinalado: true}

func TestTratar(t *testing.T) {
	for _, c := range []struct {
		name   string
		marcas []int
		t      Tratamento
		turno  *Turno
		want   []int
	}{
		{"nothing to treat", standard, Tratamento{}, standardTurno, standard},
		{"a forgotten exit included at the end",
			[]int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0)}, Tratamento{Incluidas: []bool{false, false, false, true}},
			standardTurno, standard},
		{"an included punch goes between the originals by time",
			[]int{hm(8, 0), hm(13, 0), hm(17, 0), hm(12, 0)}, Tratamento{Incluidas: []bool{false, false, false, true}},
			standardTurno, standard},
		{"a double punch disregarded",
			[]int{hm(8, 0), hm(8, 1), hm(12, 0), hm(13, 0), hm(17, 0)},
			Tratamento{Desconsideradas: []bool{false, true}}, standardTurno, standard},
		{"a disregarded inclusion counts nothing",
			[]int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0), hm(18, 0)},
			Tratamento{Incluidas: []bool{false, false, false, false, true}, Desconsideradas: []bool{false, false, false, false, true}},
			standardTurno, standard},
		{"pre-assigned break added to one period", []int{hm(8, 0), hm(17, 0)}, Tratamento{}, lunchPre, standard},
		{"pre-assigned break not added when the break was punched", standard, Tratamento{}, lunchPre, standard},
		{"pre-assigned break not added outside the period", []int{hm(13, 30), hm(17, 0)}, Tratamento{}, lunchPre,
			[]int{hm(13, 30), hm(17, 0)}},
		{"a break that is not pre-assigned is not added", []int{hm(8, 0), hm(17, 0)}, Tratamento{}, standardTurno,
			[]int{hm(8, 0), hm(17, 0)}},
		{"included exit, disregarded double entrada, pre-assigned break",
			[]int{hm(7, 58), hm(8, 0), hm(17, 2)}, Tratamento{Desconsideradas: []bool{true}, Incluidas: []bool{false, false, true}},
			lunchPre, []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 2)}},
	} {
		before := append([]int(nil), c.marcas...)
		if got := Treat(c.marcas, c.t, c.turno); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Tratar = %v, want %v", c.name, got, c.want)
		}
		if !reflect.DeepEqual(before, c.marcas) {
			t.Errorf("%s: Tratar changed the originals", c.name)
		}
	}
}

func TestApurarTratamento(t *testing.T) {
	for _, c := range []struct {
		name string
		dia  Dia
		want Apuracao
	}{
		{"forgotten exit: incomplete before, complete once included",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 240, Previstos: 480, Saldo: -240, Incompleto: true}},
		{"forgotten exit included (tolerated as scheduled)",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 3)}, Turno: standardTurno,
				Tratamento: Tratamento{Incluidas: []bool{false, false, false, true}}},
			Apuracao{Trabalhados: 483, Previstos: 480, Tolerancia: true}},
		{"double punch disregarded: the day is whole again",
			Dia{Marcas: []int{hm(8, 0), hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0)}, Turno: standardTurno,
				Tratamento: Tratamento{Desconsideradas: []bool{false, true}}},
			Apuracao{Trabalhados: 480, Previstos: 480, Tolerancia: true}},
		{"double punch left: pairs shift and the day is wrong",
			Dia{Marcas: []int{hm(8, 0), hm(8, 0), hm(12, 0), hm(13, 0), hm(17, 0)}, Turno: standardTurno},
			Apuracao{Trabalhados: 60, Previstos: 480, Saldo: -420, Incompleto: true}},
		{"pre-assigned break: in and out only",
			Dia{Marcas: []int{hm(8, 0), hm(17, 30)}, Turno: lunchPre},
			Apuracao{Trabalhados: 510, Previstos: 480, Saldo: 30, Extras: 30, Extras50: 30}},
		{"medical certificate for the afternoon",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0)}, Turno: standardTurno,
				Tratamento: Tratamento{Abonos: []Abono{{hm(13, 0), hm(17, 0)}}}},
			Apuracao{Trabalhados: 240, Previstos: 480, Abonados: 240}},
		{"certificate longer than the shift excuses only the schedule",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0)}, Turno: standardTurno,
				Tratamento: Tratamento{Abonos: []Abono{{hm(12, 0), hm(23, 0)}}}},
			Apuracao{Trabalhados: 240, Previstos: 480, Abonados: 240}},
		{"abono is never overtime: worked minutes under it count once",
			Dia{Marcas: []int{hm(8, 0), hm(12, 0), hm(13, 0), hm(19, 0)}, Turno: standardTurno,
				Tratamento: Tratamento{Abonos: []Abono{{hm(13, 0), hm(17, 0)}}}},
			Apuracao{Trabalhados: 600, Previstos: 480, Saldo: 120, Extras: 120, Extras50: 120}},
		{"whole-day abono on an absence",
			Dia{Turno: standardTurno, Tratamento: Tratamento{AbonoDiaInteiro: true}},
			Apuracao{Previstos: 480, Abonados: 480}},
		{"abono excuses lateness (a morning appointment)",
			Dia{Marcas: []int{hm(10, 0), hm(12, 0), hm(13, 0), hm(17, 0)}, Turno: standardTurno,
				Tratamento: Tratamento{Abonos: []Abono{{hm(8, 0), hm(10, 0)}}}},
			Apuracao{Trabalhados: 360, Previstos: 480, Abonados: 120}},
		{"abono on a rest day excuses nothing",
			Dia{Tratamento: Tratamento{AbonoDiaInteiro: true}}, Apuracao{}},
		{"abono on a holiday excuses nothing",
			Dia{Turno: standardTurno, Feriado: true, Tratamento: Tratamento{AbonoDiaInteiro: true}}, Apuracao{}},
		{"every treatment at once",
			// 07:58 double entrada disregarded, 08:00 original, exit
			// forgotten and included at 15:00, break pre-assigned, the
			// rest of the afternoon under a certificate.
			Dia{Marcas: []int{hm(7, 58), hm(8, 0), hm(15, 0)}, Turno: lunchPre,
				Tratamento: Tratamento{Desconsideradas: []bool{true}, Incluidas: []bool{false, false, true},
					Abonos: []Abono{{hm(15, 0), hm(17, 0)}}}},
			Apuracao{Trabalhados: 360, Previstos: 480, Abonados: 120}},
	} {
		got := ComputeApuracao(c.dia)
		c.want.Alertas = got.Alertas
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// A treated night shift keeps the reduced night hour: an included exit
// after midnight counts its night minutes.
func TestApurarTratamentoNoturno(t *testing.T) {
	night := &Turno{Entrada: hm(22, 0), SaidaAlmoco: 180, RetornoAlmoco: 240, Saida: 480}
	a := ComputeApuracao(Dia{Marcas: []int{hm(22, 0), hm(25, 0), hm(26, 0), hm(30, 0)}, Turno: night,
		Tratamento: Tratamento{Incluidas: []bool{false, false, false, true}}})
	if a.Trabalhados != 420 || a.Noturnos != 420 || a.NoturnosReduzidos != 480 || a.Incompleto {
		t.Fatalf("night shift with an included exit: %+v", a)
	}
}
