// Package httpserver bootstraps a service's two Fiber listeners: the public
// one that the ingress routes clients to, and the internal one (health,
// readiness, metrics and the internal API) that only the cluster reaches.
// Both share request ids, tracing, panic recovery, the access log, RED
// metrics, body-size limits, timeouts and one error handler.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/metrics"
)

// Config is the HTTP part of a service's configuration.
type Config struct {
	PublicAddr      string        `conf:"default:0.0.0.0:8080,help:public listener (behind the ingress)"`
	InternalAddr    string        `conf:"default:0.0.0.0:9090,help:internal listener for probes and metrics and the internal API"`
	ReadTimeout     time.Duration `conf:"default:10s"`
	WriteTimeout    time.Duration `conf:"default:15s"`
	IdleTimeout     time.Duration `conf:"default:60s"`
	RequestTimeout  time.Duration `conf:"default:10s,help:deadline given to each handler's context"`
	ShutdownTimeout time.Duration `conf:"default:20s,help:time allowed to drain requests on SIGTERM"`
	ShutdownDelay   time.Duration `conf:"default:0s,help:time readiness fails before draining so that load balancers stop sending"`
	ReadyTimeout    time.Duration `conf:"default:2s,help:deadline for the dependency pings of /readyz"`
	BodyLimit       int           `conf:"default:1048576,help:largest request body accepted in bytes"`
	// Pprof serves net/http/pprof on the internal listener only (never the
	// public one): profiles show internals and cost CPU, so they are off
	// unless someone is measuring (make bench -pprof).
	Pprof bool `conf:"default:false,help:serve /debug/pprof/ on the internal listener (profiling)"`
	// TrustedProxies are the reverse proxies (the ingress controller's
	// pods; tools/gateway locally) whose X-Forwarded-For entries are
	// believed when finding the client's address (ClientIP). Empty trusts
	// nobody: the client is the TCP peer. conf's own list syntax splits on
	// ";" only, so the string is parsed here, accepting commas too.
	TrustedProxies string `conf:"help:IPs and CIDRs of the proxies whose X-Forwarded-For is believed (separated by commas or spaces; empty trusts none)"`
	// CORSOrigins are the browser origins allowed to call the public API
	// from another site. Empty (the default) allows none: a same-origin
	// client (the web BFF) needs no CORS at all.
	CORSOrigins string `conf:"help:origins (https://host[:port]) allowed to call the public API cross-site, separated by commas; empty allows none"`
}

// Validate rejects settings that would make the server unusable.
func (c *Config) Validate() error {
	var errs []error
	for name, addr := range map[string]string{"PublicAddr": c.PublicAddr, "InternalAddr": c.InternalAddr} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	if c.PublicAddr == c.InternalAddr {
		errs = append(errs, errors.New("PublicAddr and InternalAddr must differ"))
	}
	for name, d := range map[string]time.Duration{
		"ReadTimeout": c.ReadTimeout, "WriteTimeout": c.WriteTimeout, "IdleTimeout": c.IdleTimeout,
		"RequestTimeout": c.RequestTimeout, "ShutdownTimeout": c.ShutdownTimeout, "ReadyTimeout": c.ReadyTimeout,
	} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", name))
		}
	}
	if c.ShutdownDelay < 0 {
		errs = append(errs, errors.New("ShutdownDelay must not be negative"))
	}
	if c.BodyLimit <= 0 {
		errs = append(errs, errors.New("BodyLimit must be positive"))
	}
	if _, err := parseTrustedProxies(c.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	if _, err := parseOrigins(c.CORSOrigins); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Check is one dependency that /readyz pings.
type Check struct {
	Name string
	Ping func(context.Context) error
}

// Warning is what a Check's Ping returns for a problem that must show
// (and be logged) without making the service unready, such as a
// certificate close to its expiry: /readyz lists it as "aviso: ..." and
// still answers 200.
type Warning string

func (w Warning) Error() string { return string(w) }

// Server holds the two Fiber apps. Services register their routes on
// Public and their internal API on Internal before calling Run.
type Server struct {
	Public   *fiber.App
	Internal *fiber.App
	Metrics  *metrics.Metrics

	cfg      Config
	log      *slog.Logger
	checks   []Check
	proxies  trustedProxies
	draining atomic.Bool
}

// New builds both apps for service with the common middleware and the
// internal probe and metrics routes.
func New(service string, cfg Config, log *slog.Logger, checks ...Check) *Server {
	s := &Server{cfg: cfg, log: log, checks: checks, Metrics: metrics.New(service)}
	proxies, err := parseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		// Validate refuses such a configuration at start-up; a caller that
		// skipped it gets the entries that parse, which trusts less, never
		// more, than intended.
		log.Error("http: ignoring bad trusted proxies", "err", err)
	}
	s.proxies = proxies
	s.Public = s.newApp(service, "public")
	s.Internal = s.newApp(service, "internal")
	s.routeProbes()
	return s
}

