// Package telemetry sets up OpenTelemetry tracing for a service. Exporters
// are configured only by the standard OTEL_* environment variables; when
// none is set tracing stays a no-op (no exporter, no background work), while
// the W3C trace-context propagator is always installed so that trace ids
// still pass through this service to the next.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
)

// Shutdown flushes and stops the exporter; safe to call when tracing is off.
type Shutdown func(context.Context) error

// exporterVars are the variables that switch tracing on. OTEL_SERVICE_NAME
// or OTEL_RESOURCE_ATTRIBUTES alone do not: they only describe the service.
var exporterVars = []string{
	"OTEL_TRACES_EXPORTER",
	"OTEL_EXPORTER_OTLP_ENDPOINT",
	"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
}

// Enabled reports whether the environment asks for trace export.
func Enabled() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	for _, k := range exporterVars {
		if os.Getenv(k) != "" {
			return true
		}
	}
	return false
}

// Start installs the global propagator and, when Enabled, a tracer provider
// exporting through the exporter the OTEL_* variables describe (OTLP by
// default). service and version name the resource unless OTEL_SERVICE_NAME
// or OTEL_RESOURCE_ATTRIBUTES say otherwise.
func Start(ctx context.Context, service, version string) (Shutdown, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(
		propagation.TraceContext{}, propagation.Baggage{},
	))
	noop := func(context.Context) error { return nil }
	if !Enabled() {
		return noop, nil
	}

	exp, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return noop, fmt.Errorf("trace exporter: %w", err)
	}
	if autoexport.IsNoneSpanExporter(exp) {
		return noop, nil
	}

	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(service), semconv.ServiceVersion(version)),
		resource.WithFromEnv(), // after our defaults, so the environment wins
		resource.WithTelemetrySDK(),
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return noop, fmt.Errorf("trace resource: %w", err)
	}

	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return tp.Shutdown, nil
}
