package employee

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/svcclient"
)

// fakePeer is the employee service's GET /internal/funcionarios?ids=:
// employee id belongs to company 1 when id < 900 and is unknown (left out)
// otherwise, and works on schedule 5 when 100 <= id < 200 (listed apart
// unless escalasConhecidas names it); status, when set, is answered
// instead; hold, when set, keeps every answer until it is closed. Calls,
// the ids asked for and the schedules named known are counted.
type fakePeer struct {
	srv    *httptest.Server
	mu     sync.Mutex
	calls  int
	asked  int
	known  []string // escalasConhecidas of each call
	status int
	hold   chan struct{}
	// arrived receives a value as each call comes in (buffered).
	arrived chan struct{}
}

func newFakePeer(t *testing.T) *fakePeer {
	t.Helper()
	p := &fakePeer{arrived: make(chan struct{}, 100)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /internal/funcionarios", func(w http.ResponseWriter, r *http.Request) {
		ids := strings.Split(r.URL.Query().Get("ids"), ",")
		known := r.URL.Query().Get("escalasConhecidas")
		p.mu.Lock()
		p.calls++
		p.asked += len(ids)
		p.known = append(p.known, known)
		status, hold := p.status, p.hold
		p.mu.Unlock()
		p.arrived <- struct{}{}
		if hold != nil {
			<-hold
		}
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"message":"falhou","code":"x"}`))
			return
		}
		var records []string
		escalas := ""
		for _, s := range ids {
			id, _ := strconv.Atoi(s)
			switch {
			case id >= 100 && id < 200:
				records = append(records, `{"id":`+s+`,"empresaId":1,"nome":"Ana","cpfcnpj":"123.456.789-09","ativo":true,"role":"funcionario","codeVerify":null,"escalaTrabalhoId":5}`)
				if known != "5" {
					escalas = `,"escalas":[{"id":5,"empresaId":1,"nome":"Noturna","horarios":[{"entrada":"22:00","saidaAlmoco":240,"retornoAlmoco":300,"saida":480}]}]`
				}
			case id < 900:
				records = append(records, `{"id":`+s+`,"empresaId":1,"nome":"Ana","cpfcnpj":"123.456.789-09","ativo":true,"role":"funcionario","codeVerify":"hash"}`)
			}
		}
		_, _ = w.Write([]byte(`{"funcionarios":[` + strings.Join(records, ",") + `]` + escalas + `}`))
	})
	// Only the cache's disabled path asks for one employee by id.
	mux.HandleFunc("GET /internal/funcionarios/{id}", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.calls++
		p.asked++
		p.mu.Unlock()
		p.arrived <- struct{}{}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":` + r.PathValue("id") + `,"empresaId":1,"nome":"Ana","cpfcnpj":"123.456.789-09","ativo":true,"role":"funcionario","codeVerify":"hash"}`))
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *fakePeer) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

func (p *fakePeer) set(status int, hold chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.hold = status, hold
}

// cached is a cache of ttl in front of p; failures are not retried, so
// that each lookup is one call.
func (p *fakePeer) cached(ttl time.Duration) *Cached {
	return NewCached(New(p.srv.URL, svcclient.WithRetries(0), svcclient.WithTimeout(5*time.Second)), ttl, 100)
}

func lookup(t *testing.T, c *Cached, empresaID, id int64) (Funcionario, error) {
	t.Helper()
	return c.Funcionario(t.Context(), empresaID, id)
}

func wantCount(t *testing.T, p *fakePeer, n int, when string) {
	t.Helper()
	if got := p.count(); got != n {
		t.Fatalf("%s: %d calls to the employee service, want %d", when, got, n)
	}
}

