// Package load is the benchmark's load generator: a closed loop of N
// workers, each with its own keep-alive connection, timing every operation
// into an HDR histogram. Closed loop means a worker sends its next request
// only when the previous one answered, so the figures are what N clients
// that wait for their answers get, and the server is never asked for more
// than it can take (an open-loop generator measures queueing instead).
//
// It uses fasthttp's client: on a 2-core machine the generator shares the
// CPU with what it measures, and fasthttp spends several times less per
// request than net/http.
package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
)

// Histogram bounds: 1 µs to 2 min, 3 significant digits.
const (
	minLatency = int64(1)
	maxLatency = int64(2 * time.Minute / time.Microsecond)
	sigDigits  = 3
)

// maxSamples is how many distinct error messages a result keeps.
const maxSamples = 5

// Config is one measurement.
type Config struct {
	// Addr is host:port of the server.
	Addr string
	// Conns is the number of workers, each with one connection.
	Conns int
	// Warmup runs the loop without recording (connections open, caches
	// fill, the JIT-less Go runtime settles its GC pacing); errors still
	// count.
	Warmup time.Duration
	// Duration is the measured part.
	Duration time.Duration
	// Ops, when set, ends the measured part after that many operations
	// (or Duration, whichever comes first): a workload whose operations
	// each use an item once (an employee who has not punched yet) stops
	// when its items run out. Worker.Seq numbers them.
	Ops int64
	// Timeout bounds one HTTP exchange (default 60s).
	Timeout time.Duration
	// Op is one operation; it may send several requests through w.
	Op Op
	// Seed makes each worker's random choices reproducible.
	Seed uint64
	// OnMeasure, when set, runs as the measured part starts (after the
	// warm-up), e.g. to sample CPU counters.
	OnMeasure func()
}

// Op is one measured operation of worker w; an error counts as a failure.
type Op func(w *Worker) error

// Worker is one closed-loop client.
type Worker struct {
	// ID is 0..Conns-1; Conns is the number of workers. Ops use them to
	// split their data so that two workers never use the same account at
	// once.
	ID, Conns int
	// N counts this worker's operations, from 0.
	N int
	// Seq numbers the run's measured operations, from 0 across all
	// workers; it is -1 during the warm-up.
	Seq int64
	// Rand is the worker's own random source.
	Rand *rand.Rand

	op      Op
	client  *fasthttp.HostClient
	timeout time.Duration
	// marks are this worker's measured operations (Tail).
	marks []mark
	// Req and Resp are reused by Do's callers to avoid allocations.
	Req  *fasthttp.Request
	Resp *fasthttp.Response
}

// Own is the index of this worker's next item out of n: worker w takes
// items w, w+Conns, w+2·Conns... in turn, so that two workers never use
// the same item (an account, a mailbox) at the same time. With fewer items
// than workers, some share.
func (w *Worker) Own(n int) int {
	count := (n - w.ID + w.Conns - 1) / w.Conns
	if count <= 0 {
		return w.ID % n
	}
	return w.ID + (w.N%count)*w.Conns
}

// Do sends req (to the run's server: its Host is set here) and reads
// resp.
func (w *Worker) Do(req *fasthttp.Request, resp *fasthttp.Response) error {
	if len(req.Host()) == 0 {
		req.SetHost(w.client.Addr)
	}
	return w.client.DoTimeout(req, resp, w.timeout)
}

// Result is what one measurement found. Latencies are in milliseconds.
type Result struct {
	Ops          int64   `json:"ops"`
	Errors       int64   `json:"errors"`
	WarmupOps    int64   `json:"warmupOps"`
	WarmupErrors int64   `json:"warmupErrors"`
	Seconds      float64 `json:"seconds"`
	RPS          float64 `json:"rps"`
	MeanMs       float64 `json:"meanMs"`
	P50Ms        float64 `json:"p50Ms"`
	P90Ms        float64 `json:"p90Ms"`
	P99Ms        float64 `json:"p99Ms"`
	MaxMs        float64 `json:"maxMs"`
	// Tail is where in the run its slowest 1% started.
	Tail         *Tail    `json:"cauda,omitempty"`
	ErrorSamples []string `json:"errorSamples,omitempty"`
}

// TotalErrors counts failures of the warm-up and of the measured part.
func (r Result) TotalErrors() int64 { return r.Errors + r.WarmupErrors }

// phases of a run.
const (
	warming int32 = iota
	measuring
	stopped
)

