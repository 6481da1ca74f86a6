package logging_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/ponto/ponto/pkg/logging"
)

func TestRecordCarriesServiceAndTraceIDs(t *testing.T) {
	var buf bytes.Buffer
	log := logging.New("employee", &buf, slog.LevelInfo)

	traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled,
	}))
	log.With("k", "v").InfoContext(ctx, "hello")

	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("not JSON: %q", buf.String())
	}
	want := map[string]string{
		"service": "employee", "msg": "hello", "k": "v",
		"trace_id": traceID.String(), "span_id": spanID.String(),
	}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("%s = %v, want %q", k, rec[k], v)
		}
	}
}

func TestNoTraceIDsWithoutSpan(t *testing.T) {
	var buf bytes.Buffer
	logging.New("auth", &buf, slog.LevelInfo).Info("plain")
	if bytes.Contains(buf.Bytes(), []byte("trace_id")) {
		t.Fatalf("trace_id without a span: %s", buf.String())
	}
}

func TestLevelFilteringAndParsing(t *testing.T) {
	var buf bytes.Buffer
	logging.New("auth", &buf, slog.LevelWarn).Info("dropped")
	if buf.Len() != 0 {
		t.Fatalf("info logged at warn level: %s", buf.String())
	}
	if _, err := logging.ParseLevel("verbose"); err == nil {
		t.Fatal("unknown level accepted")
	}
	if l, err := logging.ParseLevel("debug"); err != nil || l != slog.LevelDebug {
		t.Fatalf("debug parsed as %v, %v", l, err)
	}
}