func TestCachedAnswersFromMemoryWithinTheTTL(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(time.Hour)
	first, err := lookup(t, c, 1, 10)
	if err != nil || first.ID != 10 || first.Nome != "Ana" {
		t.Fatalf("%+v, %v", first, err)
	}
	// The cache keeps the rendered record, without the login code's hash.
	public, err := first.PublicJSON()
	if err != nil || !strings.Contains(string(public), `"role":"funcionario"`) ||
		!strings.Contains(string(public), `"codeVerify":null`) || first.CodeVerify != nil {
		t.Fatalf("cached record: %s, codeVerify %v, %v", public, first.CodeVerify, err)
	}
	second, err := lookup(t, c, 1, 10)
	if err != nil || second.ID != 10 {
		t.Fatalf("%+v, %v", second, err)
	}
	wantCount(t, p, 1, "twice the same employee")
	if _, err := lookup(t, c, 1, 11); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 2, "another employee")
}

func TestCachedCallsAgainAfterTheTTL(t *testing.T) {
	p := newFakePeer(t)
	const ttl = 50 * time.Millisecond
	c := p.cached(ttl)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * ttl)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 2, "after the TTL")
}

func TestCachedKeepsNoErrors(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(time.Hour)
	for range 2 {
		if _, err := lookup(t, c, 1, 950); !isStatus(err, http.StatusNotFound) {
			t.Fatalf("unknown employee: %v", err)
		}
	}
	wantCount(t, p, 2, "unknown employee")
	// Another company's employee is the same 404, not kept either.
	for range 2 {
		if _, err := lookup(t, c, 2, 10); !isStatus(err, http.StatusNotFound) {
			t.Fatalf("another company's employee: %v", err)
		}
	}
	wantCount(t, p, 4, "another company's employee")
	p.set(http.StatusInternalServerError, nil)
	if _, err := lookup(t, c, 1, 10); err == nil {
		t.Fatal("a failing employee service: no error")
	}
	p.set(0, nil)
	for range 2 {
		if _, err := lookup(t, c, 1, 10); err != nil {
			t.Fatal(err)
		}
	}
	wantCount(t, p, 6, "after the failure")
}

func TestCachedZeroTTLAlwaysCalls(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(0)
	for range 3 {
		if _, err := lookup(t, c, 1, 10); err != nil {
			t.Fatal(err)
		}
	}
	wantCount(t, p, 3, "no cache")
}

// Concurrent misses for one employee make one call, whose answer they all
// get.
func TestCachedConcurrentMissesMakeOneCall(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(time.Hour)
	hold := make(chan struct{})
	p.set(0, hold)
	const n = 20
	var started, done sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			f, err := c.Funcionario(context.Background(), 1, 10)
			if err == nil && f.ID != 10 {
				err = apierr.Internal(nil)
			}
			errs <- err
		}()
	}
	started.Wait()
	<-p.arrived
	// The others are in the call out or wait for the next fetch, which
	// finds the record in the cache; one that comes after the call ended
	// finds it there too: the count is one whenever each arrives.
	close(hold)
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	wantCount(t, p, 1, "concurrent misses")
}

// A caller that gives up waiting gets a 503, while the call it started
// goes on for the others and is kept.
func TestCachedCallerLeavingDoesNotFailTheSharedCall(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(time.Hour)
	hold := make(chan struct{})
	p.set(0, hold)
	ctx, cancel := context.WithCancel(context.Background())
	failed := make(chan error, 1)
	go func() {
		_, err := c.Funcionario(ctx, 1, 10)
		failed <- err
	}()
	<-p.arrived
	cancel()
	if err := <-failed; !isStatus(err, http.StatusServiceUnavailable) {
		t.Fatalf("caller that left: %v, want a 503", err)
	}
	close(hold)
	if f, err := lookup(t, c, 1, 10); err != nil || f.ID != 10 {
		t.Fatalf("%+v, %v", f, err)
	}
	wantCount(t, p, 1, "after the caller left")
}

