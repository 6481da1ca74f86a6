package bench

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
)

// todayState is the Today page's request for the big company.
type todayState struct {
	token string
	staff int
}

// prepareToday mints the big company's token and times the page's floor:
// the raw read of today's punches of its employees and of their schedules
// (floor.TimeToday), saved as the report floor "today" whose time the
// workload's ratio is taken against.
func (r *runner) prepareToday(ctx context.Context, rep *Report, st *todayState) error {
	tok, err := r.minter.empresa(r.data.Big.ID)
	if err != nil {
		return err
	}
	staff, err := floor.LoadCompany(ctx, r.pools["employee"], r.data.Big.ID)
	if err != nil {
		return err
	}
	st.token, st.staff = tok, len(staff)
	day := r.data.Fim.AddDate(0, 0, 1) // the seed's history ends yesterday
	r.logf("piso: leitura do dia (painel Hoje), %d funcionários", len(staff))
	var res load.Result
	var rows int64
	cpu, err := r.floorCPU(ctx, &res.Ops, func() (err error) {
		res, rows, err = floor.TimeToday(ctx, r.pools["timekeeping"], r.pools["employee"], floor.LoadReportSQL().Settings,
			r.data.Big.ID, staff, day, r.opts.Duration)
		return err
	})
	if err != nil {
		return fmt.Errorf("leitura do dia: %w", err)
	}
	rep.Floors.Report = append(rep.Floors.Report, ReportFloor{Name: "today", Listed: len(staff), All: len(staff),
		Rows: rows, Result: res, CPU: cpu})
	return nil
}

// todayOp is GET /registropontos/hoje for the big company; the answer
// must list every employee.
func todayOp(st *todayState) load.Op {
	return func(w *load.Worker) error {
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodGet, "/registropontos/hoje", st.token)
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			return err
		}
		if n := strings.Count(string(resp.Body()), `"situacao":`); n != st.staff {
			return fmt.Errorf("painel com %d funcionários, esperava %s", n, strconv.Itoa(st.staff))
		}
		return nil
	}
}
