package svcclient_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/ponto/ponto/pkg/svcclient"
)

// TestTraceparentIsPropagated is not parallel: it sets the global tracer
// provider and propagator, as a service's telemetry setup does.
func TestTraceparentIsPropagated(t *testing.T) {
	// An exporter is configured (telemetry.Enabled): client spans are made.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})

	got := make(chan string, 1)
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("traceparent")
	})

	ctx, span := tp.Tracer("test").Start(context.Background(), "handler")
	if err := svcclient.New(srv.URL).GetJSON(ctx, "/x", nil); err != nil {
		t.Fatalf("GetJSON: %v", err)
	}
	span.End()

	// traceparent is 00-<trace id>-<parent span id>-<flags>.
	parts := strings.Split(<-got, "-")
	if len(parts) != 4 {
		t.Fatalf("traceparent %q is malformed or missing", strings.Join(parts, "-"))
	}
	if parts[1] != span.SpanContext().TraceID().String() {
		t.Errorf("trace id %s, want the caller's %s", parts[1], span.SpanContext().TraceID())
	}
	// otelhttp sits in between: the peer's parent is a client span, a
	// child of the caller's span.
	var client sdktrace.ReadOnlySpan
	for _, s := range exp.GetSpans().Snapshots() {
		if s.SpanKind().String() == "client" {
			client = s
		}
	}
	if client == nil {
		t.Fatal("no client span recorded")
	}
	if parts[2] != client.SpanContext().SpanID().String() {
		t.Errorf("parent span %s, want the client span %s", parts[2], client.SpanContext().SpanID())
	}
	if client.Parent().SpanID() != span.SpanContext().SpanID() {
		t.Error("client span is not a child of the caller's span")
	}
}

// Without an exporter no client span is made, and the caller's trace
// context still reaches the peer.
func TestTraceparentIsPropagatedWithoutAnExporter(t *testing.T) {
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		t.Setenv(k, "")
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})

	got := make(chan http.Header, 2)
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Clone() })
	ctx, span := tp.Tracer("test").Start(context.Background(), "handler")
	c := svcclient.New(srv.URL)
	if err := c.GetJSON(ctx, "/x", nil); err != nil {
		t.Fatalf("GetJSON: %v", err)
	}
	span.End()
	want := "00-" + span.SpanContext().TraceID().String() + "-" + span.SpanContext().SpanID().String() + "-01"
	if h := <-got; h.Get("traceparent") != want {
		t.Errorf("traceparent %q, want the caller's span %q", h.Get("traceparent"), want)
	}
	for _, s := range exp.GetSpans().Snapshots() {
		if s.SpanKind().String() == "client" {
			t.Error("a client span was recorded without an exporter")
		}
	}
	// A call outside any trace carries none.
	if err := c.GetJSON(context.Background(), "/x", nil); err != nil {
		t.Fatalf("GetJSON: %v", err)
	}
	if h := <-got; h.Get("traceparent") != "" {
		t.Errorf("traceparent %q without a trace", h.Get("traceparent"))
	}
}
