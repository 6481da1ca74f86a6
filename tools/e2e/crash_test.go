package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestCrashOfTimekeeping kills timekeeping with SIGKILL three times while
// four employees punch (each punch retried with its Idempotency-Key until
// it is answered 200, as the app does) and the company hires people, whose
// REP events employee's outbox relay delivers to timekeeping. No shutdown
// code runs: what a punch or an event leaves behind is what PostgreSQL
// committed. After each restart: every punch answered 200 is stored exactly
// once under its key, every punch that saw an error and was retried is
// stored once, nothing else is stored, the company's NSRs have no gap and
// no repetition, and every event reached timekeeping exactly once.
func TestCrashOfTimekeeping(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Queda Ponto")
	e.setUp(t, c)
	var punchers []*crashPuncher
	for i := range 4 {
		punchers = append(punchers, &crashPuncher{e: e, f: e.hire(t, c, fmt.Sprintf("Pessoa Queda %d", i)), acked: map[string]int64{}, failed: map[string]int{}})
	}
	hirer := &crashHirer{t: t, e: e, c: c}
	// On a stack just started, timekeeping may not have auth's key yet
	// (pkg/jwtauth fetches it in the background): that is start-up, not
	// the crash, so it is waited out before the traffic starts. After a
	// kill, auth has its key and a restarted timekeeping must accept
	// tokens at once.
	waitTokenAccepted(t, e, punchers[0].f.Token)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	stop := runLoops(ctx, hirer, punchers...)
	defer stop()

	for round := range 3 {
		waitForPunches(t, e, punchers, 3*(round+1))
		// Kill in the middle of the traffic, not right after a punch.
		time.Sleep(time.Duration(150+round*170) * time.Millisecond)
		if err := e.stack.KillService("timekeeping"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // punches and deliveries fail meanwhile
		if err := e.stack.StartService("timekeeping"); err != nil {
			t.Fatal(err)
		}
		waitHealthy(t, e, 2*time.Minute)
	}
	waitForPunches(t, e, punchers, 12)
	stop()
	if err := e.stack.Err(); err != nil {
		t.Fatalf("the stack failed: %v\n%s", err, e.tail(60))
	}

	retried := 0
	for _, p := range punchers {
		p.checkAnswers(t)
		p.checkStored(t, c)
		retried += len(p.failed)
	}
	if retried == 0 {
		t.Error("no punch saw an error: the kills did not hit the traffic")
	}
	hirer.check(t)
	checkRelayDelivered(t, e, c)
	checkNSRs(t, e, c)
	t.Logf("%d punches retried after an error", retried)
	if t.Failed() {
		t.Logf("--- stack output ---\n%s", e.tail(150))
	}
}

// TestCrashOfEmployeeRelay kills employee, whose outbox relay delivers the
// REP events of hired people to timekeeping, twice while the company hires
// in parallel. A hire that saw an error is sent again as it was (a 409
// then says the first attempt was stored). Afterwards each person is in
// employee's database once, and each event reached timekeeping exactly
// once, in order: a delivery the kill cut between timekeeping's 200 and
// the relay marking it sent is sent again and applied once.
func TestCrashOfEmployeeRelay(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Queda Cadastro")
	e.setUp(t, c)
	hirers := []*crashHirer{{t: t, e: e, c: c, retry: true}, {t: t, e: e, c: c, retry: true}, {t: t, e: e, c: c, retry: true}}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	loopCtx, stopLoops := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, h := range hirers {
		wg.Go(func() { h.run(loopCtx, ctx) })
	}
	stop := func() { stopLoops(); wg.Wait() }
	defer stop()

	for round := range 2 {
		waitForHires(t, hirers, 8*(round+1))
		time.Sleep(time.Duration(100+round*230) * time.Millisecond)
		if err := e.stack.KillService("employee"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if err := e.stack.StartService("employee"); err != nil {
			t.Fatal(err)
		}
		waitHealthy(t, e, 2*time.Minute)
	}
	waitForHires(t, hirers, 24)
	stop()
	if err := e.stack.Err(); err != nil {
		t.Fatalf("the stack failed: %v\n%s", err, e.tail(60))
	}

	retried := 0
	for _, h := range hirers {
		h.check(t)
		retried += h.retried
	}
	if retried == 0 {
		t.Error("no hire saw an error: the kills did not hit the traffic")
	}
	checkHiredOnce(t, e, c, hirers)
	checkRelayDelivered(t, e, c)
	checkNSRs(t, e, c)
	t.Logf("%d hires sent again after an error", retried)
	if t.Failed() {
		t.Logf("--- stack output ---\n%s", e.tail(150))
	}
}

// crashPuncher is one employee punching in a closed loop: each punch has
// its own Idempotency-Key and is sent again with it until answered 200.
type crashPuncher struct {
	e *env
	f *employee

	mu     sync.Mutex
	keys   []string
	acked  map[string]int64 // key → id answered 200
	failed map[string]int   // key → answers other than 200 before it
	bad    []string         // answers that are neither 200 nor a 5xx of the document
}

func (p *crashPuncher) run(loopCtx, ctx context.Context) {
	for n := 0; loopCtx.Err() == nil; n++ {
		key := fmt.Sprintf("crash-%d-%s-%04d", p.f.ID, randomHex(3), n)
		p.mu.Lock()
		p.keys = append(p.keys, key)
		p.mu.Unlock()
		r := request{Method: http.MethodPost, Path: "/registropontos", Token: p.f.Token,
			Headers: map[string]string{"Idempotency-Key": key},
			Body:    map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": p.f.ID}}
		for ctx.Err() == nil {
			a, err := sendChecked(ctx, p.e, r)
			if err == nil && a.Status == http.StatusOK {
				var out struct {
					ID int64 `json:"id"`
				}
				_ = json.Unmarshal(a.Body, &out) // id 0 is reported by checkStored
				p.mu.Lock()
				p.acked[key] = out.ID
				p.mu.Unlock()
				break
			}
			p.mu.Lock()
			p.failed[key]++
			if err != nil || a.Status < 500 {
				p.bad = append(p.bad, fmt.Sprintf("%s: %v %s", key, err, a))
			}
			p.mu.Unlock()
			sleep(ctx, 100*time.Millisecond)
		}
	}
}

func (p *crashPuncher) ackedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.acked)
}

// checkAnswers: while timekeeping was down the answers were 5xx errors of
// the document (the gateway's 502), never a 4xx nor a broken answer.
func (p *crashPuncher) checkAnswers(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range p.bad {
		t.Errorf("employee %d: a punch answered neither 200 nor a 5xx of the document: %s", p.f.ID, b)
	}
}

// checkStored: each key answered 200 is in the database exactly once,
// with the id the answer gave, and there is no punch without a 200.
func (p *crashPuncher) checkStored(t *testing.T, c *company) {
	t.Helper()
	conn := dbConn(t, p.e, "timekeeping")
	rows, _ := conn.Query(context.Background(), `SELECT coalesce(idempotency_key, ''), id FROM registros_ponto
		WHERE empresa_id = $1 AND funcionario_id = $2`, c.ID, p.f.ID)
	byKey := map[string][]int64{}
	for rows.Next() {
		var key string
		var id int64
		if err := rows.Scan(&key, &id); err != nil {
			t.Fatal(err)
		}
		byKey[key] = append(byKey[key], id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for key, id := range p.acked {
		if got := byKey[key]; len(got) != 1 || got[0] != id {
			what := "answered 200"
			if p.failed[key] > 0 {
				what = fmt.Sprintf("retried after %d errors, then answered 200", p.failed[key])
			}
			t.Errorf("punch %s %s with id %d: in the database %v; want exactly one, with that id", key, what, id, got)
		}
	}
	for key, ids := range byKey {
		if _, ok := p.acked[key]; !ok && key != "" {
			t.Errorf("punch %s in the database (ids %v) was never answered 200", key, ids)
		}
	}
	if n := len(byKey[""]); n > 0 {
		t.Errorf("employee %d: %d punches without a key", p.f.ID, n)
	}
}

// crashHirer hires one person after another. With retry, a hire answered
// with an error is sent again unchanged until it is answered 200, or 409
// (the CPF or e-mail is taken: the first attempt was stored).
type crashHirer struct {
	t     testing.TB
	e     *env
	c     *company
	retry bool

	mu      sync.Mutex
	cpfs    []string // every person sent, stored or not
	hired   []string // CPFs answered 200, or 409 on a retry
	retried int      // hires that saw an error first
	bad     []string
}

func (h *crashHirer) run(loopCtx, ctx context.Context) {
	for n := 0; loopCtx.Err() == nil; n++ {
		body := employeeBody(h.t, h.c, fmt.Sprintf("Contratado %s %d", randomHex(2), n), uniqueEmail("queda"))
		h.mu.Lock()
		h.cpfs = append(h.cpfs, body["cpf"].(string))
		h.mu.Unlock()
		r := request{Method: http.MethodPost, Path: "/funcionarios", Token: h.c.Token, Body: body}
		for attempt := 0; ctx.Err() == nil; attempt++ {
			a, err := sendChecked(ctx, h.e, r)
			ok := err == nil && (a.Status == http.StatusOK || (attempt > 0 && a.Status == http.StatusConflict))
			h.mu.Lock()
			switch {
			case ok:
				h.hired = append(h.hired, body["cpf"].(string))
				if attempt > 0 {
					h.retried++
				}
			case err != nil || a.Status < 500 || !h.retry:
				h.bad = append(h.bad, fmt.Sprintf("%v %s", err, a))
			}
			h.mu.Unlock()
			if ok || !h.retry {
				break
			}
			sleep(ctx, 200*time.Millisecond)
		}
		sleep(loopCtx, 50*time.Millisecond)
	}
}

func (h *crashHirer) hiredCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.hired)
}

func (h *crashHirer) check(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range h.bad {
		t.Errorf("a hire answered neither 200 nor (while employee was down) a 5xx of the document: %s", b)
	}
	if len(h.hired) == 0 {
		t.Error("no one was hired")
	}
}

// checkHiredOnce: every person hired is in employee's database once.
func checkHiredOnce(t *testing.T, e *env, c *company, hirers []*crashHirer) {
	t.Helper()
	conn := dbConn(t, e, "employee")
	rows, _ := conn.Query(context.Background(), `SELECT cpf FROM funcionarios WHERE empresa_id = $1`, c.ID)
	stored, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, cpf := range stored {
		count[onlyDigits(cpf)]++
	}
	hired := 0
	for _, h := range hirers {
		h.mu.Lock()
		for _, cpf := range h.cpfs {
			if n := count[onlyDigits(cpf)]; n > 1 {
				t.Errorf("CPF %s stored %d times", cpf, n)
			}
		}
		for _, cpf := range h.hired {
			if count[onlyDigits(cpf)] != 1 {
				t.Errorf("CPF %s answered 200 (or 409 on a retry) but is not in the database", cpf)
			}
		}
		hired += len(h.hired)
		h.mu.Unlock()
	}
	t.Logf("%d people hired, each stored once", hired)
}

// runLoops runs the hirer and the punchers until the returned stop is
// called; stop waits for them (a punch being retried is finished first).
func runLoops(ctx context.Context, h *crashHirer, punchers ...*crashPuncher) (stop func()) {
	loopCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { h.run(loopCtx, ctx) })
	for _, p := range punchers {
		wg.Go(func() { p.run(loopCtx, ctx) })
	}
	var once sync.Once
	return func() { once.Do(func() { cancel(); wg.Wait() }) }
}

