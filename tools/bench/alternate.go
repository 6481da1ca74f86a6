package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
)

// Alternated is a report timed in turns with its raw ordered read: one
// report, one read, one read, one report... on one connection each, for
// the workload's measured duration. Timed one after the other (the
// floors before the workload), the two are a minute apart, and on a
// shared machine a neighbour's load that comes or goes between them moves
// the ratio by a third; in turns, both see the same machine.
type Alternated struct {
	Report load.Result `json:"relatorio"`
	Raw    load.Result `json:"leitura"`
}

// Ratio is the report's p50 over the read's.
func (a *Alternated) Ratio() *float64 {
	if a == nil || a.Raw.P50Ms <= 0 {
		return nil
	}
	v := a.Report.P50Ms / a.Raw.P50Ms
	return &v
}

// alternateReport times st's report (JSON or CSV) at addr in turns with
// its raw read. The order flips each round, so that neither always runs
// on the caches the other just warmed.
func (r *runner) alternateReport(ctx context.Context, addr string, st *reportState, csv bool) (*Alternated, error) {
	report := reportOp(st, csv)
	all := st.params(st.staff, r.data.Inicio)
	db := r.pools["timekeeping"]
	reports, reads := load.NewLatencies(), load.NewLatencies()
	var round int
	res, err := load.Run(ctx, load.Config{Addr: addr, Conns: 1, Duration: r.opts.Duration,
		Op: func(w *load.Worker) error {
			timed := func(l *load.Latencies, run func() error) func() error {
				return func() error {
					t0 := time.Now()
					err := run()
					if w.Seq >= 0 { // not in a warm-up round
						l.Record(time.Since(t0))
					}
					return err
				}
			}
			read := timed(reads, func() error {
				_, err := floor.ReadRaw(ctx, db, st.sql.Settings, all)
				return err
			})
			request := timed(reports, func() error { return report(w) })
			first, second := request, read
			if round++; round%2 == 0 {
				first, second = read, request
			}
			if err := first(); err != nil {
				return err
			}
			return second()
		}})
	if err != nil {
		return nil, err
	}
	if n := res.TotalErrors(); n > 0 {
		return nil, fmt.Errorf("%d erros: %v", n, res.ErrorSamples)
	}
	elapsed := time.Duration(res.Seconds * float64(time.Second))
	return &Alternated{Report: reports.Result(elapsed), Raw: reads.Result(elapsed)}, nil
}
