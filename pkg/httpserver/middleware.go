package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
	"time"

	"github.com/gofiber/contrib/otelfiber/v2"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/google/uuid"
	"go.opentelemetry.io/otel"

	"github.com/ponto/ponto/pkg/telemetry"
)

// RequestIDKey is the fiber.Ctx Locals key holding the request id.
const RequestIDKey = "requestid"

// validRequestID bounds what a client may hand us as X-Request-Id: it ends
// up in every log line of the request.
var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// probePaths are polled by the kubelet and Prometheus every few seconds;
// they are neither traced nor logged above debug level.
var probePaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// useCommon installs, outermost first: the security headers, the trusted proxies for ClientIP,
// request id, tracing, the observer (error translation, access log,
// metrics), the per-request deadline, the refusal of compressed bodies
// (refuseEncoded), the text rule of the path, query
// and body (checkText) and panic recovery.
func (s *Server) useCommon(app *fiber.App, listener string) {
	app.Use(secureHeaders)
	app.Use(s.trustProxies)
	app.Use(func(c *fiber.Ctx) error {
		if id := c.Get(fiber.HeaderXRequestID); id != "" && !validRequestID.MatchString(id) {
			c.Request().Header.Del(fiber.HeaderXRequestID)
		}
		return c.Next()
	})
	app.Use(requestid.New(requestid.Config{
		Header:     fiber.HeaderXRequestID,
		ContextKey: RequestIDKey,
		Generator:  uuid.NewString,
	}))
	app.Use(tracing())
	app.Use(s.observe(listener))
	app.Use(s.deadline)
	app.Use(refuseEncoded)
	app.Use(checkText)
	app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			s.log.ErrorContext(c.UserContext(), "panic", "panic", fmt.Sprint(e),
				"request_id", RequestID(c), "stack", string(debug.Stack()))
		},
	}))
}

// tracing is otelfiber's server span when an exporter is configured
// (telemetry.Enabled). Without one no span would be recorded anyway, and
// otelfiber's per-request work (every header copied for the propagator,
// metric attributes, the span) cost 6% of timekeeping's and 14% of
// employee's CPU under load (docs/performance.md); then only the incoming
// trace context is extracted, which is all otelfiber achieved, so that
// trace ids still pass through to the logs and to the next service.
func tracing() fiber.Handler {
	if telemetry.Enabled() {
		return otelfiber.Middleware(otelfiber.WithNext(func(c *fiber.Ctx) bool {
			return probePaths[c.Path()]
		}))
	}
	return func(c *fiber.Ctx) error {
		if c.Get("traceparent") != "" || c.Get("baggage") != "" {
			c.SetUserContext(otel.GetTextMapPropagator().Extract(c.UserContext(), headerCarrier{c}))
		}
		return c.Next()
	}
}

// headerCarrier reads the request's headers for a propagator.
type headerCarrier struct{ c *fiber.Ctx }

func (h headerCarrier) Get(key string) string { return h.c.Get(key) }
func (h headerCarrier) Set(key, value string) { h.c.Request().Header.Set(key, value) }
func (h headerCarrier) Keys() []string {
	var keys []string
	h.c.Request().Header.VisitAll(func(k, _ []byte) { keys = append(keys, string(k)) })
	return keys
}

// RequestID returns the id of the request being served.
func RequestID(c *fiber.Ctx) string {
	id, _ := c.Locals(RequestIDKey).(string)
	return id
}

// deadline gives the handler's context the configured request timeout so
// that database and service calls give up with the request.
func (s *Server) deadline(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), s.cfg.RequestTimeout)
	defer cancel()
	c.SetUserContext(ctx)
	return c.Next()
}

// observe runs the rest of the chain, turns its error into the JSON answer
// (so the status is final before it is recorded), then writes the access
// log line and the RED metrics.
func (s *Server) observe(listener string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		if err != nil {
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				c.Status(fiber.StatusInternalServerError)
			}
		}
		elapsed := time.Since(start)
		status := c.Response().StatusCode()
		route := routeLabel(c, err)
		s.Metrics.ObserveRequest(listener, route, c.Method(), status, elapsed)

		level := slog.LevelInfo
		if listener == "internal" && probePaths[c.Path()] {
			level = slog.LevelDebug
		}
		s.log.LogAttrs(c.UserContext(), level, "request",
			slog.String("listener", listener),
			slog.String("method", c.Method()),
			slog.String("route", route),
			slog.String("path", c.Path()),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
			slog.Int("bytes", responseSize(c)),
			slog.String("request_id", RequestID(c)),
			slog.String("ip", ClientIP(c)),
		)
		return nil
	}
}

// responseSize reads a streamed body's size from its header: calling Body()
// on a stream would pull the whole of it into memory.
func responseSize(c *fiber.Ctx) int {
	if c.Response().IsBodyStream() {
		return c.Response().Header.ContentLength()
	}
	return len(c.Response().Body())
}

// routeLabel is the route template, or "unmatched" when no route matched:
// labelling by raw path would let clients create unbounded series.
func routeLabel(c *fiber.Ctx, err error) string {
	var fe *fiber.Error
	if errors.As(err, &fe) && (fe.Code == fiber.StatusNotFound || fe.Code == fiber.StatusMethodNotAllowed) {
		return "unmatched"
	}
	return c.Route().Path
}
