package httpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/logging/logtest"
)

type running struct {
	*servertest.Running
	public   string
	internal string
	logs     *logtest.Buffer
}

func testConfig() httpserver.Config {
	return httpserver.Config{
		PublicAddr: "127.0.0.1:0", InternalAddr: "127.0.0.1:1",
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 2 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1024,
	}
}

// start builds a server, lets setup register routes, and serves it on
// ephemeral loopback ports until the test ends.
func start(t *testing.T, cfg httpserver.Config, setup func(*httpserver.Server), checks ...httpserver.Check) *running {
	t.Helper()
	logs := &logtest.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := httpserver.New("test", cfg, log, checks...)
	if setup != nil {
		setup(srv)
	}
	r := servertest.Start(t, srv)
	return &running{Running: r, public: r.Public, internal: r.Internal, logs: logs}
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func call(t *testing.T, method, url string, body io.Reader, header map[string]string) answer {
	t.Helper()
	res := servertest.Call(t, method, url, body, header)
	a := answer{status: res.Status, header: res.Header, raw: string(res.Body)}
	_ = json.Unmarshal(res.Body, &a.body)
	return a
}

func wantError(t *testing.T, a answer, status int, code string) {
	t.Helper()
	if a.status != status || a.body["code"] != code || a.body["message"] == "" || a.body["message"] == nil {
		t.Fatalf("want %d %q with a message, got %d %s", status, code, a.status, a.raw)
	}
}

func TestTypedErrorsBecomeJSON(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/conflict", func(c *fiber.Ctx) error {
			return apierr.Conflict("cpf_duplicado", "CPF já cadastrado")
		})
		s.Public.Get("/limited", func(c *fiber.Ctx) error { return apierr.TooManyRequests(30) })
		s.Public.Get("/boom", func(c *fiber.Ctx) error {
			return errors.New("pq: password authentication failed for user secret")
		})
		s.Public.Get("/panic", func(c *fiber.Ctx) error { panic("nil map") })
		s.Public.Get("/slow", func(c *fiber.Ctx) error {
			<-c.UserContext().Done()
			return c.UserContext().Err()
		})
	})

	a := call(t, "GET", r.public+"/conflict", nil, nil)
	wantError(t, a, 409, "cpf_duplicado")
	if a.body["message"] != "CPF já cadastrado" {
		t.Fatalf("message changed: %v", a.body["message"])
	}

	a = call(t, "GET", r.public+"/limited", nil, nil)
	wantError(t, a, 429, "limite_excedido")
	if a.header.Get("Retry-After") != "30" {
		t.Fatalf("Retry-After = %q", a.header.Get("Retry-After"))
	}

	a = call(t, "GET", r.public+"/boom", nil, nil)
	wantError(t, a, 500, "erro_interno")
	if strings.Contains(a.raw, "secret") {
		t.Fatalf("internal cause leaked to the client: %s", a.raw)
	}
	if !strings.Contains(r.logs.String(), "password authentication failed") {
		t.Fatal("internal cause not logged")
	}

	wantError(t, call(t, "GET", r.public+"/panic", nil, nil), 500, "erro_interno")
	// The server survives the panic.
	wantError(t, call(t, "GET", r.public+"/conflict", nil, nil), 409, "cpf_duplicado")

	wantError(t, call(t, "GET", r.public+"/slow", nil, nil), 503, "dependencia_indisponivel")
	wantError(t, call(t, "GET", r.public+"/nowhere", nil, nil), 404, "nao_encontrado")
}

func TestBodyLimit(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Post("/echo", func(c *fiber.Ctx) error { return c.Send(c.Body()) })
	})
	a := call(t, "POST", r.public+"/echo", strings.NewReader(strings.Repeat("x", 4096)), nil)
	wantError(t, a, 413, "grande_demais")
	if a := call(t, "POST", r.public+"/echo", strings.NewReader("small"), nil); a.status != 200 || a.raw != "small" {
		t.Fatalf("small body refused: %d %s", a.status, a.raw)
	}
}

