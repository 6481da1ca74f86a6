package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// maxAnswerTime is the longest a request may take while a dependency is
// down: the services' request deadline (HTTP_REQUEST_TIMEOUT, 10 s) and
// some slack for a busy machine. More is a hang.
const maxAnswerTime = 15 * time.Second

// TestOutageOfRedisAndPostgres stops and restarts the stack's Redis, then
// its PostgreSQL, while an employee keeps punching (each punch retried
// with its Idempotency-Key until it is answered 200, as the app does) and
// keeps refreshing his token. While a dependency is down the answers must
// be 502/503 JSON errors of the document (never a 500), none slower than
// the request deadline; afterwards the services must recover by themselves (same
// processes, /healthz 200), and every punch answered 200 must be in the
// database exactly once.
func TestOutageOfRedisAndPostgres(t *testing.T) {
	e := sharedEnv(t)
	c := e.registerCompany(t, "Empresa Resiliente")
	e.setUp(t, c)
	f := e.hire(t, c, "Carla Dias")
	pids := e.stack.PIDs()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := &prober{e: e, c: c, f: f, acked: map[string]int64{}, phase: "all up"}
	stop := p.start(ctx)
	defer stop()

	p.waitFor(t, "a punch answered 200", time.Minute, func(ev event) bool { return ev.kind == "punch" && ev.status == 200 })

	// Redis: auth's refresh tokens live there; punches do not need it.
	p.setPhase("stopping Redis")
	down := time.Now()
	if err := e.redis.Stop(); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "a refresh refused with a 5xx while Redis is stopped", 30*time.Second, func(ev event) bool {
		return ev.kind == "refresh" && ev.start.After(down) && ev.status >= 500
	})
	p.waitFor(t, "a punch answered 200 while Redis is stopped", 30*time.Second, func(ev event) bool {
		return ev.kind == "punch" && ev.start.After(down) && ev.status == 200
	})
	p.setPhase("restarting Redis")
	up := time.Now()
	if err := e.redis.Start(ctx); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "a refresh answered 200 after Redis restarted", time.Minute, func(ev event) bool {
		return ev.kind == "refresh" && ev.start.After(up) && ev.status == 200
	})
	waitHealthy(t, e, time.Minute)

	// PostgreSQL: timekeeping's and employee's databases.
	p.setPhase("stopping PostgreSQL")
	down = time.Now()
	if err := e.pg.Stop(); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "a punch refused with a 5xx while PostgreSQL is stopped", 30*time.Second, func(ev event) bool {
		return ev.kind == "punch" && ev.start.After(down) && ev.status >= 500
	})
	time.Sleep(time.Second) // a few more failed attempts and retries
	p.setPhase("restarting PostgreSQL")
	up = time.Now()
	if err := e.pg.Start(ctx); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "a punch answered 200 after PostgreSQL restarted", 2*time.Minute, func(ev event) bool {
		return ev.kind == "punch" && ev.start.After(up) && ev.status == 200
	})
	for _, kind := range []string{"empresa", "funcionarios", "registros"} {
		p.waitFor(t, "a read "+kind+" answered 200 after PostgreSQL restarted", time.Minute, func(ev event) bool {
			return ev.kind == kind && ev.start.After(up) && ev.status == 200
		})
	}
	waitHealthy(t, e, time.Minute)
	p.setPhase("all up again")

	stop()
	if err := e.stack.Err(); err != nil {
		t.Fatalf("a service died during the outages: %v\n%s", err, e.tail(60))
	}
	if got := e.stack.PIDs(); !slices.Equal(got, pids) {
		t.Errorf("processes %v became %v: the services should recover by themselves", pids, got)
	}
	p.checkAnswers(t)
	p.checkDatabase(t, c)
	if t.Failed() {
		t.Logf("--- stack output ---\n%s", e.tail(150))
	}
}

// event is one request of the prober.
type event struct {
	kind   string // punch, refresh, or a read: empresa, funcionarios, registros
	phase  string // what was down (or coming back) when it was sent
	start  time.Time
	status int
	answer answer
	err    error
}

