package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
	"github.com/ponto/ponto/tools/bench/seed"
)

// Columns: each workload runs against its service's own port, then
// through the gateway (the local stand-in for the cluster's ingress).
const (
	ColumnService = "servico"
	ColumnGateway = "gateway"
)

// workload is one line of the table.
type workload struct {
	name  string // stable id, used by -only and in the JSON
	title string // what the table shows
	// service is the one whose port the first column hits (and whose
	// CPU profile -pprof saves).
	service string
	// also are services profiled besides it, because the route calls them.
	also  []string
	conns int
	// floor names the floor the ratio is taken against: "pgbench"
	// (throughput ratio) or a report floor (time ratio); "" for none.
	floor string
	// ops, when set, ends the measured part after that many operations
	// (load.Config.Ops).
	ops int
	// serviceOnly skips the gateway column.
	serviceOnly bool
	// prepare runs once before the columns (e.g. the report's raw SQL).
	prepare func(ctx context.Context) error
	// op makes the operation for one column.
	op func(column string) load.Op
	// alternate, for a report, times it in turns with its raw read
	// after the service column (Alternated).
	alternate func(ctx context.Context, addr string) (*Alternated, error)
}

// clockInConns is every clock-in workload's connections, and the clients
// of the pgbench floor that its latency is read against.
const clockInConns = 64

