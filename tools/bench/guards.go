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
// on the stack, plus Redis' CPU per request (the rate limit's EVALSHA is
// the only Redis command a clock-in sends).
var guardPackages = []string{
	"github.com/ponto/ponto/pkg/revocation.",
	"github.com/ponto/ponto/pkg/ratelimit.",
}

// GuardCost is what the guards cost one workload's requests.
type GuardCost struct {
	// ServiceSharePct is the share of the service's CPU samples spent in
	// a guard, in percent.
	ServiceSharePct float64 `json:"parteDoServicoPct"`
	// MsPerOp is that share of the service's CPU per request plus Redis'.
	MsPerOp float64 `json:"msPorRequisicao"`
	// GrowthPct is MsPerOp over the request's CPU without it (the total
	// of every process less MsPerOp): how much the guards add, in percent.
	GrowthPct float64 `json:"acrescimoPct"`
}

// guardShare is the share of the profile's CPU samples whose stack holds
// a function of a guard's package.
func guardShare(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return 0, err
	}
	cpu := sampleIndex(p, "cpu")
	var all, guarded int64
	for _, s := range p.Sample {
		v := s.Value[cpu]
		all += v
		if underGuard(s) {
			guarded += v
		}
	}
	if all == 0 {
		return 0, fmt.Errorf("%s: perfil sem amostras", path)
	}
	return float64(guarded) / float64(all), nil
}

func sampleIndex(p *profile.Profile, kind string) int {
	for i, st := range p.SampleType {
		if st.Type == kind {
			return i
		}
	}
	return len(p.SampleType) - 1
}

func underGuard(s *profile.Sample) bool {
	for _, loc := range s.Location {
		for _, line := range loc.Line {
			if line.Function == nil {
				continue
			}
			for _, pkg := range guardPackages {
				if strings.HasPrefix(line.Function.Name, pkg) {
					return true
				}
			}
		}
	}
	return false
}

// guardCost combines a workload's profile share with its CPU per request.
func guardCost(share float64, service string, cpu CPUPerOp) *GuardCost {
	var total float64
	for _, ms := range cpu {
		total += ms
	}
	g := &GuardCost{ServiceSharePct: share * 100, MsPerOp: share*cpu[service] + cpu["redis"]}
	if rest := total - g.MsPerOp; rest > 0 {
		g.GrowthPct = g.MsPerOp / rest * 100
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
