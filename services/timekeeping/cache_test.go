package main

// The clock-in's caches, end to end: the employee record (employee.Cached)
// and the company's work places (local.Store), with the real employee
// service behind a counting proxy.

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// employeePeer stands between timekeeping and the employee service's
// internal API: it counts the employee lookups (GET
// /internal/funcionarios/{id}, and each id of GET
// /internal/funcionarios?ids=) by id and, while down, answers them 503.
type employeePeer struct {
	url     string
	mu      sync.Mutex
	lookups map[string]int
	// known are the escalasConhecidas of each batched lookup.
	known []string
	down  bool
}

func newEmployeePeer(t *testing.T, target string) *employeePeer {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	p := &employeePeer{lookups: map[string]int{}}
	mux := http.NewServeMux()
	lookup := func(ids ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			p.mu.Lock()
			for _, id := range ids {
				p.lookups[id]++
			}
			down := p.down
			p.mu.Unlock()
			if down {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"message":"serviço temporariamente indisponível","code":"dependencia_indisponivel"}`))
				return
			}
			proxy.ServeHTTP(w, r)
		}
	}
	mux.HandleFunc("GET /internal/funcionarios/{id}", func(w http.ResponseWriter, r *http.Request) {
		lookup(r.PathValue("id"))(w, r)
	})
	mux.HandleFunc("GET /internal/funcionarios", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.known = append(p.known, r.URL.Query().Get("escalasConhecidas"))
		p.mu.Unlock()
		lookup(strings.Split(r.URL.Query().Get("ids"), ",")...)(w, r)
	})
	mux.Handle("/", proxy)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// calls is how many times employee id was looked up.
func (p *employeePeer) calls(id int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lookups[itoa(id)]
}

// lastKnown is the escalasConhecidas of the latest batched lookup.
func (p *employeePeer) lastKnown() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.known) == 0 {
		return "(no lookup)"
	}
	return p.known[len(p.known)-1]
}

func (p *employeePeer) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
}

// newCachedEnv is newEnv with timekeeping (and its replicas) calling the
// employee service through a counting proxy, with the clock-in caches on.
func newCachedEnv(t *testing.T, employeeTTL, locaisTTL time.Duration) (*env, *employeePeer) {
	t.Helper()
	e := newEnv(t)
	peer := newEmployeePeer(t, e.emp.internal)
	e.tune = func(d *dependencies) {
		d.employees = employee.New(peer.url, svcclient.WithTimeout(3*time.Second), svcclient.WithTokens(e.iss.Tokens(t, "timekeeping")))
		d.employeeCache.ttl, d.locaisCacheTTL = employeeTTL, locaisTTL
	}
	e.public = e.startTimekeeping(e.db)
	return e, peer
}

func wantCalls(t *testing.T, peer *employeePeer, w worker, n int, when string) {
	t.Helper()
	if got := peer.calls(w.id); got != n {
		t.Fatalf("%s: employee %d looked up %d times, want %d", when, w.id, got, n)
	}
}

// Within the TTL a clock-in reuses the employee record: a second punch
// does not call the employee service, and a deactivation made there is not
// seen yet (the documented staleness). The other routes still ask.
func TestClockInReusesTheEmployeeWithinTheTTL(t *testing.T) {
	t.Parallel()
	e, peer := newCachedEnv(t, time.Hour, 0)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Souza"})

	first := e.punch(w, local(2024, 3, 4, 8, 0))
	wantCalls(t, peer, w, 1, "first punch")
	second := e.punch(w, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, w, 1, "second punch")
	for i, rec := range []map[string]any{first, second} {
		f := rec["funcionario"].(map[string]any)
		if f["nome"] != "Ana Souza" || f["cpfcnpj"] != w.cpf || f["codeVerify"] != nil || len(f["registrosPonto"].([]any)) != i {
			t.Errorf("punch %d: funcionario %v", i, f)
		}
	}

	want(t, call(t, e.emp.public, "PATCH", path("/funcionarios/%d", w.id), c.token, map[string]any{"ativo": false}), 200)
	e.punch(w, local(2024, 3, 4, 13, 0))
	wantCalls(t, peer, w, 1, "punch after the deactivation")

	// An absence checks the employee afresh.
	e.clock.Set(local(2024, 3, 4, 18, 0))
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-01", w.id), c.token, nil), 200)
	wantCalls(t, peer, w, 2, "absence")
}

// Once the TTL has passed the record is fetched again: a new name reaches
// the clock-in answer, and the AFD gets the type-5 alteration record.
func TestClockInFetchesTheEmployeeAgainAfterTheTTL(t *testing.T) {
	t.Parallel()
	const ttl = 250 * time.Millisecond
	e, peer := newCachedEnv(t, ttl, 0)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Souza"})

	e.punch(w, local(2024, 3, 4, 8, 0))
	wantCalls(t, peer, w, 1, "first punch")
	want(t, call(t, e.emp.public, "PATCH", path("/funcionarios/%d", w.id), c.token, map[string]any{"nome": "Ana Souza Lima"}), 200)
	time.Sleep(2 * ttl)
	rec := e.punch(w, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, w, 2, "punch after the TTL")
	if got := rec["funcionario"].(map[string]any)["nome"]; got != "Ana Souza Lima" {
		t.Errorf("nome %v, want the new name", got)
	}
	var ops []string
	rows, err := e.db.Query(t.Context(), `SELECT operacao || ':' || nome FROM empregados_rep WHERE funcionario_id = $1 ORDER BY nsr`, w.id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, s)
	}
	if rows.Err() != nil || len(ops) != 2 || ops[0] != "I:Ana Souza" || ops[1] != "A:Ana Souza Lima" {
		t.Errorf("type-5 records %v (%v), want the inclusion and the alteration", ops, rows.Err())
	}
}

// An unknown employee, another company's and a failing employee service
// are asked again on every punch: only successes are kept.
func TestClockInKeepsNoEmployeeErrors(t *testing.T) {
	t.Parallel()
	e, peer := newCachedEnv(t, time.Hour, 0)
	c := e.company(1)
	escala := e.escala(c, "Comercial", standard())
	w := e.funcionario(c, escala, nil)
	e.clock.Set(local(2024, 3, 4, 8, 0))
	body := func(id int64) map[string]any { return map[string]any{"endereco": "1, 1", "funcionarioId": id} }

	unknown := worker{id: 999999, empresaID: 1, token: e.iss.Funcionario(t, 1, 999999)}
	for range 2 {
		wantErr(t, e.pub("POST", "/registropontos", unknown.token, body(unknown.id)), 404, "nao_encontrado")
	}
	wantCalls(t, peer, unknown, 2, "unknown employee")

	otherCompany := e.iss.Funcionario(t, 2, w.id)
	for range 2 {
		wantErr(t, e.pub("POST", "/registropontos", otherCompany, body(w.id)), 404, "nao_encontrado")
	}
	wantCalls(t, peer, w, 2, "another company's token")
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.punch(w, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, w, 3, "his own token, twice")

	v := e.funcionario(c, escala, nil)
	peer.setDown(true)
	wantErr(t, e.pub("POST", "/registropontos", v.token, body(v.id)), http.StatusServiceUnavailable, "dependencia_indisponivel")
	failed := peer.calls(v.id) // the client retries a 503
	peer.setDown(false)
	e.punch(v, local(2024, 3, 4, 8, 0))
	wantCalls(t, peer, v, failed+1, "punch after the failure")
	e.punch(v, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, v, failed+1, "punch after the failure, again")
}

// A TTL of 0 turns the employee cache off.
func TestClockInWithoutTheEmployeeCache(t *testing.T) {
	t.Parallel()
	e, peer := newCachedEnv(t, 0, 0)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.punch(w, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, w, 2, "two punches")
}

// The geofence check reads the company's places from the cache, yet a
// place created or removed through this replica counts from its next
// punch; one created through another replica waits for the TTL there.
func TestClockInGeofenceFollowsThisReplicasPlaces(t *testing.T) {
	t.Parallel()
	e, _ := newCachedEnv(t, time.Hour, time.Hour)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	const near = "-23.5510, -46.6333" // about 56 m from the Loja Centro
	place := func(base, nome string, lat, lng float64) int64 {
		t.Helper()
		r := call(t, base, "POST", "/registropontos/locais-trabalho", c.token, map[string]any{"nome": nome,
			"latitude": lat, "longitude": lng, "raioMetros": 100})
		want(t, r, 200)
		return id(r.obj(t))
	}
	checked := func(rec map[string]any) (localID *int64, fora *bool) {
		t.Helper()
		if err := e.db.QueryRow(context.Background(), `SELECT local_trabalho_id, fora_do_local FROM registros_ponto WHERE id = $1`,
			id(rec)).Scan(&localID, &fora); err != nil {
			t.Fatal(err)
		}
		return localID, fora
	}

	if l, f := checked(e.punchFrom(w, local(2024, 3, 4, 8, 0), near)); l != nil || f != nil {
		t.Fatalf("no places yet: local %v fora %v", l, f)
	}
	loja := place(e.public, "Loja Centro", -23.5505, -46.6333)
	if l, f := checked(e.punchFrom(w, local(2024, 3, 4, 9, 0), near)); l == nil || *l != loja || *f {
		t.Fatalf("after creating the Loja Centro: local %v fora %v", l, f)
	}
	deposito := place(e.public, "Depósito", -23.6, -46.7)
	want(t, e.pub("DELETE", path("/registropontos/locais-trabalho/%d", loja), c.token, nil), 204)
	if l, f := checked(e.punchFrom(w, local(2024, 3, 4, 10, 0), near)); l == nil || *l != deposito || !*f {
		t.Fatalf("after removing the Loja Centro: local %v fora %v, want outside the Depósito", l, f)
	}

	// Another replica's change: this replica's copy stands until it
	// expires (an hour here).
	place(e.replica(), "Loja Centro 2", -23.5505, -46.6333)
	if l, _ := checked(e.punchFrom(w, local(2024, 3, 4, 11, 0), near)); l == nil || *l != deposito {
		t.Fatalf("another replica's new place counted before the TTL: local %v", l)
	}
}

// While the employee service's changes reach timekeeping (pkg/changefeed)
// a clock-in keeps the employee's record past its TTL, and forgets it as
// soon as the employee changes: the new name reaches the next punches and
// the AFD, without waiting for any TTL.
func TestClockInFollowsTheEmployeeChanges(t *testing.T) {
	t.Parallel()
	const ttl = 2 * time.Second
	e := newEnv(t)
	peer := newEmployeePeer(t, e.emp.internal)
	feed := changefeed.NewWatcher(redistest.New(t), redistest.Prefix(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
	e.tune = func(d *dependencies) {
		d.employees = employee.New(peer.url, svcclient.WithTimeout(3*time.Second), svcclient.WithTokens(e.iss.Tokens(t, "timekeeping")))
		d.employeeCache = employeeCache{ttl: ttl, maxAge: time.Hour, feed: feed}
	}
	e.public = e.startTimekeeping(e.db)
	replica := e.servers[len(e.servers)-1]
	feed.Start(t.Context(), 100*time.Millisecond)
	current := func() float64 {
		m := replica.Scrape(t)["ponto_employee_cache_feed_current"]
		if m == nil || len(m.GetMetric()) != 1 {
			t.Fatalf("ponto_employee_cache_feed_current: %v", m)
		}
		return m.GetMetric()[0].GetGauge().GetValue()
	}
	eventually(t, "the feed becomes current", func() bool { return current() == 1 })

	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), map[string]any{"nome": "Ana Souza"})
	e.punch(w, local(2024, 3, 4, 8, 0))
	wantCalls(t, peer, w, 1, "first punch")
	time.Sleep(ttl + 200*time.Millisecond)
	e.punch(w, local(2024, 3, 4, 12, 0))
	wantCalls(t, peer, w, 1, "punch past the TTL, nothing changed")

	want(t, call(t, e.emp.public, "PATCH", path("/funcionarios/%d", w.id), c.token, map[string]any{"nome": "Ana Souza Lima"}), 200)
	minute := 0
	eventually(t, "the new name reaches the clock-in", func() bool {
		minute++
		rec := e.punch(w, local(2024, 3, 4, 13, minute))
		return rec["funcionario"].(map[string]any)["nome"] == "Ana Souza Lima"
	})
	wantCalls(t, peer, w, 2, "punch after the change")
	if got := current(); got != 1 {
		t.Errorf("feed current %v after the change, want 1", got)
	}
	var alteracoes int
	if err := e.db.QueryRow(t.Context(), `SELECT count(*) FROM empregados_rep WHERE funcionario_id = $1 AND operacao = 'A' AND nome = 'Ana Souza Lima'`,
		w.id).Scan(&alteracoes); err != nil || alteracoes != 1 {
		t.Errorf("type-5 alteration records %d (%v), want 1", alteracoes, err)
	}
}

// The employee service sends a schedule once: the next employee of the
// company on it is fetched naming it known, and gets it from the cache,
// as a night shift's workday shows.
func TestClockInGivesACachedScheduleToTheNextEmployee(t *testing.T) {
	t.Parallel()
	e, peer := newCachedEnv(t, time.Hour, time.Hour)
	c := e.company(1)
	noturno := e.escala(c, "Noturno", nightly())
	ana := e.funcionario(c, noturno, map[string]any{"nome": "Ana"})
	bia := e.funcionario(c, noturno, map[string]any{"nome": "Bia"})
	if r := e.punch(ana, local(2026, 3, 9, 22, 0)); r["data"] != "2026-03-09" {
		t.Fatalf("Ana's entrada: workday %v", r["data"])
	}
	if k := peer.lastKnown(); k != "" {
		t.Fatalf("first lookup named schedules %q known, want none", k)
	}
	if r := e.punch(bia, local(2026, 3, 10, 1, 0)); r["data"] != "2026-03-09" {
		t.Fatalf("Bia's entrada at 01:00: workday %v, want the night's, 2026-03-09", r["data"])
	}
	if k := peer.lastKnown(); k != itoa(noturno) {
		t.Fatalf("Bia's lookup named schedules %q known, want %d", k, noturno)
	}
}

// eventually polls cond every 50 ms for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