// prober keeps an employee punching and refreshing while dependencies
// come and go, and records every answer.
type prober struct {
	e *env
	c *company
	f *employee

	mu     sync.Mutex
	phase  string
	events []event
	acked  map[string]int64 // Idempotency-Key → id answered 200
	keys   []string         // in punch order
}

// setPhase names what the test is doing to the dependencies, for the
// failure messages.
func (p *prober) setPhase(phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
}

func (p *prober) currentPhase() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.phase
}

// start runs the punch and refresh loops until the returned stop is
// called; stop waits for them (a punch being retried is finished first).
func (p *prober) start(ctx context.Context) (stop func()) {
	loopCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { p.punchLoop(loopCtx, ctx) })
	wg.Go(func() { p.refreshLoop(loopCtx) })
	wg.Go(func() { p.readLoop(loopCtx) })
	var once sync.Once
	return func() { once.Do(func() { cancel(); wg.Wait() }) }
}

// punchLoop punches with a new key each time, retrying each key until
// it is answered 200: stopping (loopCtx) is looked at only between keys,
// the overall deadline (ctx) ends a retry.
func (p *prober) punchLoop(loopCtx, ctx context.Context) {
	for n := 0; loopCtx.Err() == nil; n++ {
		key := fmt.Sprintf("outage-%s-%04d", randomHex(4), n)
		p.mu.Lock()
		p.keys = append(p.keys, key)
		p.mu.Unlock()
		for ctx.Err() == nil {
			ev := p.send(ctx, "punch", request{Method: http.MethodPost, Path: "/registropontos", Token: p.f.Token,
				Headers: map[string]string{"Idempotency-Key": key},
				Body:    map[string]any{"endereco": "-23.55052, -46.633309", "funcionarioId": p.f.ID}})
			if ev.status == http.StatusOK {
				var r struct {
					ID int64 `json:"id"`
				}
				// An undecodable body leaves id 0, which checkDatabase reports.
				_ = json.Unmarshal(ev.answer.Body, &r)
				p.mu.Lock()
				p.acked[key] = r.ID
				p.mu.Unlock()
				break
			}
			sleep(ctx, 200*time.Millisecond)
		}
		sleep(loopCtx, 100*time.Millisecond)
	}
}

// refreshLoop refreshes as the app does: each 200 carries the refresh
// token's successor, which the next refresh sends (auth rotates them, and
// a rotated token sent again would end the session).
func (p *prober) refreshLoop(ctx context.Context) {
	token := p.f.Refresh
	for ctx.Err() == nil {
		ev := p.send(ctx, "refresh", request{Method: http.MethodPost, Path: "/auth/refresh-token",
			Body: map[string]string{"refreshToken": token}})
		var out struct {
			RefreshToken string `json:"refreshToken"`
		}
		if ev.status == http.StatusOK && json.Unmarshal(ev.answer.Body, &out) == nil && out.RefreshToken != "" {
			token = out.RefreshToken
		}
		sleep(ctx, 200*time.Millisecond)
	}
}

// readLoop reads what each service with a database keeps, so that their
// answers during the PostgreSQL outage are checked too.
func (p *prober) readLoop(ctx context.Context) {
	reads := []struct{ kind, path, token string }{
		{"empresa", "/empresas/me", p.c.Token},
		{"funcionarios", "/funcionarios", p.c.Token},
		{"registros", "/registropontos/me", p.f.Token},
	}
	for i := 0; ctx.Err() == nil; i++ {
		r := reads[i%len(reads)]
		p.send(ctx, r.kind, request{Method: http.MethodGet, Path: r.path, Token: r.token})
		sleep(ctx, 100*time.Millisecond)
	}
}

func (p *prober) send(ctx context.Context, kind string, r request) event {
	ev := event{kind: kind, start: time.Now(), phase: p.currentPhase()}
	ev.answer, ev.err = p.e.api.send(context.WithoutCancel(ctx), r)
	if ev.err == nil {
		ev.status = ev.answer.Status
		if err := p.e.api.check(r, &ev.answer); err != nil {
			ev.err = fmt.Errorf("answer not as the OpenAPI document says: %w", err)
		}
	}
	p.mu.Lock()
	p.events = append(p.events, ev)
	p.mu.Unlock()
	return ev
}

