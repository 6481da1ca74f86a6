package clocktest_test

import (
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
)

func TestSourceReadsWhatWasSet(t *testing.T) {
	var src clocktest.Source
	c := clock.New(src.Now)
	before := time.Now().Truncate(time.Millisecond)
	if got := c.Now(); got.Before(before) || got.After(time.Now()) {
		t.Fatalf("before Set: %v, want the real time", got)
	}
	a, b := time.Date(2024, 3, 4, 23, 59, 59, 0, time.UTC), time.Date(2024, 3, 5, 0, 0, 1, 0, time.UTC)
	src.Set(a, b)
	for i, want := range []time.Time{a, b, b} {
		if got := c.Now(); !got.Equal(want) {
			t.Fatalf("reading %d: %v, want %v", i, got, want)
		}
	}
	src.Set(a)
	if got := c.Now(); !got.Equal(a) {
		t.Fatalf("after Set(a): %v", got)
	}
}
