package escala

import "testing"

func TestDailyMinutes(t *testing.T) {
	full := Horario{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540} // 480 worked
	half := Horario{Entrada: "08:00", SaidaAlmoco: 120, RetornoAlmoco: 135, Saida: 256} // 241 worked
	for _, tc := range []struct {
		hs   []Horario
		want int
	}{
		{nil, 0},
		{[]Horario{full}, 480},
		{[]Horario{full, full, full, full, full}, 480},
		{[]Horario{full, half}, 360}, // (480+241)/2 rounded down
	} {
		if got := DailyMinutes(tc.hs); got != tc.want {
			t.Errorf("DailyMinutes(%v) = %d, want %d", tc.hs, got, tc.want)
		}
	}
}
