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

func TestOverlap(t *testing.T) {
	day := func(entrada string, saida int) Horario {
		return Horario{Entrada: entrada, SaidaAlmoco: 1, RetornoAlmoco: 2, Saida: saida}
	}
	commercial := day("08:00", 540) // 08:00 → 17:00
	night := day("22:00", 450)      // 22:00 → 05:30 the next day
	for _, tc := range []struct {
		name    string
		hs      []Horario
		day     int
		overlap bool
	}{
		{"one day", []Horario{commercial}, 0, false},
		{"one full day", []Horario{day("00:00", 1440)}, 0, false},
		{"Monday to Friday", []Horario{commercial, commercial, commercial, commercial, commercial}, 0, false},
		{"every day", []Horario{commercial, commercial, commercial, commercial, commercial, commercial, commercial}, 0, false},
		{"night shifts", []Horario{night, night, night, night, night}, 0, false},
		{"seven night shifts", []Horario{night, night, night, night, night, night, night}, 0, false},
		{"night then early morning", []Horario{night, day("05:00", 480)}, 0, true},
		{"night then its end exactly", []Horario{night, day("05:30", 480)}, 0, false},
		{"full day then any", []Horario{day("08:00", 1440), day("07:59", 60)}, 0, true},
		{"full day then the same hour", []Horario{day("08:00", 1440), day("08:00", 60)}, 0, false},
		{"Tuesday into Wednesday", []Horario{commercial, day("20:00", 720), day("07:00", 480)}, 1, true},
		// Sunday's night shift runs into Monday's morning, a week later.
		{"Sunday into Monday", []Horario{day("04:00", 480), commercial, commercial, commercial, commercial, commercial, night}, 6, true},
		{"Sunday night before Monday 06:00", []Horario{day("06:00", 480), commercial, commercial, commercial, commercial, commercial, night}, 0, false},
		// Six days: Sunday is a rest day, nothing wraps.
		{"Saturday night before a rest day", []Horario{day("04:00", 480), commercial, commercial, commercial, commercial, night}, 0, false},
	} {
		d, overlap := Overlap(tc.hs)
		if overlap != tc.overlap || (overlap && d != tc.day) {
			t.Errorf("%s: Overlap = %d, %v; want %d, %v", tc.name, d, overlap, tc.day, tc.overlap)
		}
	}
}