// waitFor waits until an event matching ok has been recorded.
func (p *prober) waitFor(t *testing.T, what string, timeout time.Duration, ok func(event) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		found := slices.ContainsFunc(p.events, ok)
		p.mu.Unlock()
		if found {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last events:\n%s\n--- stack ---\n%s", timeout, what, p.lastEvents(15), p.e.tail(40))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkAnswers: every answer was a 200, or a 502/503 JSON error of the
// document, in time; no request hung or failed in transport. A 500
// (erro_interno) says the server failed, when what failed was a
// dependency: the client must hear that it may retry.
func (p *prober) checkAnswers(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	counts := map[string]int{}
	for _, ev := range p.events {
		counts[fmt.Sprintf("%s %d", ev.kind, ev.status)]++
		at := ev.start.Format("15:04:05.000")
		switch {
		case ev.err != nil:
			t.Errorf("%s at %s (%s): %v", ev.kind, at, ev.phase, ev.err)
		case ev.answer.Elapsed > maxAnswerTime:
			t.Errorf("%s at %s took %s (at most %s): %s", ev.kind, at, ev.answer.Elapsed, maxAnswerTime, ev.answer)
		case ev.status != http.StatusOK && ev.status != http.StatusBadGateway && ev.status != http.StatusServiceUnavailable:
			t.Errorf("%s at %s (%s): want 200, or a 502/503 while a dependency is down: %s", ev.kind, at, ev.phase, ev.answer)
		}
	}
	t.Logf("answers during the test: %v", counts)
}

// checkDatabase: each punch answered 200 is in timekeeping's database
// exactly once, under its key and with the id the answer gave; there is
// no other punch; the NSRs follow the order of the punches.
func (p *prober) checkDatabase(t *testing.T, c *company) {
	t.Helper()
	dbURL, err := p.e.databaseURL("timekeeping")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(ctx, `SELECT id, coalesce(idempotency_key, ''), nsr FROM registros_ponto
		WHERE empresa_id = $1 AND funcionario_id = $2 ORDER BY id`, c.ID, p.f.ID)
	byKey := map[string][]int64{}
	var nsrs []int64
	for rows.Next() {
		var id, nsr int64
		var key string
		if err := rows.Scan(&id, &key, &nsr); err != nil {
			t.Fatal(err)
		}
		byKey[key] = append(byKey[key], id)
		nsrs = append(nsrs, nsr)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for key, id := range p.acked {
		if got := byKey[key]; len(got) != 1 || got[0] != id {
			t.Errorf("punch %s answered 200 with id %d: in the database %v; want exactly one, with that id", key, id, got)
		}
	}
	for key, ids := range byKey {
		if _, ok := p.acked[key]; !ok {
			t.Errorf("punch in the database never answered 200 (key %q): ids %v", key, ids)
		}
	}
	// The NSR also numbers the company's other AFD records, so punches
	// need not be consecutive; but they are numbered in the order made.
	for i := 1; i < len(nsrs); i++ {
		if nsrs[i] <= nsrs[i-1] {
			t.Errorf("NSRs of the punches in id order: %v; want them growing, none repeated", nsrs)
			break
		}
	}
	if len(p.acked) < 3 {
		t.Errorf("only %d punches answered 200: the test did not exercise enough", len(p.acked))
	}
	t.Logf("%d punches confirmed, each in the database exactly once", len(p.acked))
}

func (p *prober) lastEvents(n int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	evs := p.events
	if len(evs) > n {
		evs = evs[len(evs)-n:]
	}
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "%s [%s] %s %d %v %s\n", ev.start.Format("15:04:05.000"), ev.phase, ev.kind, ev.status, ev.err, ev.answer.Body)
	}
	return b.String()
}

// waitHealthy waits until the gateway's /healthz says every service is
// ready.
func waitHealthy(t *testing.T, e *env, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := e.stack.WaitReady(ctx); err != nil {
		t.Fatalf("the services did not become ready again by themselves: %v\n%s", err, e.tail(40))
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
