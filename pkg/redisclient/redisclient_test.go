package redisclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ardanlabs/conf/v3"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/ponto/ponto/pkg/metrics"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
)

// These tests do not run in parallel: TestTracing installs the global
// tracer provider and counts spans.

func TestPing(t *testing.T) {
	c := redistest.New(t)
	ctx := context.Background()

	if err := redisclient.Ping(c)(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	key := redistest.Prefix(t) + "greeting"
	if err := c.Set(ctx, key, "olá", time.Minute).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	if got, err := c.Get(ctx, key).Result(); err != nil || got != "olá" {
		t.Fatalf("GET = %q, %v", got, err)
	}
}

func TestOpenDoesNotNeedRedis(t *testing.T) {
	// Nothing listens on port 1: a service must still start, and only
	// report not-ready.
	c, err := redisclient.Open(redisclient.Config{Addr: "127.0.0.1:1", DialTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open with Redis down = %v, want nil", err)
	}
	defer c.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := redisclient.Ping(c)(ctx); err == nil {
		t.Fatal("Ping with Redis down returned nil")
	}
}

func TestOpenRejectsEmptyAddr(t *testing.T) {
	if _, err := redisclient.Open(redisclient.Config{}); err == nil {
		t.Fatal("Open with no address returned nil")
	}
}

func TestOpenAppliesDefaultTimeouts(t *testing.T) {
	c, err := redisclient.Open(redisclient.Config{Addr: redistest.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	o := c.Options()
	if o.DialTimeout != 2*time.Second || o.ReadTimeout != time.Second || o.WriteTimeout != time.Second {
		t.Errorf("timeouts dial=%v read=%v write=%v, want 2s/1s/1s", o.DialTimeout, o.ReadTimeout, o.WriteTimeout)
	}
}

// underASpan installs a tracer provider recording into exp (the previous
// one is back after the test), opens a client, and starts the caller's
// span, "handler", in ctx.
func underASpan(t *testing.T) (*tracetest.InMemoryExporter, *redis.Client, context.Context, trace.Span) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() {
		otel.SetTracerProvider(prev)
		_ = tp.Shutdown(context.Background())
	})
	c := redistest.New(t)
	ctx, parent := tp.Tracer("test").Start(context.Background(), "handler")
	return exp, c, ctx, parent
}

func TestTracing(t *testing.T) {
	// An exporter is configured (telemetry.Enabled): command spans are made.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	exp, c, ctx, parent := underASpan(t)
	key := redistest.Prefix(t) + "secret"
	if err := c.Set(ctx, key, "token-value", time.Minute).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	parent.End()

	var found bool
	for _, s := range exp.GetSpans() {
		if s.Name != "set" {
			continue
		}
		found = true
		if s.Parent.TraceID() != parent.SpanContext().TraceID() {
			t.Error("redis span is not a child of the caller's span")
		}
		for _, a := range s.Attributes {
			if strings.Contains(a.Value.Emit(), "token-value") {
				t.Errorf("span attribute %s leaks the value", a.Key)
			}
		}
	}
	if !found {
		t.Fatalf("no span named set among %d spans", len(exp.GetSpans()))
	}
}

// Without an exporter no command span is made, even under a recording
// caller's span.
func TestNoSpansWithoutAnExporter(t *testing.T) {
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		t.Setenv(k, "")
	}
	exp, c, ctx, parent := underASpan(t)
	key := redistest.Prefix(t) + "plain"
	if err := c.Set(ctx, key, "v", time.Minute).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	pipe := c.Pipeline()
	pipe.Get(ctx, key)
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	parent.End()
	for _, s := range exp.GetSpans() {
		if s.Name != "handler" {
			t.Errorf("span %q made without an exporter", s.Name)
		}
	}
	if n := len(exp.GetSpans()); n != 1 {
		t.Errorf("%d spans, want the caller's alone", n)
	}
}

// TestConfigFromEnv pins the env names services rely on and that the
// password is masked when the config is printed.
func TestConfigFromEnv(t *testing.T) {
	var cfg struct{ Redis redisclient.Config }
	t.Setenv("PONTOTEST_REDIS_ADDR", "redis:6380")
	t.Setenv("PONTOTEST_REDIS_PASSWORD", "s3cret")
	t.Setenv("PONTOTEST_REDIS_READ_TIMEOUT", "250ms")

	if _, err := conf.Parse("PONTOTEST", &cfg); err != nil {
		t.Fatalf("conf.Parse: %v", err)
	}
	r := cfg.Redis
	if r.Addr != "redis:6380" || r.Password != "s3cret" || r.ReadTimeout != 250*time.Millisecond {
		t.Errorf("parsed %+v", r)
	}
	if r.DialTimeout != 2*time.Second || r.WriteTimeout != time.Second {
		t.Errorf("defaults not applied: %+v", r)
	}
	out, err := conf.String(&cfg)
	if err != nil {
		t.Fatalf("conf.String: %v", err)
	}
	if strings.Contains(out, "s3cret") {
		t.Errorf("password printed:\n%s", out)
	}
}

func TestCollectorExportsPoolStats(t *testing.T) {
	c := redistest.New(t)
	m := metrics.New("auth")
	m.MustRegister(redisclient.Collector(c))
	for range 3 {
		if err := redisclient.Ping(c)(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// Pipelines use a pool of their own: two of them, one after the other.
	for range 2 {
		if _, err := c.Pipelined(context.Background(), func(p redis.Pipeliner) error {
			p.Ping(context.Background())
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		if mt := f.GetMetric()[0]; strings.HasPrefix(f.GetName(), "redis_") && mt.GetLabel()[0].GetValue() == "auth" {
			got[f.GetName()] = mt.GetGauge().GetValue() + mt.GetCounter().GetValue()
		}
	}
	// The first ping dials (a miss), the next ones reuse it (hits); the
	// same in the pipeline pool.
	if got["redis_pool_hit_total"] < 2 || got["redis_pool_miss_total"] < 1 || got["redis_pool_conn_total_current"] < 1 ||
		got["redis_pipeline_pool_hit_total"] < 1 || got["redis_pipeline_pool_miss_total"] < 1 ||
		got["redis_pipeline_pool_conn_total_current"] < 1 {
		t.Errorf("pool series = %v", got)
	}
}

// A stalled Redis costs a command CommandTimeout (250 ms by default), not
// the read timeout times go-redis' retries; once Redis answers again the
// same client works.
func TestCommandTimeoutBoundsAStall(t *testing.T) {
	stall := redistest.NewStall(t)
	c, err := redisclient.Open(redisclient.Config{Addr: stall.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	key := redistest.Prefix(t) + "k"
	if err := c.Set(ctx, key, "1", time.Minute).Err(); err != nil {
		t.Fatalf("SET before the stall: %v", err)
	}
	stall.Pause()
	for _, tc := range []struct {
		name string
		do   func() error
	}{
		{"command", func() error { return c.Get(ctx, key).Err() }},
		{"pipeline", func() error {
			_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error { p.Get(ctx, key); return nil })
			return err
		}},
	} {
		start := time.Now()
		err := tc.do()
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s answered through a stalled Redis", tc.name)
		}
		if took < 200*time.Millisecond || took > 700*time.Millisecond {
			t.Errorf("%s gave up after %s, want about 250ms", tc.name, took)
		}
	}
	stall.Resume()
	if got, err := c.Get(ctx, key).Result(); err != nil || got != "1" {
		t.Fatalf("GET after the stall = %q, %v", got, err)
	}
}
