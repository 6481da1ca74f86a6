// Package logging builds the JSON slog logger every service uses: one line
// per record, the service name on every line, and the trace and span ids of
// the context the record was logged with, so logs and traces join up.
package logging

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"go.opentelemetry.io/otel/trace"
)

// Config is the logging part of a service's configuration.
type Config struct {
	Level string `conf:"default:info,help:debug or info or warn or error"`
}

// Validate checks that the level is one slog knows.
func (c *Config) Validate() error {
	_, err := ParseLevel(c.Level)
	return err
}

// ParseLevel turns "debug", "info", "warn" or "error" into a slog.Level.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(s))); err != nil {
		return 0, fmt.Errorf("unknown log level %q", s)
	}
	return l, nil
}

// New returns a JSON logger writing to w with the service name attached.
func New(service string, w io.Writer, level slog.Leveler) *slog.Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	return slog.New(traceHandler{h}).With(slog.String("service", service))
}

// traceHandler adds trace_id and span_id when the record's context carries
// a recording span.
type traceHandler struct {
	slog.Handler
}

func (h traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(
			slog.String("trace_id", sc.TraceID().String()),
			slog.String("span_id", sc.SpanID().String()),
		)
	}
	return h.Handler.Handle(ctx, r)
}

func (h traceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceHandler{h.Handler.WithAttrs(attrs)}
}

func (h traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{h.Handler.WithGroup(name)}
}
