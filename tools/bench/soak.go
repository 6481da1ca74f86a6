package bench

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ponto/ponto/tools/bench/load"
)

// soakMix is the soak's traffic: several workloads at once through the
// gateway, each with its own connections, as a working day mixes them.
var soakMix = []struct {
	name  string
	conns int
}{
	{"clockin-spread", 16}, {"login", 4}, {"refresh", 8}, {"report-json", 1}, {"photo", 2}, {"receipt-signed", 2},
}

// soakServices are the services whose memory and goroutines are followed.
var soakServices = []string{"auth", "company-billing", "employee", "timekeeping", "media", "web"}

// SoakReport is the soak: what each workload of the mix did, and each
// service's resident memory and goroutines over the run.
type SoakReport struct {
	Seconds  float64       `json:"segundos"`
	Loads    []SoakLoad    `json:"cargas"`
	Services []SoakService `json:"servicos"`
	Errors   int64         `json:"erros"`
}

// SoakLoad is one workload of the mix.
type SoakLoad struct {
	Workload string `json:"carga"`
	Conns    int    `json:"conexoes"`
	load.Result
}

// SoakService is one service's figures. Idle samples are taken with no
// traffic, before and after the soak; loaded ones as the measured part
// starts and as it ends. Growth compares the loaded end with the loaded
// start (the same traffic, minutes apart) and idle after with idle
// before (what the traffic left behind).
type SoakService struct {
	Service string       `json:"servico"`
	Samples []SoakSample `json:"amostras"`
	// RSSGrowthPct is (loaded end − loaded start) / loaded start of the
	// resident memory, in percent.
	RSSGrowthPct float64 `json:"crescimentoRSSPct"`
	// HeapGoalGrowthPct is the same for the Go heap goal. The heap goal
	// is twice the heap that survived the last collection (GOGC=100), so
	// it follows live data and not what the runtime has yet to hand back
	// to the system; one reading of it swings with the requests in flight
	// (a report, a photo). HalvesHeapGoalPct and HalvesRSSPct therefore
	// compare the mean of the loaded readings of the soak's second half
	// with that of its first: a leak keeps climbing and shows there; a
	// cache that has filled, or a heap that swings, does not.
	HeapGoalGrowthPct float64 `json:"crescimentoMetaHeapPct"`
	HalvesHeapGoalPct float64 `json:"metaHeapSegundaMetadePct"`
	HalvesRSSPct      float64 `json:"rssSegundaMetadePct"`
	// GoroutineGrowth is loaded end − loaded start; IdleGoroutineGrowth is
	// idle after − idle before: a leak keeps goroutines after the load.
	GoroutineGrowth     int `json:"crescimentoGoroutines"`
	IdleGoroutineGrowth int `json:"crescimentoGoroutinesOcioso"`
}

// SoakSample is one reading of a service's /metrics.
type SoakSample struct {
	Phase     string  `json:"fase"` // ocioso-antes, inicio, durante, fim, ocioso-depois
	AtSeconds float64 `json:"segundos"`
	RSSMiB    float64 `json:"rssMiB"`
	// HeapGoalMiB is go_memstats_next_gc_bytes: the heap size at which
	// the next collection starts.
	HeapGoalMiB float64 `json:"metaHeapMiB"`
	Goroutines  int     `json:"goroutines"`
}

// Phases of the samples.
const (
	phaseIdleBefore = "ocioso-antes"
	phaseStart      = "inicio"
	phaseDuring     = "durante"
	phaseEnd        = "fim"
	phaseIdleAfter  = "ocioso-depois"
)

