package bench

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

// A profile with 10 CPU units in the handler, 2 under the revocation
// guard and 3 under the rate limit.
func TestGuardShare(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	handler := fn(1, "github.com/ponto/ponto/services/timekeeping/internal/registro.(*Handlers).ClockIn")
	revoked := fn(2, "github.com/ponto/ponto/pkg/revocation.(*Watcher).Guard")
	limited := fn(3, "github.com/ponto/ponto/pkg/ratelimit.(*Limiter).PerToken.func1")
	redisCall := fn(4, "github.com/redis/go-redis/v9.(*baseClient).process")
	loc := func(id uint64, f *profile.Function) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
	}
	lh, lr, ll, lc := loc(1, handler), loc(2, revoked), loc(3, limited), loc(4, redisCall)
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Function:   []*profile.Function{handler, revoked, limited, redisCall},
		Location:   []*profile.Location{lh, lr, ll, lc},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lh}, Value: []int64{1, 10}},
			{Location: []*profile.Location{lr}, Value: []int64{1, 2}},
			{Location: []*profile.Location{lc, ll}, Value: []int64{1, 3}},
		},
	}
	path := filepath.Join(t.TempDir(), "p.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	revocation, rateLimit, err := guardShares(path)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(revocation-2.0/15) > 1e-9 || math.Abs(rateLimit-3.0/15) > 1e-9 {
		t.Fatalf("shares %v %v; want 2/15 and 3/15", revocation, rateLimit)
	}

	// Of timekeeping's 0.3 ms, 2/15 revocation (0.04) and 3/15 rate limit
	// (0.06, plus Redis' 0.05), against the rest of the 1.0 ms request.
	g := guardCost(revocation, rateLimit, "timekeeping", CPUPerOp{"timekeeping": 0.3, "postgres": 0.65, "redis": 0.05})
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(g.RevocationMs, 0.04) || !near(g.RateLimitMs, 0.11) || !near(g.RevocationGrowthPct, 0.04/0.96*100) ||
		!near(g.GrowthPct, 0.15/0.85*100) {
		t.Fatalf("cost %+v", g)
	}
}
