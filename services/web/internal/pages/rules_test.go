package pages

import (
	"encoding/json"
	"testing"
)

func TestNextTipoFollowsTheWorkday(t *testing.T) {
	recs := func(tipos ...string) []record {
		var out []record
		for _, tp := range tipos {
			out = append(out, record{"tipo": tp})
		}
		return out
	}
	cases := []struct {
		done []record
		want string
	}{
		{nil, "entrada"},
		{recs("entrada"), "almoço"},
		{recs("entrada", "almoço"), "retorno almoço"},
		{recs("entrada", "almoço", "retorno almoço"), "saída"},
		{recs("entrada", "almoço", "retorno almoço", "saída"), "entrada"},
		// An absence is not a punch.
		{recs("falta"), "entrada"},
	}
	for _, c := range cases {
		if got := nextTipo(c.done); got != c.want {
			t.Errorf("nextTipo(%v) = %q; want %q", c.done, got, c.want)
		}
	}
}

func TestScheduleDayInMinutesAfterEntrada(t *testing.T) {
	h, bad := scheduleDay(map[string]string{"entrada": "08:00", "saidaAlmoco": "12:00", "retornoAlmoco": "13:00", "saida": "17:00"})
	if len(bad) != 0 || h["saidaAlmoco"] != 240 || h["retornoAlmoco"] != 300 || h["saida"] != 540 || h["entrada"] != "08:00" {
		t.Fatalf("day shift = %v, %v", h, bad)
	}
	// A night shift crosses midnight.
	h, bad = scheduleDay(map[string]string{"entrada": "22:00", "saidaAlmoco": "01:00", "retornoAlmoco": "02:00", "saida": "05:30"})
	if len(bad) != 0 || h["saidaAlmoco"] != 180 || h["retornoAlmoco"] != 240 || h["saida"] != 450 {
		t.Fatalf("night shift = %v, %v", h, bad)
	}
	_, bad = scheduleDay(map[string]string{"entrada": "8h", "saidaAlmoco": "12:00", "retornoAlmoco": "", "saida": "17:00"})
	if bad["entrada"] == "" || bad["retornoAlmoco"] == "" || len(bad) != 2 {
		t.Fatalf("bad times = %v; want entrada and retornoAlmoco named", bad)
	}
}

func TestFormatting(t *testing.T) {
	cases := []struct{ got, want string }{
		{minutes(json.Number("-65")), "-1h05"},
		{minutes(json.Number("482")), "8h02"},
		{dateBR("2026-03-05"), "05/03/2026"},
		{dateBR("2026-03-05T11:02:03.456Z"), "05/03/2026"},
		{localClock("2026-03-05T11:02:03.456Z", "America/Sao_Paulo"), "08:02:03"},
		{localClock("2026-03-05T11:02:03.456Z", "America/Manaus"), "07:02:03"},
		{trimSeconds("08:02:03"), "08:02"},
		{str(json.Number("1000000")), "1000000"},
		{str(nil), ""},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q; want %q", i, c.got, c.want)
		}
	}
}