func TestRequestID(t *testing.T) {
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/id", func(c *fiber.Ctx) error { return c.SendString(httpserver.RequestID(c)) })
	})
	a := call(t, "GET", r.public+"/id", nil, nil)
	if a.raw == "" || a.header.Get("X-Request-Id") != a.raw {
		t.Fatalf("no generated request id: %q / %q", a.raw, a.header.Get("X-Request-Id"))
	}
	a = call(t, "GET", r.public+"/id", nil, map[string]string{"X-Request-Id": "abc-123"})
	if a.raw != "abc-123" {
		t.Fatalf("client request id not kept: %q", a.raw)
	}
	a = call(t, "GET", r.public+"/id", nil, map[string]string{"X-Request-Id": "evil\"id with spaces"})
	if a.raw == "" || strings.Contains(a.raw, "evil") {
		t.Fatalf("unsafe request id accepted: %q", a.raw)
	}
	if !strings.Contains(r.logs.String(), `"request_id":"abc-123"`) {
		t.Fatal("access log lacks the request id")
	}
}

func TestProbesAndMetrics(t *testing.T) {
	var failing error
	var mu sync.Mutex
	check := httpserver.Check{Name: "postgres", Ping: func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		return failing
	}}
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/funcionarios/:id", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"id": c.Params("id")}) })
	}, check)

	if a := call(t, "GET", r.internal+"/healthz", nil, nil); a.status != 200 {
		t.Fatalf("healthz %d", a.status)
	}
	if a := call(t, "GET", r.internal+"/readyz", nil, nil); a.status != 200 || a.body["status"] != "ok" {
		t.Fatalf("readyz %d %s", a.status, a.raw)
	}
	mu.Lock()
	failing = errors.New("connection refused")
	mu.Unlock()
	a := call(t, "GET", r.internal+"/readyz", nil, nil)
	if a.status != 503 || !strings.Contains(a.raw, "connection refused") {
		t.Fatalf("readyz with a failing dependency: %d %s", a.status, a.raw)
	}
	// A warning shows but keeps the service ready.
	mu.Lock()
	failing = fmt.Errorf("wrapped: %w", httpserver.Warning("certificado expira em 3 dias"))
	mu.Unlock()
	a = call(t, "GET", r.internal+"/readyz", nil, nil)
	if a.status != 200 || a.body["status"] != "ok" || !strings.Contains(a.raw, "aviso: certificado expira em 3 dias") {
		t.Fatalf("readyz with a warning: %d %s", a.status, a.raw)
	}
	// Liveness ignores dependencies.
	if a := call(t, "GET", r.internal+"/healthz", nil, nil); a.status != 200 {
		t.Fatalf("healthz followed a dependency: %d", a.status)
	}
	// Probes are not on the public listener.
	if a := call(t, "GET", r.public+"/metrics", nil, nil); a.status != 404 {
		t.Fatalf("metrics exposed publicly: %d", a.status)
	}

	call(t, "GET", r.public+"/funcionarios/42", nil, nil)
	call(t, "GET", r.public+"/funcionarios/43", nil, nil)
	call(t, "GET", r.public+"/random/path/1", nil, nil)
	m := call(t, "GET", r.internal+"/metrics", nil, nil).raw
	for _, want := range []string{
		`http_requests_total{listener="public",method="GET",route="/funcionarios/:id",service="test",status="200"} 2`,
		`http_requests_total{listener="public",method="GET",route="unmatched",service="test",status="404"} 2`, // /metrics and /random/path/1,
		"go_goroutines",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q in %s", want, m)
		}
	}
	if strings.Contains(m, "/funcionarios/42") || strings.Contains(m, "/random/path") {
		t.Error("raw paths used as metric labels")
	}
}