// waitForWaiters waits until n misses wait in c for its next fetch: a
// condition, not a delay, so a slow machine cannot make a test see a
// miss that has not queued yet.
func waitForWaiters(t *testing.T, c *Cached, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		waiting := 0
		for _, ws := range c.waiting {
			waiting += len(ws)
		}
		c.mu.Unlock()
		if waiting == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d misses waiting for the next fetch, want %d", waiting, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func isStatus(err error, status int) bool {
	e, ok := apierr.As(err)
	return ok && e.Status == status
}

// Misses of other employees while a call is out wait for the next call,
// which asks for all of them at once; an unknown employee and another
// company's in the same batch are 404s for their callers alone.
func TestCachedMissesDuringACallMakeOneMore(t *testing.T) {
	p := newFakePeer(t)
	c := p.cached(time.Hour)
	hold := make(chan struct{})
	p.set(0, hold)
	first := make(chan error, 1)
	go func() {
		_, err := c.Funcionario(context.Background(), 1, 10)
		first <- err
	}()
	<-p.arrived // the call for employee 10 is out
	type ask struct{ empresaID, id int64 }
	asks := []ask{{1, 11}, {1, 12}, {1, 13}, {1, 950}, {2, 14}, {1, 11}}
	errs := make([]error, len(asks))
	var wg sync.WaitGroup
	for i, a := range asks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Funcionario(context.Background(), a.empresaID, a.id)
		}()
	}
	waitForWaiters(t, c, len(asks)) // all queued behind the call out
	p.set(0, nil)
	close(hold)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i, a := range asks {
		notFound := a.id == 950 || a.empresaID == 2
		if (notFound && !isStatus(errs[i], http.StatusNotFound)) || (!notFound && errs[i] != nil) {
			t.Errorf("employee %d of company %d: %v", a.id, a.empresaID, errs[i])
		}
	}
	p.mu.Lock()
	calls, asked := p.calls, p.asked
	p.mu.Unlock()
	if calls != 2 || asked != 6 {
		t.Fatalf("%d calls asking for %d employees, want 2 asking for 6 (10, then 11 12 13 950 14)", calls, asked)
	}
}

// feed is a changefeed.Watcher's answer, set by the test.
type feed struct {
	mu      sync.Mutex
	current bool
}

func (f *feed) Current(time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.current
}

func (f *feed) set(current bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.current = current
}

// While the feed is current a record outlives its TTL, up to its max
// age; once the feed is not, the TTL rules again.
func TestFollowingKeepsRecordsWhileTheFeedIsCurrent(t *testing.T) {
	p := newFakePeer(t)
	const ttl, maxAge = 50 * time.Millisecond, 400 * time.Millisecond
	f := &feed{current: true}
	c := NewFollowing(New(p.srv.URL, svcclient.WithRetries(0)), ttl, 100, f, maxAge)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * ttl)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 1, "past the TTL, feed current")

	f.set(false)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 2, "past the TTL, feed not current")
	// The record fetched again is fresh: within its TTL it serves even
	// without the feed.
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 2, "within the TTL, feed not current")

	f.set(true)
	time.Sleep(maxAge + ttl)
	if _, err := lookup(t, c, 1, 10); err != nil {
		t.Fatal(err)
	}
	wantCount(t, p, 3, "past the max age, feed current")
}

