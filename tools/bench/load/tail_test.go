package load

import (
	"reflect"
	"testing"
	"time"
)

func TestTailPlacesTheSlowestOnePercent(t *testing.T) {
	start := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	var marks []mark
	// 1,000 operations over one second, 2 ms each, but for ten slow ones:
	// six in the window of 100–150 ms, three at 700 ms, one at 900 ms.
	for i := range 1000 {
		marks = append(marks, mark{start: start.Add(time.Duration(i) * time.Millisecond), took: 2 * time.Millisecond})
	}
	for _, i := range []int{101, 110, 120, 130, 140, 149, 700, 710, 720, 900} {
		marks[i].took = 30 * time.Millisecond
	}
	got := tailOf(marks, start, start.Add(time.Second))
	want := Tail{Slow: 10, Windows: 20, WithSlow: 3, Top3Share: 1, Top3: []TailSpan{{100, 6}, {700, 3}, {900, 1}}}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Fatalf("tail %+v, want %+v", got, want)
	}

	// Spread: one slow operation in each of ten windows; of windows alike,
	// the earliest are named.
	for i := range marks {
		marks[i].took = 2 * time.Millisecond
	}
	for i := range 10 {
		marks[i*100].took = 30 * time.Millisecond
	}
	got = tailOf(marks, start, start.Add(time.Second))
	if want := (Tail{Slow: 10, Windows: 20, WithSlow: 10, Top3Share: 0.3, Top3: []TailSpan{{0, 1}, {100, 1}, {200, 1}}}); !reflect.DeepEqual(*got, want) {
		t.Fatalf("spread tail %+v, want %+v", got, want)
	}
	if tailOf(nil, start, start) != nil {
		t.Fatal("a tail without operations")
	}
}
