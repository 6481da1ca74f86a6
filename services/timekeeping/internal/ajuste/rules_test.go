package ajuste

import (
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

func TestTransitions(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		status          *string
		request, decide bool
	}{
		{nil, true, false},
		{s(core.StatusSolicitado), false, true},
		{s(core.StatusAprovado), false, false},
		{s(core.StatusReprovado), true, false},
	} {
		if got := canRequest(c.status) == nil; got != c.request {
			t.Errorf("canRequest(%v) = %v", c.status, got)
		}
		if got := canDecide(c.status) == nil; got != c.decide {
			t.Errorf("canDecide(%v) = %v", c.status, got)
		}
	}
}

func TestParseUTC(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2024-03-05T20:00:00.000Z":     time.Date(2024, 3, 5, 20, 0, 0, 0, time.UTC),
		"2024-03-05T20:00:00Z":         time.Date(2024, 3, 5, 20, 0, 0, 0, time.UTC),
		"2024-03-05T20:00:00.1234567Z": time.Date(2024, 3, 5, 20, 0, 0, 123e6, time.UTC),
	} {
		if got, ok := ParseUTC(in); !ok || !got.Equal(want) {
			t.Errorf("ParseUTC(%q) = %v, %v", in, got, ok)
		}
	}
	for _, in := range []string{"2024-03-05T17:00:00-03:00", "2024-03-05 20:00:00Z", "2024-03-05", "1999-12-31T23:00:00Z",
		"2024-02-30T00:00:00Z", "2024-03-05T20:00:00.0000000000Z"} {
		if _, ok := ParseUTC(in); ok {
			t.Errorf("ParseUTC(%q) accepted", in)
		}
	}
}