// waitForPunches waits until every puncher has at least n punches
// answered 200.
func waitForPunches(t *testing.T, e *env, punchers []*crashPuncher, n int) {
	t.Helper()
	waitUntil(t, e, fmt.Sprintf("%d punches answered 200 by each employee", n), func() bool {
		return !slices.ContainsFunc(punchers, func(p *crashPuncher) bool { return p.ackedCount() < n })
	})
}

func waitForHires(t *testing.T, hirers []*crashHirer, n int) {
	t.Helper()
	waitUntil(t, nil, fmt.Sprintf("%d hires", n), func() bool {
		total := 0
		for _, h := range hirers {
			total += h.hiredCount()
		}
		return total >= n
	})
}

func waitUntil(t *testing.T, e *env, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			if e == nil {
				e = shared.env
			}
			t.Fatalf("waited 2m for %s\n--- stack ---\n%s", what, e.tail(60))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkRelayDelivered waits until employee's relay has delivered every
// event of the company, then compares both sides: timekeeping applied
// each sequence number 1..n exactly once, and wrote one type-5 inclusion
// (empregados_rep 'I') per person of the company, no more.
func checkRelayDelivered(t *testing.T, e *env, c *company) {
	t.Helper()
	emp, tk := dbConn(t, e, "employee"), dbConn(t, e, "timekeeping")
	ctx := context.Background()
	waitUntil(t, e, "the relay to deliver every event", func() bool {
		var pending int
		err := emp.QueryRow(ctx, `SELECT count(*) FROM outbox_eventos WHERE empresa_id = $1 AND enviado_em IS NULL`, c.ID).Scan(&pending)
		return err == nil && pending == 0
	})
	var sent int64
	if err := emp.QueryRow(ctx, `SELECT count(*) FROM outbox_eventos WHERE empresa_id = $1`, c.ID).Scan(&sent); err != nil {
		t.Fatal(err)
	}
	rows, _ := tk.Query(ctx, `SELECT sequencia FROM eventos_recebidos WHERE origem = 'employee' AND empresa_id = $1 ORDER BY sequencia`, c.ID)
	seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(seqs)) != sent {
		t.Errorf("employee wrote %d events; timekeeping applied %d", sent, len(seqs))
	}
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Errorf("sequences timekeeping applied: %v; want 1..%d, each once", seqs, sent)
			break
		}
	}
	rows, _ = emp.Query(ctx, `SELECT id FROM funcionarios WHERE empresa_id = $1`, c.ID)
	people, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	rows, _ = tk.Query(ctx, `SELECT funcionario_id FROM empregados_rep WHERE empresa_id = $1 AND operacao = 'I'`, c.ID)
	included, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	count := map[int64]int{}
	for _, id := range included {
		count[id]++
	}
	for _, id := range people {
		if count[id] != 1 {
			t.Errorf("employee %d: %d inclusions in empregados_rep; want 1", id, count[id])
		}
	}
	if len(included) != len(people) {
		t.Errorf("%d inclusions for %d people", len(included), len(people))
	}
	t.Logf("%d events delivered, each applied once; %d people included", sent, len(people))
}