// Run runs cfg and returns its figures; only ctx ending makes it fail.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Conns < 1 || cfg.Duration <= 0 || cfg.Op == nil {
		return Result{}, errors.New("load: Conns, Duration and Op are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	client := &fasthttp.HostClient{
		Addr:                          cfg.Addr,
		MaxConns:                      cfg.Conns,
		ReadTimeout:                   cfg.Timeout,
		WriteTimeout:                  cfg.Timeout,
		MaxIdleConnDuration:           time.Minute,
		NoDefaultUserAgentHeader:      true,
		DisableHeaderNamesNormalizing: false,
		ReadBufferSize:                16 << 10,
	}
	defer client.CloseIdleConnections()

	r := &run{errs: map[string]bool{}}
	var wg sync.WaitGroup
	hists := make([]*Latencies, cfg.Conns)
	workers := make([]*Worker, cfg.Conns)
	var measureStart time.Time
	var lastEnd atomic.Int64 // UnixNano of the last measured op's end
	for i := range cfg.Conns {
		hists[i] = NewLatencies()
		w := &Worker{ID: i, Conns: cfg.Conns, Rand: rand.New(rand.NewPCG(cfg.Seed, uint64(i))),
			op: cfg.Op, client: client, timeout: cfg.Timeout, Req: fasthttp.AcquireRequest(), Resp: fasthttp.AcquireResponse()}
		workers[i] = w
		wg.Go(func() {
			defer fasthttp.ReleaseRequest(w.Req)
			defer fasthttp.ReleaseResponse(w.Resp)
			r.loop(ctx, w, hists[i], &lastEnd)
		})
	}

	if !sleep(ctx, cfg.Warmup) {
		r.phase.Store(stopped)
		wg.Wait()
		return Result{}, ctx.Err()
	}
	if cfg.OnMeasure != nil {
		cfg.OnMeasure()
	}
	measureStart = time.Now()
	r.limit = cfg.Ops
	r.phase.Store(measuring)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	ok := sleepUntil(ctx, cfg.Duration, done)
	r.phase.Store(stopped)
	<-done
	if !ok {
		return Result{}, ctx.Err()
	}

	all := NewLatencies()
	for _, h := range hists {
		all.h.Merge(h.h)
	}
	elapsed := time.Duration(lastEnd.Load() - measureStart.UnixNano())
	if elapsed <= 0 {
		elapsed = cfg.Duration
	}
	res := all.Result(elapsed)
	res.Ops, res.Errors, res.WarmupOps, res.WarmupErrors = r.ops.Load(), r.failed.Load(), r.warmOps.Load(), r.warmFailed.Load()
	res.RPS = float64(res.Ops) / elapsed.Seconds()
	res.ErrorSamples = r.samples()
	var marks []mark
	for _, w := range workers {
		marks = append(marks, w.marks...)
	}
	res.Tail = tailOf(marks, measureStart, measureStart.Add(elapsed))
	return res, nil
}

type run struct {
	phase atomic.Int32
	// limit is Config.Ops; seq counts the measured operations started.
	limit               int64
	seq                 atomic.Int64
	ops, failed         atomic.Int64
	warmOps, warmFailed atomic.Int64

	mu   sync.Mutex
	errs map[string]bool
}

// loop runs w's operations until the run stops. An operation is measured
// when it starts in the measured phase; one that is still running when
// the phase ends is waited for and counted (closed loop: it is a real
// client's request).
func (r *run) loop(ctx context.Context, w *Worker, h *Latencies, lastEnd *atomic.Int64) {
	for ctx.Err() == nil {
		phase := r.phase.Load()
		if phase == stopped {
			return
		}
		w.Seq = -1
		if phase == measuring {
			w.Seq = r.seq.Add(1) - 1
			if r.limit > 0 && w.Seq >= r.limit {
				return
			}
		}
		start := time.Now()
		err := w.call()
		end := time.Now()
		w.N++
		if phase == warming {
			r.warmOps.Add(1)
			if err != nil {
				r.warmFailed.Add(1)
				r.sample(err)
			}
			continue
		}
		r.ops.Add(1)
		if err != nil {
			r.failed.Add(1)
			r.sample(err)
		}
		h.Record(end.Sub(start))
		w.marks = append(w.marks, mark{start: start, took: end.Sub(start)})
		for {
			prev := lastEnd.Load()
			if end.UnixNano() <= prev || lastEnd.CompareAndSwap(prev, end.UnixNano()) {
				break
			}
		}
	}
}

func (r *run) sample(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.errs) < maxSamples {
		r.errs[err.Error()] = true
	}
}

func (r *run) samples() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.errs))
	for e := range r.errs {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// call runs one operation; a panic in it is one failure, not the end of
// the benchmark.
func (w *Worker) call() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("load: op panicked: %v", p)
		}
	}()
	return w.op(w)
}

// sleepUntil waits d or until done closes; false if ctx ended first.
func sleepUntil(ctx context.Context, d time.Duration, done <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	case <-done:
		return ctx.Err() == nil
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func ms(us int64) float64 { return float64(us) / 1000 }

// Latencies is a histogram of operation times with the generator's
// bounds, for what a caller times itself (a floor's query, one half of
// an alternation).
type Latencies struct{ h *hdrhistogram.Histogram }

// NewLatencies is an empty histogram.
func NewLatencies() *Latencies {
	return &Latencies{h: hdrhistogram.New(minLatency, maxLatency, sigDigits)}
}

// Record adds one operation's time.
func (l *Latencies) Record(d time.Duration) {
	_ = l.h.RecordValue(max(d.Microseconds(), minLatency))
}

// Result is the figures of the recorded operations over elapsed.
func (l *Latencies) Result(elapsed time.Duration) Result {
	n := l.h.TotalCount()
	res := Result{
		Ops: n, Seconds: elapsed.Seconds(),
		MeanMs: l.h.Mean() / 1000,
		P50Ms:  ms(l.h.ValueAtQuantile(50)),
		P90Ms:  ms(l.h.ValueAtQuantile(90)),
		P99Ms:  ms(l.h.ValueAtQuantile(99)),
		MaxMs:  ms(l.h.Max()),
	}
	if elapsed > 0 {
		res.RPS = float64(n) / elapsed.Seconds()
	}
	return res
}
