package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/redis/go-redis/v9"
)

// The guards every authenticated request passes after its token is
// verified (jwtauth.Verifier.AddGuards): the revocation check and the
// per-token rate limit. Their cost is read from the service's own CPU
// profile of the measured part, as the share of its samples with a guard
// on the stack, plus Redis' CPU per request for the rate limit (its
// EVALSHA is the only Redis command a clock-in sends).
const (
	revocationPackage = "github.com/ponto/ponto/pkg/revocation."
	rateLimitPackage  = "github.com/ponto/ponto/pkg/ratelimit."
)

// GuardCost is what the guards cost one workload's requests.
type GuardCost struct {
	// RevocationSharePct and RateLimitSharePct are the shares of the
	// service's CPU samples spent in each guard, in percent.
	RevocationSharePct float64 `json:"parteRevogacaoPct"`
	RateLimitSharePct  float64 `json:"parteLimitePct"`
	// RevocationMs is the revocation check's CPU per request; RateLimitMs
	// the rate limit's in the service plus Redis'.
	RevocationMs float64 `json:"revogacaoMsPorRequisicao"`
	RateLimitMs  float64 `json:"limiteMsPorRequisicao"`
	// RevocationGrowthPct and GrowthPct are what the revocation check,
	// and both guards, add to the request's CPU without them (the total
	// of every process less their cost), in percent.
	RevocationGrowthPct float64 `json:"acrescimoRevogacaoPct"`
	GrowthPct           float64 `json:"acrescimoPct"`
}

// guardShares are the shares of the profile's CPU samples whose stack
// holds a function of the revocation package and of the rate limit's.
func guardShares(path string) (revocation, rateLimit float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return 0, 0, err
	}
	cpu := sampleIndex(p, "cpu")
	var all, revoked, limited int64
	for _, s := range p.Sample {
		v := s.Value[cpu]
		all += v
		switch {
		case under(s, revocationPackage):
			revoked += v
		case under(s, rateLimitPackage):
			limited += v
		}
	}
	if all == 0 {
		return 0, 0, fmt.Errorf("%s: perfil sem amostras", path)
	}
	return float64(revoked) / float64(all), float64(limited) / float64(all), nil
}

func sampleIndex(p *profile.Profile, kind string) int {
	for i, st := range p.SampleType {
		if st.Type == kind {
			return i
		}
	}
	return len(p.SampleType) - 1
}

func under(s *profile.Sample, pkg string) bool {
	for _, loc := range s.Location {
		for _, line := range loc.Line {
			if line.Function != nil && strings.HasPrefix(line.Function.Name, pkg) {
				return true
			}
		}
	}
	return false
}

// guardCost combines a workload's profile shares with its CPU per request.
func guardCost(revocation, rateLimit float64, service string, cpu CPUPerOp) *GuardCost {
	var total float64
	for _, ms := range cpu {
		total += ms
	}
	g := &GuardCost{RevocationSharePct: revocation * 100, RateLimitSharePct: rateLimit * 100,
		RevocationMs: revocation * cpu[service], RateLimitMs: rateLimit*cpu[service] + cpu["redis"]}
	if rest := total - g.RevocationMs; rest > 0 {
		g.RevocationGrowthPct = g.RevocationMs / rest * 100
	}
	if rest := total - g.RevocationMs - g.RateLimitMs; rest > 0 {
		g.GrowthPct = (g.RevocationMs + g.RateLimitMs) / rest * 100
	}
	return g
}

// redisPID is the Redis server's process id, from INFO server; 0 when it
// cannot be read (then Redis' CPU is not counted).
func redisPID(ctx context.Context, addr string) int {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	info, err := rdb.Info(ctx, "server").Result()
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, _ := strconv.Atoi(v)
			return pid
		}
	}
	return 0
}
