package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
)

// exportHeader is the payroll export's CSV header (folha.CSVHeader).
const exportHeader = "cpf,nome,evento,codigo,minutos,horas,dias"

// prepareExport builds the payroll export's request for the big company's
// month (every active employee: the export has no department filter) and
// times its two floors as prepareReport does: the engine's SQL
// (reportsql, with the DSR's look-back) and the ordered read of the
// month's punches.
func (r *runner) prepareExport(ctx context.Context, rep *Report, st *reportState) error {
	tok, err := r.minter.empresa(r.data.Big.ID)
	if err != nil {
		return err
	}
	st.token, st.sql = tok, floor.LoadReportSQL()
	if st.staff, err = floor.LoadCompany(ctx, r.pools["employee"], r.data.Big.ID); err != nil {
		return err
	}
	fim := r.data.Fim
	st.params = func(staff []floor.Staff, inicio time.Time) floor.ReportParams {
		return floor.Params(r.data.Big.ID, inicio, fim, staff)
	}
	st.path = "/registropontos/folha?inicio=" + r.data.Inicio.Format(time.DateOnly) + "&fim=" +
		fim.Format(time.DateOnly) + "&formato=csv"
	db := r.pools["timekeeping"]
	r.logf("piso: SQL da exportação para a folha, %d funcionários", len(st.staff))
	f := ReportFloor{Name: "export-csv", Listed: len(st.staff), All: len(st.staff), Settings: st.sql.Settings}
	if f.CPU, err = r.floorCPU(ctx, &f.Ops, func() (err error) {
		f.Result, f.Rows, err = floor.TimeReport(ctx, db, st.sql, st.params(st.staff, reportFrom(r.data.Inicio, false)), r.opts.Duration)
		return err
	}); err != nil {
		return fmt.Errorf("SQL da exportação: %w", err)
	}
	r.logf("piso: leitura ordenada das marcações (export-csv), %d funcionários", len(st.staff))
	raw := &RawFloor{}
	if raw.CPU, err = r.floorCPU(ctx, &raw.Ops, func() (err error) {
		raw.Result, raw.Rows, err = floor.TimeRaw(ctx, db, st.sql.Settings, st.params(st.staff, r.data.Inicio), r.opts.Duration)
		return err
	}); err != nil {
		return fmt.Errorf("leitura ordenada das marcações: %w", err)
	}
	f.Raw = raw
	rep.Floors.Report = append(rep.Floors.Report, f)
	return nil
}

// exportOp is GET /registropontos/folha?formato=csv for the history's
// period; the answer must be a well-formed export of at most the
// company's employees.
func exportOp(st *reportState) load.Op {
	return func(w *load.Worker) error {
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodGet, st.path, st.token)
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			return err
		}
		_, err := checkExport(resp.Body(), len(st.staff))
		return err
	}
}

// checkExport reads an export's CSV: its "# " preamble lines, the header,
// then lines of seven fields with integer minutes; it returns how many
// employees (CPFs) it lists, at most staff.
func checkExport(body []byte, staff int) (int, error) {
	for bytes.HasPrefix(body, []byte("# ")) {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			return 0, fmt.Errorf("exportação só com preâmbulo")
		}
		body = body[i+1:]
	}
	header, rest, _ := bytes.Cut(body, []byte("\n"))
	if string(bytes.TrimSuffix(header, []byte("\r"))) != exportHeader {
		return 0, fmt.Errorf("cabeçalho da exportação %q, esperava %q", header, exportHeader)
	}
	rd := csv.NewReader(bytes.NewReader(rest))
	rd.FieldsPerRecord = 7
	cpfs := map[string]bool{}
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("exportação: %w", err)
		}
		if _, err := strconv.Atoi(rec[4]); err != nil {
			return 0, fmt.Errorf("exportação: minutos %q", rec[4])
		}
		cpfs[rec[0]] = true
	}
	if len(cpfs) > staff {
		return 0, fmt.Errorf("exportação com %d funcionários, a empresa tem %d", len(cpfs), staff)
	}
	return len(cpfs), nil
}
