package core

import (
	"testing"
	"time"
)

// A 12x36 fortnight: shifts on the anchor date and every second day,
// none before it; a night 12x36's morning punches belong to the evening's
// workday; the fortnight's figures.
func Test12x36Quinzena(t *testing.T) {
	base := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	dia := &Turno{Entrada: 7 * 60, SaidaAlmoco: 300, RetornoAlmoco: 360, Saida: 720} // 07:00-19:00, break 12:00-13:00
	e := &Escala{Ciclo: &Ciclo12x36{Base: base, Turno: dia}}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if e.Turno(base.AddDate(0, 0, -1)) != nil || e.Turno(base.AddDate(0, 0, -2)) != nil {
		t.Fatal("a shift before the anchor date")
	}
	var shifts, previstos, saldo int
	for i := range 14 {
		d := base.AddDate(0, 0, i)
		turno := e.Turno(d)
		if (turno != nil) != (i%2 == 0) {
			t.Fatalf("%s: shift %v", d.Format(time.DateOnly), turno)
		}
		if turno == nil {
			continue
		}
		shifts++
		marcas := []int{7 * 60, 12 * 60, 13 * 60, 19 * 60}
		if i == 4 { // a day 30 minutes late
			marcas[0] += 30
		}
		a := ComputeApuracao(Dia{Marcas: marcas, Turno: turno})
		previstos += a.Previstos
		saldo += a.Saldo
	}
	if shifts != 7 || previstos != 7*660 || saldo != -30 {
		t.Fatalf("fortnight: %d shifts, %d expected minutes, balance %d", shifts, previstos, saldo)
	}

	noite := &Escala{Ciclo: &Ciclo12x36{Base: base, Turno: &Turno{Entrada: 19 * 60, SaidaAlmoco: 360, RetornoAlmoco: 420,
		Saida: 720}}} // 19:00-07:00
	brt := time.FixedZone("", -3*3600)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2024, 3, 2, 6, 55, 0, 0, brt), "2024-03-01"}, // leaving the night of the 1st
		{time.Date(2024, 3, 3, 18, 50, 0, 0, brt), "2024-03-03"},
		{time.Date(2024, 3, 2, 14, 0, 0, 0, brt), "2024-03-02"}, // a day off, outside both windows: the calendar date
	} {
		if got := Jornada(c.at, brt, noite).Format(time.DateOnly); got != c.want {
			t.Errorf("%s: workday %s, want %s", c.at, got, c.want)
		}
	}
	if err := (&Escala{Ciclo: &Ciclo12x36{Base: base, Turno: &Turno{Entrada: 0, Saida: 780}}}).Validate(); err == nil {
		t.Fatal("a 13-hour 12x36 shift was accepted")
	}
}