// useCORS installs the CORS policy of the configured origins, if any.
func (s *Server) useCORS(app *fiber.App) {
	policy, err := corsPolicy(s.cfg.CORSOrigins)
	if err != nil {
		// Validate refuses such a configuration at start-up; a caller that
		// skipped it gets no cross-origin access, which is the safe side.
		s.log.Error("http: ignoring bad CORS origins", "err", err)
	}
	if policy != nil {
		app.Use(policy)
	}
}

// Run listens on the configured addresses and serves until ctx ends.
func (s *Server) Run(ctx context.Context) error {
	pub, err := net.Listen("tcp", s.cfg.PublicAddr)
	if err != nil {
		return fmt.Errorf("public listener: %w", err)
	}
	internal, err := net.Listen("tcp", s.cfg.InternalAddr)
	if err != nil {
		pub.Close()
		return fmt.Errorf("internal listener: %w", err)
	}
	return s.Serve(ctx, pub, internal)
}

// Serve serves on the given listeners until ctx ends or a listener fails,
// then drains: readiness turns 503 at once, ShutdownDelay passes so load
// balancers notice, and in-flight requests get ShutdownTimeout to finish.
func (s *Server) Serve(ctx context.Context, public, internal net.Listener) error {
	s.log.Info("http: listening", "public", public.Addr().String(), "internal", internal.Addr().String())
	failed := make(chan error, 2)
	go func() { failed <- s.Public.Listener(public) }()
	go func() { failed <- s.Internal.Listener(internal) }()

	var serveErr error
	select {
	case serveErr = <-failed:
		serveErr = fmt.Errorf("listener stopped: %w", serveErr)
	case <-ctx.Done():
		s.log.Info("http: shutdown started")
	}

	s.draining.Store(true)
	if serveErr == nil && s.cfg.ShutdownDelay > 0 {
		time.Sleep(s.cfg.ShutdownDelay)
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := errors.Join(serveErr,
		s.Public.ShutdownWithContext(sctx),
		s.Internal.ShutdownWithContext(sctx),
	)
	s.log.Info("http: shutdown complete")
	return err
}

func (s *Server) newApp(service, listener string) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               service + "-" + listener,
		DisableStartupMessage: true,
		ReadTimeout:           s.cfg.ReadTimeout,
		WriteTimeout:          s.cfg.WriteTimeout,
		IdleTimeout:           s.cfg.IdleTimeout,
		BodyLimit:             s.cfg.BodyLimit,
		ErrorHandler:          s.handleError,
		// Fiber hands out strings and slices that alias the request's
		// buffers, which it reuses for the next request once the handler
		// returns. Anything kept longer (a metric label, a cache key, an
		// Idempotency-Key given to the clock-in's batch, a log record
		// collected by a test) then changes under its holder: /metrics
		// answered 500 with labels such as "GETT". Immutable makes every
		// value a copy, at the cost of a few small allocations per request
		// (and a copy of the body, bounded by BodyLimit).
		Immutable: true,
	})
	s.rejectUnknownMethods(app)
	s.useCommon(app, listener)
	if listener == "public" {
		s.useCORS(app)
	}
	return app
}