// soak runs the mix for r.opts.Soak through the gateway and samples every
// service's process_resident_memory_bytes and go_goroutines at its start,
// ten times during it and at its end, and idle before and after.
func (r *runner) soak(ctx context.Context, rep *Report) error {
	mix, err := r.soakWorkloads(ctx)
	if err != nil {
		return err
	}
	gw, err := url.Parse(r.stack.GatewayURL())
	if err != nil {
		return err
	}
	r.logf("soak: %s de tráfego misto pelo gateway (%s)", r.opts.Soak, soakMixNames())
	began := time.Now()
	sr := &SoakReport{}
	sample := func(phase string) {
		if err := r.sampleServices(ctx, sr, phase, time.Since(began)); err != nil {
			r.logf("soak: amostra %s: %v", phase, err)
		}
	}
	// Both idle readings come 3 s after traffic (here the workloads'),
	// so that they compare alike.
	sleepCtx(ctx, 3*time.Second)
	sample(phaseIdleBefore)

	var wg sync.WaitGroup
	loadsBegan := time.Now()
	results := make([]SoakLoad, len(mix))
	errs := make([]error, len(mix))
	for i, m := range mix {
		wg.Go(func() {
			res, err := load.Run(ctx, load.Config{Addr: gw.Host, Conns: m.conns, Warmup: r.opts.Warmup,
				Duration: r.opts.Soak, Op: m.w.op(ColumnGateway), Seed: uint64(r.started.UnixNano()) + uint64(i)})
			results[i], errs[i] = SoakLoad{Workload: m.w.name, Conns: m.conns, Result: res}, err
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	r.followSoak(ctx, loadsBegan, done, sample)
	<-done
	// Let in-flight work (the relay, connection reapers) settle before
	// the idle reading.
	sleepCtx(ctx, 3*time.Second)
	sample(phaseIdleAfter)

	for i, res := range results {
		if errs[i] != nil {
			return errs[i]
		}
		sr.Errors += res.TotalErrors()
		sr.Loads = append(sr.Loads, res)
	}
	sr.Seconds = time.Since(began).Seconds()
	sr.summarize()
	rep.Soak = sr
	for _, s := range sr.Services {
		r.logf("soak: %-16s RSS %+.1f%%  goroutines %+d (ocioso %+d)", s.Service, s.RSSGrowthPct, s.GoroutineGrowth, s.IdleGoroutineGrowth)
	}
	return nil
}

// followSoak samples a second into the measured part, ten times during
// it and 1.5 s before it ends. The times are fixed from the start, so
// that slow readings on a busy machine do not push the last one past the
// end of the traffic.
func (r *runner) followSoak(ctx context.Context, began time.Time, done <-chan struct{}, sample func(string)) {
	first := began.Add(r.opts.Warmup + time.Second)
	last := began.Add(r.opts.Warmup + r.opts.Soak - 1500*time.Millisecond)
	if last.Before(first) {
		last = first
	}
	at := func(when time.Time) bool {
		select {
		case <-done:
			return false
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(when)):
			return true
		}
	}
	if !at(first) {
		return
	}
	sample(phaseStart)
	step := last.Sub(first) / 11
	for i := 1; i <= 10 && step > time.Second; i++ {
		when := first.Add(time.Duration(i) * step)
		if time.Now().After(when) {
			continue // the previous reading took longer than a step
		}
		if !at(when) {
			return
		}
		sample(phaseDuring)
	}
	if at(last) {
		sample(phaseEnd)
	}
}

type soakLoad struct {
	w     workload
	conns int
}

// soakWorkloads are the mix's workloads, prepared, with their own state
// (the report's floors they would measure go to a scratch report). The
// clock-in's pgbench floor is not taken: the soak has no ratio.
func (r *runner) soakWorkloads(ctx context.Context) ([]soakLoad, error) {
	all := r.workloads(&Report{})
	var mix []soakLoad
	for _, m := range soakMix {
		i := slices.IndexFunc(all, func(w workload) bool { return w.name == m.name })
		if i < 0 {
			return nil, fmt.Errorf("soak: carga desconhecida %s", m.name)
		}
		w := all[i]
		if w.prepare != nil && w.floor != "pgbench" {
			if err := w.prepare(ctx); err != nil {
				return nil, fmt.Errorf("soak: %s: %w", w.name, err)
			}
		}
		mix = append(mix, soakLoad{w: w, conns: m.conns})
	}
	return mix, nil
}

func soakMixNames() string {
	s := ""
	for i, m := range soakMix {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s×%d", m.name, m.conns)
	}
	return s
}

// sampleServices reads every service's /metrics (internal listener).
func (r *runner) sampleServices(ctx context.Context, sr *SoakReport, phase string, at time.Duration) error {
	o := r.stack.Options()
	var errs []error
	for _, svc := range soakServices {
		x, err := readProcessMetrics(ctx, fmt.Sprintf("http://127.0.0.1:%d/metrics", o.Ports[svc].Internal))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", svc, err))
			continue
		}
		x.Phase, x.AtSeconds = phase, at.Seconds()
		s := sr.service(svc)
		s.Samples = append(s.Samples, x)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%v", errs)
	}
	return nil
}

func (sr *SoakReport) service(name string) *SoakService {
	for i := range sr.Services {
		if sr.Services[i].Service == name {
			return &sr.Services[i]
		}
	}
	sr.Services = append(sr.Services, SoakService{Service: name})
	return &sr.Services[len(sr.Services)-1]
}

// summarize computes each service's growth from its samples.
func (sr *SoakReport) summarize() {
	for i := range sr.Services {
		s := &sr.Services[i]
		start, end := s.sample(phaseStart), s.sample(phaseEnd)
		if start != nil && end != nil {
			s.RSSGrowthPct = growthPct(start.RSSMiB, end.RSSMiB)
			s.HeapGoalGrowthPct = growthPct(start.HeapGoalMiB, end.HeapGoalMiB)
			s.GoroutineGrowth = end.Goroutines - start.Goroutines
		}
		if first, second := s.halves(); len(first) > 0 && len(second) > 0 {
			heap := func(x SoakSample) float64 { return x.HeapGoalMiB }
			rss := func(x SoakSample) float64 { return x.RSSMiB }
			s.HalvesHeapGoalPct = growthPct(mean(first, heap), mean(second, heap))
			s.HalvesRSSPct = growthPct(mean(first, rss), mean(second, rss))
		}
		before, after := s.sample(phaseIdleBefore), s.sample(phaseIdleAfter)
		if before != nil && after != nil {
			s.IdleGoroutineGrowth = after.Goroutines - before.Goroutines
		}
	}
}

func growthPct(from, to float64) float64 {
	if from <= 0 {
		return 0
	}
	return (to - from) / from * 100
}

// loaded are the readings taken while the traffic ran, in time order.
func (s *SoakService) loaded() []SoakSample {
	var out []SoakSample
	for _, x := range s.Samples {
		if x.Phase == phaseStart || x.Phase == phaseDuring || x.Phase == phaseEnd {
			out = append(out, x)
		}
	}
	return out
}

// halves splits the loaded readings into the soak's first and second
// half (the middle one, when odd, in neither).
func (s *SoakService) halves() (first, second []SoakSample) {
	l := s.loaded()
	if len(l) < 4 {
		return nil, nil
	}
	return l[:len(l)/2], l[(len(l)+1)/2:]
}

// middle is the loaded reading in the middle of the soak.
func (s *SoakService) middle() *SoakSample {
	l := s.loaded()
	if len(l) < 3 {
		return nil
	}
	return &l[len(l)/2]
}

func mean(xs []SoakSample, v func(SoakSample) float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += v(x)
	}
	return sum / float64(len(xs))
}