// workloads are the five, in order; rep receives the floors that
// workloads measure themselves (the report's SQL).
func (r *runner) workloads(rep *Report) []workload {
	spread := r.clockInPool(r.data.Spread)
	single := r.clockInPool([]seed.Company{r.data.Big})
	shift := min(coldEmployees, len(spread))
	known, cold := &shiftState{}, &shiftState{}
	logins := newLoginState()
	report := &reportState{}
	receipt := &receiptState{}
	today := &todayState{}
	export := &reportState{}
	return []workload{
		// The shift changes come first: their employees (the spread
		// workload's) have not punched yet in their workday (shiftPool).
		{name: "clockin-cold", title: fmt.Sprintf("troca de turno, %d func., 1º registro da jornada", shift),
			service: "timekeeping", also: []string{"employee"}, conns: clockInConns, floor: "pgbench", ops: shift,
			serviceOnly: true,
			prepare: func(ctx context.Context) error {
				cold.pool = r.shiftPool()
				if err := r.pgbenchFloor(ctx, rep, "clockin-cold"); err != nil {
					return err
				}
				return r.forgetShift(ctx)
			},
			op: func(string) load.Op { return clockInOnce(cold, single) }},
		{name: "clockin-known", title: fmt.Sprintf("troca de turno, %d func. já conhecidos, 2º registro da jornada", shift),
			service: "timekeeping", also: []string{"employee"}, conns: clockInConns, floor: "pgbench", ops: shift,
			serviceOnly: true,
			prepare: func(ctx context.Context) error {
				punched, err := r.knowShift(ctx)
				if err != nil {
					return err
				}
				known.pool = r.shiftPool()
				if err := r.pgbenchFloor(ctx, rep, "clockin-known"); err != nil {
					return err
				}
				return r.outliveCacheTTL(ctx, punched)
			},
			op: func(string) load.Op { return clockInOnce(known, single) }},
		{name: "clockin-spread", title: fmt.Sprintf("registro de ponto, %d empresas", len(r.data.Spread)),
			service: "timekeeping", also: []string{"employee"}, conns: clockInConns, floor: "pgbench",
			prepare: func(ctx context.Context) error {
				if err := r.knowSpread(ctx); err != nil {
					return err
				}
				return r.pgbenchFloor(ctx, rep, "clockin-spread")
			},
			op: func(string) load.Op { return clockIn(spread) }},
		{name: "clockin-single", title: fmt.Sprintf("registro de ponto, 1 empresa de %d", r.data.Size.BigCompany),
			service: "timekeeping", also: []string{"employee"}, conns: clockInConns, floor: "pgbench",
			prepare: func(ctx context.Context) error { return r.pgbenchFloor(ctx, rep, "clockin-single") },
			op:      func(string) load.Op { return clockIn(single) }},
		{name: "login", title: "login de funcionário (código por e-mail)", service: "auth",
			also: []string{"employee", "company-billing"}, conns: 16,
			op: func(string) load.Op { return r.login(logins) }},
		{name: "refresh", title: "refresh-token", service: "auth", also: []string{"employee", "company-billing"},
			conns: 64, op: func(string) load.Op { return refresh(logins) }},
		{name: "report-json", title: fmt.Sprintf("relatório JSON, pág. 1 (%d func.)", r.data.Size.BigDepartment),
			service: "timekeeping", also: []string{"employee"}, conns: 1, floor: "report-json",
			prepare: func(ctx context.Context) error { return r.prepareReport(ctx, rep, report, false) },
			op:      func(string) load.Op { return reportOp(report, false) },
			alternate: func(ctx context.Context, addr string) (*Alternated, error) {
				return r.alternateReport(ctx, addr, report, reportOp(report, false), reportFrom(r.data.Inicio, false))
			}},
		{name: "report-csv", title: fmt.Sprintf("relatório CSV, %d func.", r.data.Size.BigDepartment),
			service: "timekeeping", also: []string{"employee"}, conns: 1, floor: "report-csv",
			prepare: func(ctx context.Context) error { return r.prepareReport(ctx, rep, report, true) },
			op:      func(string) load.Op { return reportOp(report, true) },
			alternate: func(ctx context.Context, addr string) (*Alternated, error) {
				return r.alternateReport(ctx, addr, report, reportOp(report, true), reportFrom(r.data.Inicio, true))
			}},
		{name: "export-csv", title: fmt.Sprintf("exportação para a folha, CSV, %d func.", r.data.Size.BigCompany),
			service: "timekeeping", also: []string{"employee"}, conns: 1, floor: "export-csv",
			prepare: func(ctx context.Context) error { return r.prepareExport(ctx, rep, export) },
			op:      func(string) load.Op { return exportOp(export) },
			alternate: func(ctx context.Context, addr string) (*Alternated, error) {
				// The engine reads from the DSR's look-back, as the JSON report.
				return r.alternateReport(ctx, addr, export, exportOp(export), reportFrom(r.data.Inicio, false))
			}},
		{name: "today", title: fmt.Sprintf("painel Hoje, empresa de %d func.", r.data.Size.BigCompany),
			service: "timekeeping", also: []string{"employee", "company-billing"}, conns: 1, floor: "today",
			prepare: func(ctx context.Context) error { return r.prepareToday(ctx, rep, today) },
			op:      func(string) load.Op { return todayOp(today) }},
		{name: "photo", title: "foto de perfil, JPEG de 1 MiB", service: "media", also: []string{"employee"},
			conns: 4, op: func(string) load.Op { return r.photo() }},
		{name: "receipt-signed", title: "comprovante PDF assinado (PAdES)", service: "timekeeping",
			also: []string{"company-billing"}, conns: 4,
			prepare: func(ctx context.Context) error { return r.prepareReceipt(ctx, receipt) },
			op:      func(string) load.Op { return receiptOp(receipt, true) }},
		{name: "receipt-unsigned", title: "comprovante PDF sem assinatura", service: "timekeeping",
			also: []string{"company-billing"}, conns: 4,
			prepare: func(ctx context.Context) error { return r.prepareReceipt(ctx, receipt) },
			op:      func(string) load.Op { return receiptOp(receipt, false) }},
	}
}

// receiptState is the punch whose receipt the receipt workloads ask for.
type receiptState struct {
	auth []byte
	path string
}

// prepareReceipt clocks one employee in once (through the gateway) and
// keeps his punch's receipt path.
func (r *runner) prepareReceipt(ctx context.Context, st *receiptState) error {
	if st.path != "" {
		return nil
	}
	p := r.clockInPool(r.data.Spread[:1])[0]
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.stack.GatewayURL()+"/registropontos",
		strings.NewReader(string(p.body)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", string(p.auth))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		ID int64 `json:"id"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &out) != nil || out.ID == 0 {
		return fmt.Errorf("registro para o comprovante: %d %.200s", resp.StatusCode, raw)
	}
	st.auth, st.path = p.auth, "/registropontos/"+strconv.FormatInt(out.ID, 10)+"/comprovante"
	return nil
}

