package core

import (
	"testing"
	"time"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// every is a schedule with the same shift on all seven days.
func every(t Turno) *Escala {
	e := &Escala{}
	for i := range e.Semana {
		e.Semana[i] = &t
	}
	return e
}

func TestJornadaNightShiftIsOneWorkday(t *testing.T) {
	sp := zone(t, "America/Sao_Paulo")
	night := every(Turno{Entrada: 22 * 60, SaidaAlmoco: 240, RetornoAlmoco: 270, Saida: 450}) // 22:00 → 05:30
	day := every(Turno{Entrada: 8 * 60, SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540})
	at := func(y int, m time.Month, d, h, mi int, loc *time.Location) time.Time {
		return time.Date(y, m, d, h, mi, 0, 0, loc)
	}
	for _, c := range []struct {
		name string
		t    time.Time
		loc  *time.Location
		e    *Escala
		want time.Time
	}{
		{"night shift: entrada at 22:00", at(2026, 3, 10, 22, 0, sp), sp, night, date(2026, 3, 10)},
		{"night shift: lunch at 02:00 the next day", at(2026, 3, 11, 2, 0, sp), sp, night, date(2026, 3, 10)},
		{"night shift: saída at 05:30 the next day", at(2026, 3, 11, 5, 30, sp), sp, night, date(2026, 3, 10)},
		{"night shift: overtime until 09:00", at(2026, 3, 11, 9, 0, sp), sp, night, date(2026, 3, 10)},
		{"night shift: an early entrada at 19:00", at(2026, 3, 11, 19, 0, sp), sp, night, date(2026, 3, 11)},
		{"night shift across a month end", at(2026, 2, 1, 4, 0, sp), sp, night, date(2026, 1, 31)},
		{"night shift across a year end", at(2027, 1, 1, 5, 30, sp), sp, night, date(2026, 12, 31)},
		{"night shift: far from any shift, the calendar date", at(2026, 3, 11, 13, 0, sp), sp, night, date(2026, 3, 11)},
		{"day shift: 07:55", at(2026, 3, 10, 7, 55, sp), sp, day, date(2026, 3, 10)},
		{"day shift: 23:30 after long overtime", at(2026, 3, 10, 23, 30, sp), sp, nil, date(2026, 3, 10)},
		{"no schedule: the local date", at(2026, 3, 11, 2, 0, sp), sp, nil, date(2026, 3, 11)},
		// The same instant is another date in another zone.
		{"-05:00 (Rio Branco): 01:30 UTC is still the 10th", time.Date(2026, 3, 11, 1, 30, 0, 0, time.UTC),
			zone(t, "America/Rio_Branco"), nil, date(2026, 3, 10)},
		{"-02:00 (Noronha): 22:30 UTC is already the 11th", time.Date(2026, 3, 10, 22, 30, 0, 0, time.UTC),
			zone(t, "America/Noronha"), nil, date(2026, 3, 10)},
		{"-02:00 (Noronha): 02:30 UTC is the 11th", time.Date(2026, 3, 11, 2, 30, 0, 0, time.UTC),
			zone(t, "America/Noronha"), nil, date(2026, 3, 11)},
		{"-05:00 night shift: 04:00 UTC (23:00 local) of the 10th", time.Date(2026, 3, 11, 4, 0, 0, 0, time.UTC),
			zone(t, "America/Rio_Branco"), night, date(2026, 3, 10)},
		{"-05:00 night shift: 10:00 UTC (05:00 local) of the 11th", time.Date(2026, 3, 11, 10, 0, 0, 0, time.UTC),
			zone(t, "America/Rio_Branco"), night, date(2026, 3, 10)},
	} {
		if got := Jornada(c.t, c.loc, c.e); !got.Equal(c.want) {
			t.Errorf("%s: Jornada = %s, want %s", c.name, got.Format(time.DateOnly), c.want.Format(time.DateOnly))
		}
	}
}

func TestJornadaRestDayAndShiftStartingAfterMidnight(t *testing.T) {
	sp := zone(t, "America/Sao_Paulo")
	// Monday to Friday 00:30 → 08:30; the weekend off.
	e := &Escala{}
	for i := 0; i < 5; i++ {
		e.Semana[i] = &Turno{Entrada: 30, SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 480}
	}
	// 2026-03-09 is a Monday: 23:50 on Sunday the 8th is an early entrada
	// of Monday's shift.
	if got := Jornada(time.Date(2026, 3, 8, 23, 50, 0, 0, sp), sp, e); !got.Equal(date(2026, 3, 9)) {
		t.Errorf("early entrada: %s", got.Format(time.DateOnly))
	}
	// Saturday has no shift and Friday's ended at 08:30 + 6 h: the date.
	if got := Jornada(time.Date(2026, 3, 14, 15, 0, 0, 0, sp), sp, e); !got.Equal(date(2026, 3, 14)) {
		t.Errorf("rest day: %s", got.Format(time.DateOnly))
	}
}

func TestEscalaValidar(t *testing.T) {
	night := every(Turno{Entrada: 22 * 60, SaidaAlmoco: 240, RetornoAlmoco: 270, Saida: 450})
	if err := night.Validate(); err != nil {
		t.Fatalf("a nightly 22:00→05:30 schedule: %v", err)
	}
	long := every(Turno{Entrada: 20 * 60, Saida: 25 * 60})
	if err := long.Validate(); err == nil {
		t.Fatal("a 25-hour shift was accepted")
	}
	overlap := &Escala{}
	overlap.Semana[0] = &Turno{Entrada: 22 * 60, Saida: 12 * 60} // Monday 22:00 → Tuesday 10:00
	overlap.Semana[1] = &Turno{Entrada: 8 * 60, Saida: 8 * 60}   // Tuesday 08:00
	if err := overlap.Validate(); err == nil {
		t.Fatal("overlapping shifts were accepted")
	}
	wrap := &Escala{}
	wrap.Semana[6] = &Turno{Entrada: 20 * 60, Saida: 12 * 60} // Sunday 20:00 → Monday 08:00
	wrap.Semana[0] = &Turno{Entrada: 7 * 60, Saida: 8 * 60}   // Monday 07:00
	if err := wrap.Validate(); err == nil {
		t.Fatal("Sunday's shift overlapping Monday's was accepted")
	}
}

func TestOffset(t *testing.T) {
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for name, want := range map[string]int{"America/Sao_Paulo": -180, "America/Manaus": -240,
		"America/Rio_Branco": -300, "America/Noronha": -120} {
		if got := Offset(at, zone(t, name)); got != want {
			t.Errorf("%s: %d, want %d", name, got, want)
		}
	}
}

func TestNightShiftWorkday(t *testing.T) {
	turno := &Turno{Entrada: hm(22, 0), SaidaAlmoco: 210, RetornoAlmoco: 270, Saida: 450} // 22:00 → 05:30
	// 22:00, lunch 01:30-02:30, 05:30 the next morning.
	marcas := []int{hm(22, 0), 24*60 + hm(1, 30), 24*60 + hm(2, 30), 24*60 + hm(5, 30)}
	a := ComputeApuracao(Dia{Marcas: marcas, Turno: turno, Descanso: ptr(16*60 + 30)})
	// 390 worked; 22:00-01:30 and 02:30-05:00 are 360 night minutes, and
	// the workday, carried out at night, went on to 05:30: Súmula 60 II
	// adds those 30. 390 × 8/7 = 445.7 → 446.
	if a.Trabalhados != 390 || a.Previstos != 390 || a.Noturnos != 390 || a.NoturnosReduzidos != 446 {
		t.Fatalf("night shift: %+v", a)
	}
	if len(a.Alertas) != 0 || a.Atraso != 0 || !a.Tolerancia {
		t.Fatalf("night shift alerts: %+v", a)
	}
}

func TestSumula60(t *testing.T) {
	for _, c := range []struct {
		name   string
		marcas []int
		want   int
	}{
		{"22:00-05:00 exactly: no extension", []int{hm(22, 0), 24*60 + hm(5, 0)}, 420},
		{"23:00-07:00: the night and two extended hours", []int{hm(23, 0), 24*60 + hm(7, 0)}, 360 + 120},
		{"19:00-07:00 (12x36, whole night): OJ 388", []int{hm(19, 0), 24*60 + hm(7, 0)}, 420 + 120},
		{"04:00-13:00, a day's work that began before 05:00: no extension", []int{hm(4, 0), hm(13, 0)}, 60},
		{"18:00-23:30: evening, not through 05:00", []int{hm(18, 0), hm(23, 30)}, 90},
		{"a break across 05:00 does not carry the night on", []int{hm(0, 0), hm(4, 0), hm(6, 0), hm(8, 0)}, 240},
		{"work resumed after a break following 05:00", []int{hm(22, 0), 24*60 + hm(6, 0), 24*60 + hm(6, 30), 24*60 + hm(8, 0)},
			420 + 60 + 90},
	} {
		if got := MinutosNoturnos(c.marcas); got != c.want {
			t.Errorf("%s: %d night minutes, want %d", c.name, got, c.want)
		}
	}
}

func TestArt66AcrossANightShift(t *testing.T) {
	// Workday 1: 22:00 → 05:30; workday 2 starts 22:00 the same evening:
	// 16 h 30 of rest. A punch at 14:00 instead leaves 8 h 30.
	if DescansoInsuficiente(16*60 + 30) {
		t.Fatal("16h30 flagged")
	}
	a := ComputeApuracao(Dia{Marcas: []int{hm(14, 0), hm(18, 0)}, Turno: &Turno{Entrada: hm(14, 0), Saida: 240},
		Descanso: ptr(8*60 + 30)})
	if len(a.Alertas) != 1 || a.Alertas[0] != AlertaDescanso {
		t.Fatalf("alerts %v", a.Alertas)
	}
}