// Forget drops what a change may have made stale: the employee's record,
// his company's, everyone's; never a record fetched well after the change.
// A record whose fetch began before a change it arrives after is not kept.
func TestForget(t *testing.T) {
	p := newFakePeer(t)
	c := NewFollowing(New(p.srv.URL, svcclient.WithRetries(0)), time.Hour, 100, &feed{current: true}, 2*time.Hour)
	now := time.Now()
	c.now = func() time.Time { return now }
	fill := func() {
		t.Helper()
		for _, id := range []int64{10, 11, 12} {
			if _, err := lookup(t, c, 1, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	fill()
	wantCount(t, p, 3, "three employees")

	c.Forget(changefeed.Change{EmpresaID: 1, FuncionarioID: 10, At: now})
	c.Forget(changefeed.Change{EmpresaID: 2, FuncionarioID: 11, At: now}) // another company's employee 11
	fill()
	wantCount(t, p, 4, "employee 10 forgotten")
	// Fetched as the change was told: it may predate it, so it was not kept.
	fill()
	wantCount(t, p, 5, "employee 10 fetched within the clocks' margin of his change")
	now = now.Add(time.Minute)
	fill()
	fill()
	wantCount(t, p, 6, "employee 10 fetched a minute after his change")

	// Changes older than the records leave them.
	c.Forget(changefeed.Change{EmpresaID: 1, FuncionarioID: 11, At: now.Add(-2 * time.Minute)},
		changefeed.Change{EmpresaID: 1, At: now.Add(-2 * time.Minute)})
	fill()
	wantCount(t, p, 6, "changes older than the records")

	c.Forget(changefeed.Change{EmpresaID: 2, At: now})
	fill()
	wantCount(t, p, 6, "another company changed")
	// With a company's change in the same read, the pass over every
	// record finds the employee's change too.
	c.Forget(changefeed.Change{EmpresaID: 1, FuncionarioID: 12, At: now}, changefeed.Change{EmpresaID: 2, At: now})
	now = now.Add(time.Minute)
	fill()
	wantCount(t, p, 7, "an employee changed beside another company")
	c.Forget(changefeed.Change{EmpresaID: 1, At: now})
	now = now.Add(time.Minute)
	fill()
	wantCount(t, p, 10, "the company changed")
	c.Forget(changefeed.Change{At: now})
	now = now.Add(time.Minute)
	fill()
	wantCount(t, p, 13, "everything forgotten")
	fill()
	wantCount(t, p, 13, "everything fetched again and kept")
}

func (p *fakePeer) lastKnown() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.known[len(p.known)-1]
}

// A schedule comes once: the next fetch for its company names it known,
// and the employee on it gets it from the cache. A record given a cached
// schedule dates from that schedule's fetch, so it is not served past the
// schedule's life; a change of the company forgets its schedules.
func TestCachedFetchesEachScheduleOnce(t *testing.T) {
	p := newFakePeer(t)
	c := NewCached(New(p.srv.URL, svcclient.WithRetries(0)), time.Hour, 100)
	now := time.Now()
	c.now = func() time.Time { return now }
	night := func(id int64) {
		t.Helper()
		f, err := lookup(t, c, 1, id)
		if err != nil || f.Escala == nil || f.Escala.ID != 5 || f.Schedule() == nil || f.Schedule().Semana[0] == nil {
			t.Fatalf("employee %d: %+v, %v; want him on schedule 5, a night shift on Mondays", id, f, err)
		}
	}
	night(100)
	if k := p.lastKnown(); k != "" {
		t.Fatalf("first fetch named %q known, want none", k)
	}
	now = now.Add(50 * time.Minute)
	night(101)
	if k := p.lastKnown(); k != "5" {
		t.Fatalf("second fetch named %q known, want 5", k)
	}
	wantCount(t, p, 2, "two employees")
	// Employee 101's record came 50 minutes after schedule 5: it lives as
	// long as the schedule, an hour from the first fetch.
	now = now.Add(15 * time.Minute)
	night(101)
	if k := p.lastKnown(); k != "" {
		t.Fatalf("past the schedule's life the fetch named %q known, want none", k)
	}
	wantCount(t, p, 3, "employee 101 past his schedule's life")

	c.Forget(changefeed.Change{EmpresaID: 1, At: now})
	now = now.Add(time.Minute)
	night(102)
	if k := p.lastKnown(); k != "" {
		t.Fatalf("after the company's change the fetch named %q known, want none", k)
	}
	// An employee's change leaves his company's schedules.
	c.Forget(changefeed.Change{EmpresaID: 1, FuncionarioID: 101, At: now})
	now = now.Add(time.Minute)
	night(101)
	if k := p.lastKnown(); k != "5" {
		t.Fatalf("after an employee's change the fetch named %q known, want 5", k)
	}
	wantCount(t, p, 5, "after the changes")
}