// receiptOp is GET /registropontos/{id}/comprovante by the punch's
// employee: signed (the default, PAdES by the stack's development
// certificate) or with assinar=false, to measure what signing costs.
func receiptOp(st *receiptState, signed bool) load.Op {
	path := st.path
	if !signed {
		path += "?assinar=false"
	}
	return func(w *load.Worker) error {
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodGet, path, "")
		req.Header.SetBytesV("Authorization", st.auth)
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			return err
		}
		if got := bytes.Contains(resp.Body(), []byte("/ETSI.CAdES.detached")); got != signed {
			return fmt.Errorf("comprovante: assinatura PAdES %v, esperava %v", got, signed)
		}
		return nil
	}
}

// runWorkload measures w in both columns.
func (r *runner) runWorkload(ctx context.Context, rep *Report, w workload) error {
	if w.prepare != nil {
		if err := w.prepare(ctx); err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
	}
	o := r.stack.Options()
	gw, err := url.Parse(r.stack.GatewayURL())
	if err != nil {
		return err
	}
	columns := []struct{ name, addr string }{
		{ColumnService, fmt.Sprintf("127.0.0.1:%d", o.Ports[w.service].Public)},
		{ColumnGateway, gw.Host},
	}
	if w.serviceOnly {
		columns = columns[:1]
	}
	for _, col := range columns {
		r.logf("%-16s %-8s %d conexões, %s + %s de aquecimento", w.name, col.name, w.conns, r.opts.Duration, r.opts.Warmup)
		// The profiles start with the measured part, not with the
		// warm-up, whose operations may be of another kind (a shift
		// change warms up on known employees).
		var profiles sync.WaitGroup
		measured := func() {
			if r.opts.Pprof && col.name == ColumnService {
				for _, svc := range append([]string{w.service}, w.also...) {
					profiles.Go(func() { r.profile(ctx, w.name, svc) })
				}
			}
		}
		clockIn := col.name == ColumnService && strings.HasPrefix(w.name, "clockin")
		load1 := loadAvg()
		res, m, err := r.load(ctx, col.addr, w.conns, int64(w.ops), w.op(col.name), clockIn, measured)
		profiles.Wait()
		if err != nil {
			return err
		}
		rep.add(w, col.name, res, m.cpu, load1)
		line := &rep.Rows[len(rep.Rows)-1]
		line.MeasuredFrom, line.Batching = m.from, m.batches
		r.logf("%-16s %-8s %8.1f req/s  p50 %7.2f ms  p99 %7.2f ms%s  erros %d", w.name, col.name, res.RPS, res.P50Ms,
			res.P99Ms, tailText(res.Tail), res.TotalErrors())
		if b := m.batches; b != nil {
			perLookup := "-"
			if b.PerLookup != nil {
				perLookup = fmt.Sprintf("%.1f", *b.PerLookup)
			}
			r.logf("%-16s %-8s %d lotes de %.1f registros, %.1f ms cada em média, %d acima de %.0f ms; "+
				"%d buscas de funcionários, %s registros por busca; "+
				"postgres por serviço (ms de CPU por registro): timekeeping %.3f, employee %.3f", w.name, col.name,
				b.Batches, b.PerBatch, b.MeanMs, b.Over10Ms, 1000*slowBatch, b.Lookups, perLookup,
				b.Postgres["timekeeping"], b.Postgres["employee"])
		}
		for _, e := range line.ErrorSamples {
			r.logf("    erro: %s", e)
		}
		if w.alternate != nil && col.name == ColumnService {
			r.logf("%-16s %-8s em turnos com a leitura ordenada das marcações e o SQL do relatório, %s", w.name, col.name, r.opts.Duration)
			alt, err := w.alternate(ctx, col.addr)
			if err != nil {
				return fmt.Errorf("%s em turnos com a leitura ordenada e o SQL: %w", w.name, err)
			}
			line.setAlternated(alt)
			r.logf("%-16s %-8s %s: %s a leitura, %s o SQL", w.name, col.name, alt.text(),
				times(line.RatioRawAlternated), times(line.RatioSQLAlternated))
		}
	}
	return nil
}

