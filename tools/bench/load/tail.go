package load

import (
	"cmp"
	"maps"
	"slices"
	"time"
)

// TailWindow is the span the slowest operations are placed in (Tail).
const TailWindow = 50 * time.Millisecond

// Tail tells whether a run's slowest 1% of operations were spread over it
// or met in a few moments: on a shared machine a p99 is often a handful
// of stalls (a collection, a slow commit) rather than the usual wait, and
// the two call for different remedies.
type Tail struct {
	// Slow is how many operations the slowest 1% is (at least one).
	Slow int `json:"lentas"`
	// Windows is how many TailWindow spans the measured part covers.
	Windows int `json:"janelas"`
	// WithSlow is how many of them the slowest 1% started in.
	WithSlow int `json:"janelasComLentos"`
	// Top3Share is the part of the slowest 1% that started in the three
	// windows holding most of them.
	Top3Share float64 `json:"parteNas3Maiores"`
	// Top3 are those three windows, earliest first: a shift change's
	// opening burst shows as its first windows, a stall as one later.
	Top3 []TailSpan `json:"janelasMaiores"`
}

// TailSpan is one TailWindow of a run and how many of its slowest 1%
// started in it.
type TailSpan struct {
	// AtMs is where it begins, in milliseconds from the measured part's
	// start.
	AtMs int64 `json:"inicioMs"`
	Slow int   `json:"lentas"`
}

// mark is one measured operation: when it started and how long it took.
type mark struct {
	start time.Time
	took  time.Duration
}

// tailOf places the slowest 1% of marks (at least one) in the TailWindow
// spans from start to end; nil without marks.
func tailOf(marks []mark, start, end time.Time) *Tail {
	if len(marks) == 0 {
		return nil
	}
	marks = slices.Clone(marks)
	slices.SortFunc(marks, func(a, b mark) int { return cmp.Compare(b.took, a.took) })
	slow := marks[:max(1, len(marks)/100)]
	per := map[int64]int{}
	for _, m := range slow {
		per[int64(max(0, m.start.Sub(start))/TailWindow)]++
	}
	// The fullest windows first, the earlier of two alike.
	windows := slices.Sorted(maps.Keys(per))
	slices.SortStableFunc(windows, func(a, b int64) int { return per[b] - per[a] })
	windows = windows[:min(3, len(windows))]
	slices.Sort(windows)
	top := 0
	spans := make([]TailSpan, 0, len(windows))
	for _, w := range windows {
		top += per[w]
		spans = append(spans, TailSpan{AtMs: w * TailWindow.Milliseconds(), Slow: per[w]})
	}
	return &Tail{Slow: len(slow), Windows: int(max(0, end.Sub(start)+TailWindow-1) / TailWindow), WithSlow: len(per),
		Top3Share: float64(top) / float64(len(slow)), Top3: spans}
}