// checkNSRs: the company's AFD records (punches, type-5 and type-2
// records, REP events) are numbered 1..n without gap or repetition, and
// the chain's head is n.
func checkNSRs(t *testing.T, e *env, c *company) {
	t.Helper()
	tk := dbConn(t, e, "timekeeping")
	rows, _ := tk.Query(context.Background(), `SELECT nsr FROM registros_ponto WHERE empresa_id = $1
		UNION ALL SELECT nsr FROM empregados_rep WHERE empresa_id = $1
		UNION ALL SELECT nsr FROM empresas_rep WHERE empresa_id = $1
		UNION ALL SELECT nsr FROM eventos_rep WHERE empresa_id = $1 ORDER BY 1`, c.ID)
	nsrs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nsrs {
		if n != int64(i+1) {
			t.Errorf("NSR %d where %d was expected (a gap or a repetition)", n, i+1)
			break
		}
	}
	var head int64
	if err := tk.QueryRow(context.Background(), `SELECT ultimo_nsr FROM cadeias WHERE empresa_id = $1`, c.ID).Scan(&head); err != nil {
		t.Fatal(err)
	}
	if head != int64(len(nsrs)) {
		t.Errorf("chain head at NSR %d; %d records", head, len(nsrs))
	}
}

// waitRelaysIdle waits (up to 30 s) until employee's and
// company-billing's outbox relays have delivered every event, so that a
// test comparing row counts does not see a delivery of an earlier test's
// (or its own set-up's) land in the middle.
func waitRelaysIdle(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	conns := []*pgx.Conn{dbConn(t, e, "employee"), dbConn(t, e, "company-billing")}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		pending := 0
		for _, conn := range conns {
			var n int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM outbox_eventos WHERE enviado_em IS NULL`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			pending += n
		}
		if pending == 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the outbox relays still had events pending after 30 s")
}

// waitTokenAccepted waits until timekeeping accepts token.
func waitTokenAccepted(t *testing.T, e *env, token string) {
	t.Helper()
	waitUntil(t, e, "timekeeping to accept a valid token", func() bool {
		a, err := e.api.send(context.Background(), request{Method: http.MethodGet, Path: "/registropontos/me", Token: token})
		return err == nil && a.Status == http.StatusOK
	})
}

// sendChecked sends r and validates the answer against the document.
func sendChecked(ctx context.Context, e *env, r request) (answer, error) {
	a, err := e.api.send(context.WithoutCancel(ctx), r)
	if err == nil {
		if cerr := e.api.check(r, &a); cerr != nil {
			err = fmt.Errorf("answer not as the OpenAPI document says: %w", cerr)
		}
	}
	return a, err
}

// dbConn is a connection to service's database, closed with the test.
func dbConn(t *testing.T, e *env, service string) *pgx.Conn {
	t.Helper()
	url, err := e.databaseURL(service)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func onlyDigits(s string) string {
	out := make([]byte, 0, len(s))
	for i := range len(s) {
		if s[i] >= '0' && s[i] <= '0'+9 {
			out = append(out, s[i])
		}
	}
	return string(out)
}