func (r *runner) profilePath(workload, service string) string {
	return filepath.Join(r.runDir, "pprof", workload+"-"+service+".pb.gz")
}

// allocsPath is where a workload's allocation profile of service goes.
func (r *runner) allocsPath(workload, service string) string {
	return filepath.Join(r.runDir, "pprof", workload+"-"+service+"-allocs.pb.gz")
}

// profile saves a CPU profile and an allocation profile of service over
// the measured part, which starts as it is called (the allocation one as
// the difference over the same seconds: what the workload allocated, the
// collector's work). A workload that ends after a number of operations
// ends sooner: the rest of the profiles is the stack at rest.
func (r *runner) profile(ctx context.Context, workload, service string) {
	secs := max(1, int(r.opts.Duration/time.Second)-1)
	var both sync.WaitGroup
	both.Go(func() { r.savePprof(ctx, service, "profile", secs, r.profilePath(workload, service)) })
	both.Go(func() { r.savePprof(ctx, service, "allocs", secs, r.allocsPath(workload, service)) })
	both.Wait()
}

// savePprof saves service's /debug/pprof/<kind> over the next secs
// seconds at path.
func (r *runner) savePprof(ctx context.Context, service, kind string, secs int, path string) {
	port := r.stack.Options().Ports[service].Internal
	u := fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/%s?seconds=%d", port, kind, secs)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.logf("pprof (%s) de %s: %v", kind, service, err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		r.logf("pprof (%s) de %s: %s", kind, service, resp.Status)
		return
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o750)
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = io.Copy(f, resp.Body)
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// puncher is an employee ready to clock in: his token and body.
type puncher struct {
	auth []byte
	body []byte
}

// clockInPool mints a token for every employee of companies.
func (r *runner) clockInPool(companies []seed.Company) []puncher {
	var out []puncher
	for _, c := range companies {
		for i, e := range c.Employees {
			tok, err := r.minter.funcionario(e.EmpresaID, e.ID)
			if err != nil {
				panic(err) // a key that signed once signs again
			}
			lat := -23.5 - float64(i%1000)/10000
			body := fmt.Sprintf(`{"endereco":"%.5f, -46.63331","funcionarioId":%d}`, lat, e.ID)
			out = append(out, puncher{auth: []byte("Bearer " + tok), body: []byte(body)})
		}
	}
	return out
}

// coldEmployees is the shift change's size: that many distinct employees
// punch once each.
const coldEmployees = 10000

// shiftState is a shift change's punchers, minted by its prepare: tokens
// of their own, which timekeeping has never verified, as a morning's
// logins would bring.
type shiftState struct{ pool []puncher }

// shiftPool is the shift change's employees, the spread workload's first
// coldEmployees (a few companies, in order), each with a new token.
//
// The shift changes run before the spread workload, so that a shift
// change's punch is an arriving employee's: the first of his workday (the
// cold one) or the second (the known one). After the spread workload each
// of them would have a dozen punches that day already, which every punch
// reads again and answers (up to maxEarlier): no shift change looks like
// that, and it cost the shift changes about a third of their CPU
// (docs/performance.md, "The shift change as a shift begins").
func (r *runner) shiftPool() []puncher {
	pool := r.clockInPool(r.data.Spread)
	return pool[:min(coldEmployees, len(pool))]
}

// employeeCacheTTL is timekeeping's EMPLOYEE_CACHE_TTL as the stack runs
// it (the service's default): how long a record is kept when the employee
// service's changes are not followed.
const employeeCacheTTL = 30 * time.Second

