package ratelimit_test

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
)

func TestRateParsing(t *testing.T) {
	for in, want := range map[ratelimit.Rate]time.Duration{"20/min": time.Minute, "5/s": time.Second, " 100 / h ": time.Hour} {
		l, err := in.Limit()
		if err != nil || l.Period != want || l.Burst != l.Rate {
			t.Errorf("%q: %+v %v", in, l, err)
		}
	}
	if err := ratelimit.Rate("").Validate(); err != nil {
		t.Errorf("an empty rate (off) refused: %v", err)
	}
	if _, err := ratelimit.Rate("").Limit(); err == nil {
		t.Error("an empty rate made a limit")
	}
	for _, bad := range []ratelimit.Rate{"20", "0/min", "-1/s", "x/min", "20/day"} {
		if bad.Validate() == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

type harness struct {
	public string
	iss    *jwttest.Issuer
}

func start(t *testing.T, rdb *redis.Client, failure ratelimit.Failure) *harness {
	t.Helper()
	return startReplica(t, rdb, failure, jwttest.NewIssuer(t))
}

// startReplica is start trusting iss, so that several replicas share its
// tokens (and, through rdb and the test's prefix, their budgets).
func startReplica(t *testing.T, rdb *redis.Client, failure ratelimit.Failure, iss *jwttest.Issuer) *harness {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil))
	limits := ratelimit.New(rdb, redistest.Prefix(t), log)
	v := iss.NewVerifier(t)
	if err := limits.GuardTokens(v, ratelimit.Config{PerToken: "3/min"}); err != nil {
		t.Fatal(err)
	}
	perIP, err := limits.PerIP("open", "2/min", failure)
	if err != nil {
		t.Fatal(err)
	}
	srv := httpserver.New("test", httpserver.Config{
		PublicAddr: "127.0.0.1:0", InternalAddr: "127.0.0.1:1",
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 5 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second, BodyLimit: 1024,
	}, log)
	ok := func(c *fiber.Ctx) error { return c.SendString("ok") }
	srv.Public.Get("/open", perIP, ok)
	srv.Public.Get("/private", v.Middleware(), ok)
	return &harness{public: servertest.Start(t, srv).Public, iss: iss}
}

func get(t *testing.T, url, token string) servertest.Answer {
	t.Helper()
	h := map[string]string{}
	if token != "" {
		h["Authorization"] = "Bearer " + token
	}
	return servertest.Call(t, http.MethodGet, url, nil, h)
}

func want429(t *testing.T, r servertest.Answer) {
	t.Helper()
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); r.Status != 429 || err != nil || n < 1 {
		t.Fatalf("want 429 with Retry-After, got %d %v %s", r.Status, r.Header, r.Body)
	}
}

func TestPerIPAndPerToken(t *testing.T) {
	h := start(t, redistest.New(t), ratelimit.FailClosed)
	for range 2 {
		if r := get(t, h.public+"/open", ""); r.Status != 200 {
			t.Fatalf("within the budget: %d", r.Status)
		}
	}
	want429(t, get(t, h.public+"/open", ""))

	a, b := h.iss.Funcionario(t, 1, 10), h.iss.Funcionario(t, 1, 11)
	for range 3 {
		if r := get(t, h.public+"/private", a); r.Status != 200 {
			t.Fatalf("token within its budget: %d %s", r.Status, r.Body)
		}
	}
	want429(t, get(t, h.public+"/private", a))
	if r := get(t, h.public+"/private", b); r.Status != 200 {
		t.Fatalf("another token shares the first one's budget: %d", r.Status)
	}
}