func (s *SoakService) sample(phase string) *SoakSample {
	for i := range s.Samples {
		if s.Samples[i].Phase == phase {
			return &s.Samples[i]
		}
	}
	return nil
}

// readProcessMetrics fetches a /metrics page and reads a sample from it.
func readProcessMetrics(ctx context.Context, u string) (SoakSample, error) {
	families, err := scrape(ctx, u)
	if err != nil {
		return SoakSample{}, err
	}
	return processSample(families)
}

// parseProcessMetrics reads a /metrics page's sample (processSample).
func parseProcessMetrics(body io.Reader) (SoakSample, error) {
	families, err := parseMetrics(body)
	if err != nil {
		return SoakSample{}, err
	}
	return processSample(families)
}

// processSample reads process_resident_memory_bytes,
// go_memstats_next_gc_bytes and go_goroutines.
func processSample(families map[string]*dto.MetricFamily) (SoakSample, error) {
	var x SoakSample
	var goroutines float64
	for name, dst := range map[string]*float64{
		"process_resident_memory_bytes": &x.RSSMiB,
		"go_memstats_next_gc_bytes":     &x.HeapGoalMiB,
		"go_goroutines":                 &goroutines,
	} {
		f := families[name]
		if f == nil || len(f.GetMetric()) == 0 || f.GetMetric()[0].GetGauge() == nil {
			return SoakSample{}, fmt.Errorf("sem %s", name)
		}
		*dst = f.GetMetric()[0].GetGauge().GetValue()
	}
	x.RSSMiB /= 1 << 20
	x.HeapGoalMiB /= 1 << 20
	x.Goroutines = int(goroutines)
	return x, nil
}

// print writes the soak's table: each workload's figures, then each
// service's resident memory and goroutines at the four readings, and its
// heap goal at the start, the middle and the end of the traffic.
func (sr *SoakReport) print(w io.Writer) {
	if sr == nil {
		return
	}
	fmt.Fprintf(w, "\nsoak: %.0f s de tráfego misto pelo gateway\n", sr.Seconds)
	for _, l := range sr.Loads {
		fmt.Fprintf(w, "  %-16s %3d conexões  %9.1f req/s  p50 %7.2f ms  p99 %7.2f ms  erros %d\n",
			l.Workload, l.Conns, l.RPS, l.P50Ms, l.P99Ms, l.TotalErrors())
	}
	fmt.Fprintf(w, "  %-16s │ %-39s │ %-39s │ %s\n", "", "RSS MiB: ocioso, início, fim, ocioso",
		"goroutines: ocioso, início, fim, ocioso", "meta do heap MiB: início, meio, fim; 2ª metade ÷ 1ª: heap, RSS")
	for _, s := range sr.Services {
		var rss, gor, heap []string
		for _, ph := range []string{phaseIdleBefore, phaseStart, phaseEnd, phaseIdleAfter} {
			x := s.sample(ph)
			rss, gor = append(rss, cell(x, "%6.1f", func(x *SoakSample) any { return x.RSSMiB })),
				append(gor, cell(x, "%5d", func(x *SoakSample) any { return x.Goroutines }))
		}
		for _, x := range []*SoakSample{s.sample(phaseStart), s.middle(), s.sample(phaseEnd)} {
			heap = append(heap, cell(x, "%6.1f", func(x *SoakSample) any { return x.HeapGoalMiB }))
		}
		fmt.Fprintf(w, "  %-16s │ %s (%+5.1f%%) │ %s (%+d, ocioso %+d) │ %s; %+5.1f%%, %+5.1f%%\n", s.Service,
			strings.Join(rss, " "), s.RSSGrowthPct, strings.Join(gor, " "), s.GoroutineGrowth, s.IdleGoroutineGrowth,
			strings.Join(heap, " "), s.HalvesHeapGoalPct, s.HalvesRSSPct)
	}
}

// cell formats one reading's value, or a dash where it is missing.
func cell(x *SoakSample, format string, value func(*SoakSample) any) string {
	if x == nil {
		return "     —"
	}
	return fmt.Sprintf(format, value(x))
}