// knowShift makes sure the known shift change's employees have punched
// once in their workday, in the cold shift change just before it or here,
// unmeasured, when that did not run, and tells when they had.
func (r *runner) knowShift(ctx context.Context) (time.Time, error) {
	if !r.selected("clockin-cold") {
		if err := r.punchShift(ctx); err != nil {
			return time.Time{}, err
		}
	}
	return time.Now(), nil
}

// outliveCacheTTL waits until records fetched at punched are older than
// timekeeping's EMPLOYEE_CACHE_TTL, so that only the followed changes keep
// them (pkg/changefeed: a day), as for an employee whose last punch was
// hours ago. The short run does not wait.
func (r *runner) outliveCacheTTL(ctx context.Context, punched time.Time) error {
	wait := time.Until(punched.Add(employeeCacheTTL + 5*time.Second))
	if wait <= 0 || r.opts.Short {
		return nil
	}
	r.logf("troca de turno: aguardando %s (registros além de EMPLOYEE_CACHE_TTL)", wait.Round(time.Second))
	if !sleepCtx(ctx, wait) {
		return ctx.Err()
	}
	return nil
}

// knowSpread makes sure the spread workload's employees are in
// timekeeping's employee cache when it is measured, as they are after the
// shift changes that come before it in a whole run (their employees are
// the spread's). Run without them (-only clockin-spread), the spread's
// 3 s warm-up reaches about 70% of its 10,000 employees on two cores, and
// the first punches of the others, each an employee lookup, fell in the
// measured part and in its slowest 1%.
func (r *runner) knowSpread(ctx context.Context) error {
	if r.selected("clockin-cold") || r.selected("clockin-known") {
		return nil
	}
	return r.punchShift(ctx)
}

// punchShift clocks the shift's employees in once each, unmeasured, as the
// cold shift change does.
func (r *runner) punchShift(ctx context.Context) error {
	shift := &shiftState{pool: r.shiftPool()}
	r.logf("troca de turno: primeiro registro dos %d funcionários, sem medir", len(shift.pool))
	addr := fmt.Sprintf("127.0.0.1:%d", r.stack.Options().Ports["timekeeping"].Public)
	res, err := load.Run(ctx, load.Config{Addr: addr, Conns: 64, Duration: time.Hour, Ops: int64(len(shift.pool)),
		Op: func(w *load.Worker) error {
			if w.Seq < 0 { // the instant before the run counts: no warm-up
				return nil
			}
			return punch(w, shift.pool[w.Seq])
		}})
	if err == nil && (res.TotalErrors() > 0 || res.Ops < int64(len(shift.pool))) {
		err = fmt.Errorf("troca de turno: %d de %d registros, %d erros", res.Ops, len(shift.pool), res.TotalErrors())
	}
	return err
}

