package httpserver_test

import (
	"testing"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/ponto/ponto/pkg/httpserver"
)

// Without an exporter no span is recorded, but an incoming trace context
// still reaches the handler's context (for the logs and the next call).
func TestTraceContextPassesThroughWithoutExporter(t *testing.T) {
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		t.Setenv(k, "")
	}
	prev := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTextMapPropagator(prev) })

	r := start(t, testConfig(), func(s *httpserver.Server) {
		s.Public.Get("/trace", func(c *fiber.Ctx) error {
			sc := trace.SpanContextFromContext(c.UserContext())
			return c.JSON(fiber.Map{"trace": sc.TraceID().String(), "remote": sc.IsRemote()})
		})
	})
	a := call(t, "GET", r.public+"/trace", nil, map[string]string{
		"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
	})
	if a.status != 200 || a.body["trace"] != "4bf92f3577b34da6a3ce929d0e0e4736" || a.body["remote"] != true {
		t.Fatalf("trace context lost: %d %s", a.status, a.raw)
	}
	if a := call(t, "GET", r.public+"/trace", nil, nil); a.body["trace"] != "00000000000000000000000000000000" {
		t.Fatalf("a trace appeared from nowhere: %s", a.raw)
	}
}
