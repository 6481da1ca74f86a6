package core

import (
	"errors"
	"testing"
	"time"
)

func TestAvaliarOffline(t *testing.T) {
	agora := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	mins := func(m int) *time.Duration { d := time.Duration(m) * time.Minute; return &d }
	l := LimitesOfflinePadrao // 5 min ahead, 7 days old, 5 min moved
	cases := []struct {
		name          string
		horario       time.Time
		antes, agora_ *time.Duration
		divergente    bool
		err           error
	}{
		{"3 h ago, clock steady", agora.Add(-3 * time.Hour), mins(2), mins(2), false, nil},
		{"4 min ahead: within the skew", agora.Add(4 * time.Minute), nil, nil, false, nil},
		{"6 min ahead: refused", agora.Add(6 * time.Minute), nil, nil, false, ErrOfflineFutura},
		{"6 days 23 h ago", agora.Add(-167 * time.Hour), nil, nil, false, nil},
		{"7 days 1 min ago: refused", agora.Add(-7*24*time.Hour - time.Minute), nil, nil, false, ErrOfflineAntiga},
		// The clock was 2 min ahead, now 10 min behind: it moved 12 min.
		{"clock moved 12 min: flagged", agora.Add(-time.Hour), mins(2), mins(-10), true, nil},
		// 1 min behind, now 4 min ahead: moved 5 min, the limit itself.
		{"clock moved 5 min: not flagged", agora.Add(-time.Hour), mins(-1), mins(4), false, nil},
		{"no earlier measure", agora.Add(-time.Hour), nil, mins(30), false, nil},
	}
	for _, c := range cases {
		d, err := AvaliarOffline(c.horario, agora, c.antes, c.agora_, l)
		if d != c.divergente || !errors.Is(err, c.err) {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, d, err, c.divergente, c.err)
		}
	}
}

func TestTipoNaOrdem(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 12, 7, h, m, 0, 0, time.UTC) }
	// Recorded: 08:00 entrada and 12:00 almoço (on-line).
	feitas := []time.Time{at(8, 0), at(12, 0)}
	cases := []struct {
		horario time.Time
		want    string
	}{
		{at(7, 0), TipoEntrada},  // before both: first of the day
		{at(10, 0), TipoAlmoco},  // after 08:00 only: second
		{at(12, 0), TipoRetorno}, // same instant as 12:00: after it
		{at(13, 0), TipoRetorno}, // after both: third
	}
	for _, c := range cases {
		if got := TipoNaOrdem(feitas, c.horario); got != c.want {
			t.Errorf("%v: %q, want %q", c.horario, got, c.want)
		}
	}
	if got := TipoNaOrdem(nil, at(9, 0)); got != TipoEntrada {
		t.Errorf("empty day: %q", got)
	}
}

// An off-line punch's type-7 prefix: device time in field 3, server's
// arrival in field 5, "1" in field 7.
func TestPrefix7OffLine(t *testing.T) {
	m := Marcacao{NSR: 12, Horario: time.Date(2026, 12, 7, 11, 3, 20, 0, time.UTC),
		Gravacao: time.Date(2026, 12, 7, 14, 30, 59, 0, time.UTC), OffsetMinutes: -180, CPF: "123.456.789-09",
		Coletor: ColetorBrowser, OffLine: true}
	got, err := Prefix7(m)
	want := "000000012" + "7" + "2026-12-07T08:03:00-0300" + "012345678909" + "2026-12-07T11:30:00-0300" + "02" + "1"
	if err != nil || got != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
}
