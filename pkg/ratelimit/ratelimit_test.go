package ratelimit_test

import (
	"log/slog"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

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
	for _, bad := range []ratelimit.Rate{"", "20", "0/min", "-1/s", "x/min", "20/day"} {
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
		keys, err := rdb.Keys(t.Context(), "rate:"+redistest.Prefix(t)+"tok:*").Result()
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