// forgetShift makes every employee of the shift change unknown to
// timekeeping: it records their companies as changed in the employee
// database (as a schedule edited there would: pkg/changefeed), waits for
// the employee service's relay to publish them, then for timekeeping to
// read them (every EMPLOYEE_CHANGES_INTERVAL, 1 s). The cold shift change
// runs first, so nothing has fetched its employees yet; this keeps every
// lookup a miss whatever ran before (-only), since records live a day in
// the cache while the changes are followed.
func (r *runner) forgetShift(ctx context.Context) error {
	db := r.pools["employee"]
	companies := make([]int64, 0, len(r.data.Spread))
	for _, c := range r.data.Spread {
		companies = append(companies, c.ID)
	}
	if _, err := db.Exec(ctx, `INSERT INTO funcionarios_alterados (empresa_id) SELECT unnest($1::bigint[])`, companies); err != nil {
		return fmt.Errorf("troca de turno: marcar as empresas alteradas: %w", err)
	}
	for {
		var pending int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM funcionarios_alterados`).Scan(&pending); err != nil {
			return err
		}
		if pending == 0 {
			break
		}
		if !sleepCtx(ctx, 100*time.Millisecond) {
			return ctx.Err()
		}
	}
	if !sleepCtx(ctx, 3*time.Second) {
		return ctx.Err()
	}
	return nil
}

// clockInOnce is a shift change: the measured operations are
// POST /registropontos by each employee of the shift once, in turn, each
// with a token timekeeping has not seen. Whether his record is in
// timekeeping's employee cache is the workload's: the known shift change
// finds the records the cold one left (knowShift), the cold one none
// (forgetShift). The warm-up punches random employees of warm (another
// company) to open the connections without touching the shift's
// records or tokens. It runs on the service's port only: a gateway column
// would need as many employees again.
func clockInOnce(shift *shiftState, warm []puncher) load.Op {
	random := clockIn(warm)
	return func(w *load.Worker) error {
		if w.Seq < 0 {
			return random(w)
		}
		return punch(w, shift.pool[w.Seq])
	}
}

// clockIn is POST /registropontos by a random employee of pool.
func clockIn(pool []puncher) load.Op {
	return func(w *load.Worker) error { return punch(w, pool[w.Rand.IntN(len(pool))]) }
}

// punch is POST /registropontos by p.
func punch(w *load.Worker, p puncher) error {
	req, resp := w.Req, w.Resp
	load.Request(req, fasthttp.MethodPost, "/registropontos", "")
	req.Header.SetBytesV("Authorization", p.auth)
	load.JSON(req, p.body)
	if err := w.Do(req, resp); err != nil {
		return err
	}
	return load.Expect(resp, http.StatusOK)
}

// loginState shares the refresh tokens the login workload obtained with
// the refresh workload: each employee's latest, as his app would keep it.
// Auth rotates refresh tokens and ends the session when a rotated one
// comes back, so a token is used by one worker at a time and replaced by
// its successor: free holds the indexes of the tokens no worker holds.
// A token auth refused (AUTH_MAX_SESSIONS evicted its session: a small
// seed logs each employee in more often than that) is set aside until the
// employee's next login.
type loginState struct {
	mu      sync.Mutex
	refresh []string
	of      map[string]int // index in refresh by employee e-mail
	dead    map[int]bool   // refused tokens, not in free
	free    chan int
}

const keepRefreshTokens = 2000

func newLoginState() *loginState {
	return &loginState{of: map[string]int{}, dead: map[int]bool{}, free: make(chan int, keepRefreshTokens)}
}

// store keeps email's latest login token.
func (s *loginState) store(email, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.of[email]; ok {
		s.refresh[i] = token
		if s.dead[i] {
			delete(s.dead, i)
			s.free <- i
		}
		return
	}
	if len(s.refresh) < keepRefreshTokens {
		s.of[email] = len(s.refresh)
		s.refresh = append(s.refresh, token)
		s.free <- len(s.refresh) - 1
	}
}

// take hands out a token no other worker holds; the caller gives it back
// with put.
func (s *loginState) take(ctx context.Context) (int, string, error) {
	select {
	case i := <-s.free:
		s.mu.Lock()
		defer s.mu.Unlock()
		return i, s.refresh[i], nil
	case <-time.After(10 * time.Second):
		return 0, "", fmt.Errorf("nenhum refresh token livre: o login não rodou")
	case <-ctx.Done():
		return 0, "", ctx.Err()
	}
}

// put gives token i back: its successor when next is set, else (refused)
// it waits for the employee's next login.
func (s *loginState) put(i int, next string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if next == "" {
		s.dead[i] = true
		return
	}
	s.refresh[i] = next
	s.free <- i
}

// login is the employee's code flow: ask for a code, wait for the e-mail,
// log in with it. Worker w uses the employees whose index is w modulo the
// number of workers, so that no two workers ever wait for the same
// mailbox.
func (r *runner) login(state *loginState) load.Op {
	var pool []seed.Employee
	for _, c := range r.data.Spread {
		pool = append(pool, c.Employees...)
	}
	return func(w *load.Worker) error {
		e := pool[w.Own(len(pool))]
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodPost, "/auth/login/funcionario/codigo", "")
		load.JSON(req, []byte(`{"email":"`+e.Email+`"}`))
		r.mail.Drain(e.Email) // a code a failed attempt left behind
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusAccepted); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		code, err := r.mail.Code(ctx, e.Email)
		cancel()
		if err != nil {
			return err
		}
		load.Request(req, fasthttp.MethodPost, "/auth/login/funcionario", "")
		load.JSON(req, []byte(`{"email":"`+e.Email+`","codeVerify":"`+code+`"}`))
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			return err
		}
		var out struct {
			Token        string `json:"token"`
			RefreshToken string `json:"refreshToken"`
		}
		if err := json.Unmarshal(resp.Body(), &out); err != nil || out.Token == "" || out.RefreshToken == "" {
			return fmt.Errorf("login sem token: %.200s", resp.Body())
		}
		state.store(e.Email, out.RefreshToken)
		return nil
	}
}

// refresh is POST /auth/refresh-token with the login workload's tokens,
// each replaced by the successor the answer carries.
func refresh(state *loginState) load.Op {
	return func(w *load.Worker) error {
		i, tok, err := state.take(context.Background())
		if err != nil {
			return err
		}
		next := ""
		defer func() { state.put(i, next) }()
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodPost, "/auth/refresh-token", "")
		load.JSON(req, []byte(`{"refreshToken":"`+tok+`"}`))
		if err := w.Do(req, resp); err != nil {
			next = tok // not answered: the token was not spent
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			if resp.StatusCode() != http.StatusUnauthorized {
				next = tok
			}
			return err
		}
		var out struct {
			AccessToken  string `json:"accessToken"`
			RefreshToken string `json:"refreshToken"`
		}
		if err := json.Unmarshal(resp.Body(), &out); err != nil || out.AccessToken == "" || out.RefreshToken == "" {
			return fmt.Errorf("refresh sem accessToken ou refreshToken: %.200s", resp.Body())
		}
		next = out.RefreshToken
		return nil
	}
}

// reportState is the report's request, shared by its two workloads.
type reportState struct {
	token  string
	path   string
	sql    floor.ReportSQL
	staff  []floor.Staff
	params func(staff []floor.Staff, inicio time.Time) floor.ReportParams
}

// prepareReport mints the big company's token, builds the
// request and times its two floors for the same employees and period:
// the report's own SQL, and under it the ordered read of the punches the
// report covers.
func (r *runner) prepareReport(ctx context.Context, rep *Report, st *reportState, csv bool) error {
	if st.token == "" {
		tok, err := r.minter.empresa(r.data.Big.ID)
		if err != nil {
			return err
		}
		st.token = tok
		st.sql = floor.LoadReportSQL()
		if st.staff, err = floor.LoadDepartment(ctx, r.pools["employee"], r.data.Big.ID, seed.Department); err != nil {
			return err
		}
		if len(st.staff) != r.data.Size.BigDepartment {
			return fmt.Errorf("departamento com %d funcionários, esperava %d", len(st.staff), r.data.Size.BigDepartment)
		}
		fim := r.data.Fim
		st.params = func(staff []floor.Staff, inicio time.Time) floor.ReportParams {
			return floor.Params(r.data.Big.ID, inicio, fim, staff)
		}
		st.path = "/registropontos/departamento/" + url.PathEscape(seed.Department) +
			"?inicio=" + r.data.Inicio.Format(time.DateOnly) + "&fim=" + fim.Format(time.DateOnly)
	}
	// JSON lists the first page (20 employees, as pkg/page defaults);
	// CSV without pagina/tamanho lists the whole department. Either way
	// the service reads every employee of the department (the totals
	// cover them all), from reportFrom.
	listed, from := len(st.staff), reportFrom(r.data.Inicio, csv)
	name := "report-csv"
	if !csv {
		listed, name = min(20, len(st.staff)), "report-json"
	}
	r.logf("piso: SQL do relatório (%s), %d funcionários listados, totais de %d", name, listed, len(st.staff))
	var res load.Result
	var rows int64
	cpu, err := r.floorCPU(ctx, &res.Ops, func() (err error) {
		res, rows, err = floor.TimeReport(ctx, r.pools["timekeeping"], st.sql, st.params(st.staff, from), r.opts.Duration)
		return err
	})
	if err != nil {
		return fmt.Errorf("SQL do relatório: %w", err)
	}
	f := ReportFloor{Name: name, Listed: listed, All: len(st.staff), Rows: rows, Settings: st.sql.Settings,
		Result: res, CPU: cpu}
	// The raw read covers the punches of the report's period for every
	// employee of the department: the totals need all of them.
	r.logf("piso: leitura ordenada das marcações (%s), %d funcionários", name, len(st.staff))
	raw := &RawFloor{}
	raw.CPU, err = r.floorCPU(ctx, &raw.Ops, func() (err error) {
		raw.Result, raw.Rows, err = floor.TimeRaw(ctx, r.pools["timekeeping"], st.sql.Settings,
			st.params(st.staff, r.data.Inicio), r.opts.Duration)
		return err
	})
	if err != nil {
		return fmt.Errorf("leitura ordenada das marcações: %w", err)
	}
	f.Raw = raw
	rep.Floors.Report = append(rep.Floors.Report, f)
	return nil
}

// reportFrom is the first workday whose punches the report's SQL reads
// for a period starting at inicio: the JSON's six days earlier, as the
// service reads them (its first rest days' DSR looks back at absences:
// relatorio.Antes); the CSV has no DSR.
func reportFrom(inicio time.Time, csv bool) time.Time {
	if csv {
		return inicio
	}
	return inicio.AddDate(0, 0, -core.DiasSemanaDSR)
}

// floorCPU runs a floor's timing and returns the CPU per execution
// (*ops of them once it ran) of PostgreSQL's backends and of the
// benchmark, which reads the rows: the floor's cost, comparable with a
// report's CPU per request when the machine's load moves wall times.
func (r *runner) floorCPU(ctx context.Context, ops *int64, run func() error) (CPUPerOp, error) {
	before := r.sampleCPU(ctx)
	if err := run(); err != nil {
		return nil, err
	}
	all := perOp(before, r.sampleCPU(ctx), *ops)
	return CPUPerOp{"postgres": all["postgres"], "bench": all["bench"]}, nil
}

// reportOp is GET /registropontos/departamento/{departamento} for the
// history's period, JSON or CSV.
func reportOp(st *reportState, csv bool) load.Op {
	path := st.path
	if csv {
		path += "&formato=csv"
	}
	total := []byte(`"total":` + strconv.Itoa(len(st.staff)))
	return func(w *load.Worker) error {
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodGet, path, st.token)
		if err := w.Do(req, resp); err != nil {
			return err
		}
		if err := load.Expect(resp, http.StatusOK); err != nil {
			return err
		}
		if !csv && !strings.Contains(string(resp.Body()), string(total)) {
			return fmt.Errorf("relatório sem %s", total)
		}
		if csv && len(resp.Body()) < 100 {
			return fmt.Errorf("CSV de %d bytes", len(resp.Body()))
		}
		return nil
	}
}

// photo is POST /funcionarios/{id}/foto with a 1 MiB JPEG by the
// employee himself. Worker w uses its own employees (w modulo the
// workers), so that two uploads never replace the same photo at once.
func (r *runner) photo() load.Op {
	body, contentType := photoBody()
	emps := r.data.Spread[0].Employees
	auths := make([][]byte, len(emps))
	for i, e := range emps {
		tok, _ := r.minter.funcionario(e.EmpresaID, e.ID)
		auths[i] = []byte("Bearer " + tok)
	}
	return func(w *load.Worker) error {
		i := w.Own(len(emps))
		req, resp := w.Req, w.Resp
		load.Request(req, fasthttp.MethodPost, "/funcionarios/"+strconv.FormatInt(emps[i].ID, 10)+"/foto", "")
		req.Header.SetBytesV("Authorization", auths[i])
		req.Header.SetContentType(contentType)
		req.SetBody(body)
		if err := w.Do(req, resp); err != nil {
			return err
		}
		return load.Expect(resp, http.StatusOK)
	}
}
