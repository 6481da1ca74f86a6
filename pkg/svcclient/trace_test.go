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
