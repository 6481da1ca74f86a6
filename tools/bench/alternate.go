package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
)

// Alternated is a report timed in turns with its two floors, its raw
// ordered read and its own SQL: one of each per round, on one connection
// each, for the workload's measured duration. Timed one after the other
// (the floors before the workload), they are a minute apart, and on a
// shared machine a neighbour's load that comes or goes between them moves
// the ratios by a third; in turns, all three see the same machine.
type Alternated struct {
	Report load.Result `json:"relatorio"`
	Raw    load.Result `json:"leitura"`
	// SQL is the report's own SQL (nil in runs saved before it was
	// timed in turns).
	SQL *load.Result `json:"sql,omitempty"`
}

// Ratio is the report's p50 over the read's.
func (a *Alternated) Ratio() *float64 {
	if a == nil {
		return nil
	}
	return p50Ratio(a.Report, &a.Raw)
}

// RatioSQL is the report's p50 over its SQL's.
func (a *Alternated) RatioSQL() *float64 {
	if a == nil {
		return nil
	}
	return p50Ratio(a.Report, a.SQL)
}

// text is the three p50s as the printout names them.
func (a *Alternated) text() string {
	t := fmt.Sprintf("relatório p50 %.2f ms, leitura p50 %.2f ms", a.Report.P50Ms, a.Raw.P50Ms)
	if a.SQL != nil {
		t += fmt.Sprintf(", SQL p50 %.2f ms", a.SQL.P50Ms)
	}
	return t
}

func p50Ratio(num load.Result, den *load.Result) *float64 {
	if den == nil || den.P50Ms <= 0 {
		return nil
	}
	v := num.P50Ms / den.P50Ms
	return &v
}

// alternateReport times report (st's report, JSON or CSV, or its payroll
// export) at addr in turns with its raw read and its SQL, which reads
// from sqlFrom. The order rotates each round, so that each takes every
// place in it in turn, never always first or always last.
func (r *runner) alternateReport(ctx context.Context, addr string, st *reportState, report load.Op, sqlFrom time.Time) (*Alternated, error) {
	all := st.params(st.staff, r.data.Inicio)
	sqlParams := st.params(st.staff, sqlFrom)
	db := r.pools["timekeeping"]
	reports, reads, sqls := load.NewLatencies(), load.NewLatencies(), load.NewLatencies()
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
			turns := [3]func() error{
				timed(reports, func() error { return report(w) }),
				timed(reads, func() error {
					_, err := floor.ReadRaw(ctx, db, st.sql.Settings, all)
					return err
				}),
				timed(sqls, func() error {
					_, err := floor.RunReport(ctx, db, st.sql, sqlParams)
					return err
				}),
			}
			first := round % len(turns)
			round++
			for i := range turns {
				if err := turns[(first+i)%len(turns)](); err != nil {
					return err
				}
			}
			return nil
		}})
	if err != nil {
		return nil, err
	}
	if n := res.TotalErrors(); n > 0 {
		return nil, fmt.Errorf("%d erros: %v", n, res.ErrorSamples)
	}
	elapsed := time.Duration(res.Seconds * float64(time.Second))
	sql := sqls.Result(elapsed)
	return &Alternated{Report: reports.Result(elapsed), Raw: reads.Result(elapsed), SQL: &sql}, nil
}
