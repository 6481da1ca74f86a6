package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/ponto/ponto/pkg/telemetry"
)

func clearOTELEnv(t *testing.T) {
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED"} {
		t.Setenv(k, "")
	}
}

func TestNoOpWithoutOTELVariables(t *testing.T) {
	clearOTELEnv(t)
	shutdown, err := telemetry.Start(context.Background(), "auth", "test")
	if err != nil {
		t.Fatal(err)
	}
	defer shutdown(context.Background())
	if telemetry.Enabled() {
		t.Fatal("enabled with no OTEL_* variable")
	}
	if _, isSDK := otel.GetTracerProvider().(*sdktrace.TracerProvider); isSDK {
		t.Fatal("an SDK tracer provider was installed with no OTEL_* variable")
	}
	if otel.GetTextMapPropagator().Fields() == nil {
		t.Fatal("propagator not installed")
	}
}

func TestSDKDisabledWins(t *testing.T) {
	clearOTELEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if telemetry.Enabled() {
		t.Fatal("OTEL_SDK_DISABLED=true ignored")
	}
}

// An OTLP/HTTP receiver stands in for a collector: a span ended before
// shutdown must reach it.
func TestExportsOverOTLPWhenEndpointSet(t *testing.T) {
	clearOTELEnv(t)
	var posts atomic.Int32
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			posts.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")

	previous := otel.GetTracerProvider()
	t.Cleanup(func() { otel.SetTracerProvider(previous) })
	shutdown, err := telemetry.Start(context.Background(), "timekeeping", "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, isSDK := otel.GetTracerProvider().(*sdktrace.TracerProvider); !isSDK {
		t.Fatal("no SDK tracer provider with OTEL_EXPORTER_OTLP_ENDPOINT set")
	}
	_, span := otel.Tracer("test").Start(context.Background(), "punch")
	span.End()
	if err := shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if posts.Load() == 0 {
		t.Fatal("no span reached the OTLP endpoint")
	}
}