// pprof is off by default and, when on, served on the internal listener
// only.
func TestPprof(t *testing.T) {
	off := start(t, testConfig(), nil)
	if a := call(t, "GET", off.internal+"/debug/pprof/", nil, nil); a.status != 404 {
		t.Fatalf("pprof served without HTTP_PPROF: %d", a.status)
	}
	cfg := testConfig()
	cfg.Pprof = true
	on := start(t, cfg, nil)
	if a := call(t, "GET", on.internal+"/debug/pprof/", nil, nil); a.status != 200 || !strings.Contains(a.raw, "goroutine") {
		t.Fatalf("internal /debug/pprof/ = %d %.200s", a.status, a.raw)
	}
	if a := call(t, "GET", on.internal+"/debug/pprof/heap", nil, nil); a.status != 200 || len(a.raw) == 0 {
		t.Fatalf("internal heap profile = %d, %d bytes", a.status, len(a.raw))
	}
	if a := call(t, "GET", on.public+"/debug/pprof/", nil, nil); a.status != 404 {
		t.Fatalf("pprof exposed publicly: %d", a.status)
	}
	// The rest of the internal listener is unchanged.
	if a := call(t, "GET", on.internal+"/healthz", nil, nil); a.status != 200 {
		t.Fatalf("healthz with pprof on: %d", a.status)
	}
}

// On shutdown, readiness fails at once while an in-flight request is
// allowed to finish.
func TestGracefulShutdown(t *testing.T) {
	cfg := testConfig()
	cfg.ShutdownDelay = 300 * time.Millisecond
	entered := make(chan struct{})
	r := start(t, cfg, func(s *httpserver.Server) {
		s.Public.Get("/work", func(c *fiber.Ctx) error {
			close(entered)
			time.Sleep(600 * time.Millisecond)
			return c.SendString("done")
		})
	})

	result := make(chan answer, 1)
	go func() { result <- call(t, "GET", r.public+"/work", nil, nil) }()
	<-entered
	r.Stop()

	// During the shutdown delay the pod reports not ready.
	if a := call(t, "GET", r.internal+"/readyz", nil, nil); a.status != 503 {
		t.Fatalf("readyz during shutdown: %d", a.status)
	}
	a := <-result
	if a.status != 200 || a.raw != "done" {
		t.Fatalf("in-flight request cut: %d %q", a.status, a.raw)
	}
	select {
	case <-r.Done():
		if err := r.Wait(); err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after shutdown")
	}
}

func TestConfigValidate(t *testing.T) {
	good := testConfig()
	good.InternalAddr = "127.0.0.1:9090"
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	bad := good
	bad.InternalAddr = bad.PublicAddr
	bad.BodyLimit = 0
	bad.ReadTimeout = 0
	err := bad.Validate()
	for _, want := range []string{"must differ", "BodyLimit", "ReadTimeout"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want error mentioning %q, got %v", want, err)
		}
	}
}

// Failures of an unreachable dependency that a handler passes up
// unclassified, or files as internal, answer 503, not 500.
func TestDependencyFailuresAre503(t *testing.T) {
	_, connectErr := pgx.Connect(context.Background(), "postgres://postgres@127.0.0.1:1/x?connect_timeout=2")
	if connectErr == nil {
		t.Fatal("connected to a closed port")
	}
	_, dialErr := net.Dial("tcp", "127.0.0.1:1")
	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/pg-down", func(c *fiber.Ctx) error { return fmt.Errorf("list: %w", connectErr) })
		s.Public.Get("/filed-internal", func(c *fiber.Ctx) error { return apierr.Internal(dialErr) })
		s.Public.Get("/pg-shutdown", func(c *fiber.Ctx) error { return &pgconn.PgError{Code: "57P01"} })
		s.Public.Get("/pg-constraint", func(c *fiber.Ctx) error { return &pgconn.PgError{Code: "23505"} })
	})
	for _, path := range []string{"/pg-down", "/filed-internal", "/pg-shutdown"} {
		wantError(t, call(t, "GET", r.public+path, nil, nil), 503, "dependencia_indisponivel")
	}
	wantError(t, call(t, "GET", r.public+"/pg-constraint", nil, nil), 500, "erro_interno")
}