// A token's first request on a replica asks Redis nothing, and is
// charged with its next there: the budget is spent exactly, and a replica
// adds at most one uncharged request per token.
func TestPerTokenChargesTheFirstRequestWithTheNext(t *testing.T) {
	rdb := redistest.New(t)
	iss := jwttest.NewIssuer(t)
	one, two := startReplica(t, rdb, ratelimit.FailClosed, iss), startReplica(t, rdb, ratelimit.FailClosed, iss)
	budgets := func() int {
		keys, err := rdb.Keys(t.Context(), redistest.Prefix(t)+"rate:tok:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		return len(keys)
	}
	a := iss.Funcionario(t, 1, 10)
	if r := get(t, one.public+"/private", a); r.Status != 200 {
		t.Fatalf("first request: %d %s", r.Status, r.Body)
	}
	if n := budgets(); n != 0 {
		t.Fatalf("the first request touched %d budgets in Redis, want none", n)
	}
	for i := range 2 {
		if r := get(t, one.public+"/private", a); r.Status != 200 {
			t.Fatalf("request %d of 3: %d %s", i+2, r.Status, r.Body)
		}
	}
	if n := budgets(); n != 1 {
		t.Fatalf("%d budgets after the later requests, want 1", n)
	}
	want429(t, get(t, one.public+"/private", a)) // the 4th of a 3/min budget

	// Two requests on the first replica, then the other replica's first is
	// let through uncharged and its second finds one request left for two.
	b := iss.Funcionario(t, 1, 11)
	for range 2 {
		if r := get(t, one.public+"/private", b); r.Status != 200 {
			t.Fatalf("b on the first replica: %d %s", r.Status, r.Body)
		}
	}
	if r := get(t, two.public+"/private", b); r.Status != 200 {
		t.Fatalf("b's first request on the second replica: %d %s", r.Status, r.Body)
	}
	want429(t, get(t, two.public+"/private", b))
}

// Without Redis, a FailClosed route answers 503 and the per-token limit
// lets requests through (the clock-in must survive a Redis outage).
func TestRedisDown(t *testing.T) {
	rdb, err := redisclient.Open(redisclient.Config{Addr: "127.0.0.1:1", DialTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	h := start(t, rdb, ratelimit.FailClosed)
	if r := get(t, h.public+"/open", ""); r.Status != 503 {
		t.Errorf("fail-closed route without Redis: %d", r.Status)
	}
	if r := get(t, h.public+"/private", h.iss.Empresa(t, 1)); r.Status != 200 {
		t.Errorf("per-token limit without Redis: %d %s", r.Status, r.Body)
	}
}

// Many tokens at once: their checks reach Redis in shared pipelines, and
// each token still gets its own budget's verdicts.
func TestConcurrentTokensKeepTheirOwnBudgets(t *testing.T) {
	rdb := redistest.New(t)
	var pipelined, alone, deepest atomic.Int64
	rdb.AddHook(countHook{pipelined: &pipelined, alone: &alone, deepest: &deepest})
	h := start(t, rdb, ratelimit.FailClosed)
	const tokens, each = 40, 5
	statuses := make([][]int, tokens)
	var wg sync.WaitGroup
	for i := range tokens {
		tok := h.iss.Funcionario(t, 1, int64(100+i))
		wg.Go(func() {
			for range each {
				req, _ := http.NewRequest(http.MethodGet, h.public+"/private", nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					statuses[i] = append(statuses[i], 0)
					continue
				}
				resp.Body.Close()
				statuses[i] = append(statuses[i], resp.StatusCode)
			}
		})
	}
	wg.Wait()
	for i, got := range statuses {
		// 3/min: the first (owed), the second (charged two), the third;
		// then the budget is spent.
		if want := []int{200, 200, 200, 429, 429}; !slices.Equal(got, want) {
			t.Errorf("token %d: %v, want %v", i, got, want)
		}
	}
	// Forty clients at once: some checks share a pipeline (a check that
	// finds no other waiting goes alone, without waiting for company).
	if n := pipelined.Load() + alone.Load(); n != tokens*(each-1) || deepest.Load() < 2 {
		t.Errorf("%d checks (%d alone), at most %d in one pipeline; want %d, some together",
			n, alone.Load(), deepest.Load(), tokens*(each-1))
	}
	t.Logf("%d checks, %d alone, at most %d in one pipeline", tokens*(each-1), alone.Load(), deepest.Load())
}

// countHook counts the scripts rdb sends alone and in pipelines, and the
// most one pipeline carried.
type countHook struct{ pipelined, alone, deepest *atomic.Int64 }

func (countHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if strings.HasPrefix(cmd.Name(), "eval") {
			h.alone.Add(1)
		}
		return next(ctx, cmd)
	}
}

func (h countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		var n int64
		for _, cmd := range cmds {
			if strings.HasPrefix(cmd.Name(), "eval") {
				n++
			}
		}
		h.pipelined.Add(n)
		for prev := h.deepest.Load(); n > prev && !h.deepest.CompareAndSwap(prev, n); prev = h.deepest.Load() {
		}
		return next(ctx, cmds)
	}
}

// A stalled Redis (connections open, nothing answers) costs a request
// about REDIS_COMMAND_TIMEOUT (250 ms) before the fallback: a fail-closed
// route answers 503, the per-token limit lets the request through.
func TestRedisStalled(t *testing.T) {
	stall := redistest.NewStall(t)
	rdb, err := redisclient.Open(redisclient.Config{Addr: stall.Addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	h := start(t, rdb, ratelimit.FailClosed)
	tok := h.iss.Empresa(t, 1)
	if r := get(t, h.public+"/private", tok); r.Status != 200 { // owed: asks Redis nothing
		t.Fatalf("first request: %d %s", r.Status, r.Body)
	}
	stall.Pause()
	for _, tc := range []struct {
		path, token string
		status      int
	}{{"/open", "", 503}, {"/private", tok, 200}} {
		start := time.Now()
		r := get(t, h.public+tc.path, tc.token)
		took := time.Since(start)
		if r.Status != tc.status {
			t.Errorf("%s with Redis stalled: %d %s, want %d", tc.path, r.Status, r.Body, tc.status)
		}
		if took < 200*time.Millisecond || took > 800*time.Millisecond {
			t.Errorf("%s with Redis stalled took %s, want about 250ms", tc.path, took)
		}
	}
}

// AllowAll spends every check's budget and answers the longest wait; the
// budgets live under the limiter's prefix only.
func TestAllowAll(t *testing.T) {
	rdb := redistest.New(t)
	log := slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil))
	l := ratelimit.New(rdb, redistest.Prefix(t), log)
	ip := ratelimit.Check{Name: "login:ip", Limit: ratelimit.PerMinute(3), Key: ratelimit.IPKey("203.0.113.7")}
	email := func(e string) ratelimit.Check {
		return ratelimit.Check{Name: "login:email", Limit: ratelimit.PerHour(2), Key: ratelimit.EmailKey(e)}
	}
	ctx := t.Context()
	var got []int
	for _, e := range []string{"a@x.com", "a@x.com", "a@x.com", "b@x.com"} {
		err := l.AllowAll(ctx, ratelimit.FailClosed, ip, email(e))
		status := 200
		if ae, ok := apierr.As(err); ok {
			status = ae.Status
		} else if err != nil {
			t.Fatal(err)
		}
		got = append(got, status)
	}
	// a@ twice (ip 2 of 3), a@'s third is over its 2/h (ip 3 of 3), b@ finds the ip's budget spent.
	if want := []int{200, 200, 429, 429}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	all, err := rdb.Keys(ctx, "*"+ratelimit.EmailKey("a@x.com")).Result()
	if err != nil || len(all) != 1 || !strings.HasPrefix(all[0], redistest.Prefix(t)+"rate:login:email:") {
		t.Errorf("budget keys %v (%v), want one under the prefix", all, err)
	}
}

func TestKeys(t *testing.T) {
	for ip, want := range map[string]string{
		"203.0.113.7":              "ip:203.0.113.7",
		"::ffff:203.0.113.7":       "ip:203.0.113.7", // IPv4-mapped counts as the IPv4 address
		"2001:db8:1:2:aaaa::1":     "ip:2001:db8:1:2::/64",
		"2001:db8:1:2:bbbb:cc::99": "ip:2001:db8:1:2::/64", // same /64, same budget
		"2001:db8:1:3::1":          "ip:2001:db8:1:3::/64",
	} {
		if got := ratelimit.IPKey(ip); got != want {
			t.Errorf("IPKey(%s) = %s, want %s", ip, got, want)
		}
	}
	if ratelimit.EmailKey("a@b.com") == ratelimit.EmailKey("c@b.com") || len(ratelimit.EmailKey("a@b.com")) != len("email:")+32 {
		t.Error("EmailKey")
	}
}

// Refused tokens spend the address's budget of failures: past it a 429
// instead of a 401; a valid token is not counted.
func TestFailedAuthPerAddress(t *testing.T) {
	rdb := redistest.New(t)
	log := slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil))
	limits := ratelimit.New(rdb, redistest.Prefix(t), log)
	iss := jwttest.NewIssuer(t)
	v := iss.NewVerifier(t)
	if err := limits.GuardTokens(v, ratelimit.Config{PerToken: "100/min", FailedAuth: "3/min"}); err != nil {
		t.Fatal(err)
	}
	srv := httpserver.New("test", httpserver.Config{
		PublicAddr: "127.0.0.1:0", InternalAddr: "127.0.0.1:1",
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 5 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second, BodyLimit: 1024,
	}, log)
	srv.Public.Get("/private", v.Middleware(), func(c *fiber.Ctx) error { return c.SendString("ok") })
	public := servertest.Start(t, srv).Public
	var got []int
	for _, tok := range []string{"", "forjado", iss.Empresa(t, 1), "forjado", "forjado", ""} {
		got = append(got, get(t, public+"/private", tok).Status)
	}
	if want := []int{401, 401, 200, 401, 429, 429}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
}
