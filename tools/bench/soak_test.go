package bench

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseProcessMetrics(t *testing.T) {
	page := `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 42
# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 3.3554432e+07
# HELP go_memstats_next_gc_bytes Number of heap bytes when next garbage collection will take place.
# TYPE go_memstats_next_gc_bytes gauge
go_memstats_next_gc_bytes 8.388608e+06
# HELP http_requests_total Requests.
# TYPE http_requests_total counter
http_requests_total{route="/x"} 7
`
	x, err := parseProcessMetrics(strings.NewReader(page))
	if err != nil || x.RSSMiB != 32 || x.HeapGoalMiB != 8 || x.Goroutines != 42 {
		t.Fatalf("got %+v %v; want 32 MiB, heap goal 8 MiB, 42", x, err)
	}
	if _, err := parseProcessMetrics(strings.NewReader("# TYPE go_goroutines gauge\ngo_goroutines 3\n")); err == nil {
		t.Fatal("a page without process_resident_memory_bytes was accepted")
	}
}

func TestSoakSummary(t *testing.T) {
	sr := &SoakReport{}
	s := sr.service("timekeeping")
	s.Samples = []SoakSample{
		{Phase: phaseIdleBefore, RSSMiB: 30, HeapGoalMiB: 8, Goroutines: 20},
		{Phase: phaseStart, RSSMiB: 50, HeapGoalMiB: 10, Goroutines: 90},
		{Phase: phaseDuring, RSSMiB: 54, HeapGoalMiB: 14, Goroutines: 95},
		{Phase: phaseDuring, RSSMiB: 50, HeapGoalMiB: 16, Goroutines: 95},
		{Phase: phaseEnd, RSSMiB: 55, HeapGoalMiB: 20, Goroutines: 88},
		{Phase: phaseIdleAfter, RSSMiB: 52, HeapGoalMiB: 12, Goroutines: 23},
	}
	sr.summarize()
	got := sr.Services[0]
	if got.RSSGrowthPct != 10 || got.GoroutineGrowth != -2 || got.IdleGoroutineGrowth != 3 ||
		got.HeapGoalGrowthPct != 100 || got.HalvesHeapGoalPct != 50 || math.Abs(got.HalvesRSSPct-(52.5-52)/52*100) > 1e-9 {
		t.Fatalf("summary %+v", got)
	}
	var b strings.Builder
	sr.print(&b)
	if !strings.Contains(b.String(), "timekeeping") || !strings.Contains(b.String(), "+10.0%") ||
		!strings.Contains(b.String(), "+50.0%,  +1.0%") {
		t.Fatalf("printout:\n%s", b.String())
	}
}

// The start and end readings are taken while the traffic runs, even
// when every reading is slow.
func TestFollowSoakTakesStartAndEnd(t *testing.T) {
	t.Parallel()
	for _, slow := range []time.Duration{0, 2 * time.Second} {
		r := &runner{opts: Options{Warmup: 100 * time.Millisecond, Soak: 4 * time.Second}}
		began := time.Now()
		done := make(chan struct{})
		time.AfterFunc(r.opts.Warmup+r.opts.Soak, func() { close(done) })
		var mu sync.Mutex
		var phases []string
		r.followSoak(context.Background(), began, done, func(p string) {
			mu.Lock()
			phases = append(phases, p)
			mu.Unlock()
			time.Sleep(slow)
		})
		if !slices.Equal(phases, []string{phaseStart, phaseEnd}) {
			t.Errorf("slow %s: phases %v; want start and end", slow, phases)
		}
		<-done
	}
}
