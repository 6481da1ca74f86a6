// Command web serves ponto's web client: the employee's punch page and the
// company's console, rendered on the server. It holds each browser's
// session in an encrypted cookie and calls the public API (through the
// gateway or Ingress) with the user's token; see docs/web.md.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/services/web/internal/api"
)

const name = "web"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

// Config is the whole configuration of the service, read from the
// environment; see README.md.
type Config struct {
	// Base: LOG_*, HTTP_* and REDIS_*.
	service.Base
	// Rate: RATE_PER_IP bounds each person's form posts and punches (per
	// client address, before the API is called); RATE_PER_TOKEN is unused
	// here (the API limits each token itself).
	Rate ratelimit.Config
	Web  WebConfig
}

// WebConfig is the web client's own part (WEB_* variables).
type WebConfig struct {
	// APIURL is the public API as clients see it: the gateway (make run
	// sets it) or a Gateway's or Ingress's address. Empty: every API path
	// goes by APIRoutes, as the chart configures the pods.
	APIURL string `conf:"env:WEB_API_URL,help:base URL of the public API (gateway or Ingress) for the paths WEB_API_ROUTES does not claim"`
	// APIRoutes sends the paths they match to another URL than APIURL: in
	// a cluster, the chart lists routes.yaml with the services' in-cluster
	// Services (api.ParseRoutes).
	APIRoutes  string        `conf:"env:WEB_API_ROUTES,help:JSON list of {prefix|exact|regex, url}: the API paths sent elsewhere than WEB_API_URL (first match wins)"`
	APITimeout time.Duration `conf:"default:10s,help:deadline of each call to the API"`
	// SessionKey seals the session cookies: 32 bytes, base64. Every replica
	// needs the same one (a Kubernetes Secret). Empty makes a random key at
	// start, for one local process only: sessions end on restart.
	SessionKey string        `conf:"mask,help:32-byte key (base64) sealing session cookies; empty: random per process (development)"`
	SessionTTL time.Duration `conf:"default:12h,help:longest life of a browser session"`
	// SecureCookies must stay on wherever the site is served over HTTPS.
	SecureCookies bool   `conf:"default:true,help:session cookie __Host- with Secure and HSTS (off only for local http)"`
	TimeZone      string `conf:"default:America/Sao_Paulo,help:time zone when the API names none"`
	Plans         string `conf:"default:basic,help:plan names offered at company registration (comma-separated)"`
	// LoginRate is each client address's budget of login posts, below the
	// API's per-address login limit (AUTH_RATE_PER_IP, 60/min), which
	// counts this service's address for every person.
	LoginRate ratelimit.Rate `conf:"default:20/min,help:login posts per client address (N/s, N/min or N/h)"`
}

// Validate checks what conf's tags cannot.
func (c *Config) Validate() error {
	var errs []error
	if c.Web.APIURL == "" && c.Web.APIRoutes == "" {
		errs = append(errs, errors.New("WEB_API_URL or WEB_API_ROUTES is required: where the public API is"))
	} else if u, err := url.Parse(c.Web.APIURL); c.Web.APIURL != "" &&
		(err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
		errs = append(errs, fmt.Errorf("WEB_API_URL %q: an http(s) URL is required", c.Web.APIURL))
	}
	if _, err := api.ParseRoutes(c.Web.APIRoutes); err != nil {
		errs = append(errs, err)
	}
	if c.Web.SessionKey != "" {
		if k, err := base64.StdEncoding.DecodeString(c.Web.SessionKey); err != nil || len(k) != 32 {
			errs = append(errs, errors.New("WEB_SESSION_KEY must be 32 bytes in base64"))
		}
	}
	if _, err := time.LoadLocation(c.Web.TimeZone); err != nil {
		errs = append(errs, fmt.Errorf("WEB_TIME_ZONE: %w", err))
	}
	if c.Web.SessionTTL <= 0 || c.Web.APITimeout <= 0 {
		errs = append(errs, errors.New("WEB_SESSION_TTL and WEB_API_TIMEOUT must be positive"))
	}
	if len(plans(c.Web.Plans)) == 0 {
		errs = append(errs, errors.New("WEB_PLANS names no plan"))
	}
	return errors.Join(errs...)
}

func plans(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// newConfig: the body limit fits a 5 MiB photo with its multipart framing.
func newConfig() Config {
	return Config{Base: service.Base{HTTP: httpserver.Config{BodyLimit: 6 << 20}}}
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration and telemetry

	cfg := newConfig()
	stopTelemetry, err := service.Start(ctx, name, build, &cfg, &cfg.Base, log, level)
	if err != nil {
		return err
	}
	defer stopTelemetry()

	// -------------------------------------------------------------------------
	// Dependencies

	key, err := sessionKey(cfg.Web.SessionKey, log)
	if err != nil {
		return err
	}
	rdb, err := redisclient.Open(cfg.Redis)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	defer rdb.Close()
	limiter := ratelimit.New(rdb, cfg.Redis.KeyPrefix+name+":", log)
	limit, err := limiter.PerIP("posts", cfg.Rate.PerIP, ratelimit.FailOpen)
	if err != nil {
		return err
	}
	loginLimit, err := limiter.PerIP("login", cfg.Web.LoginRate, ratelimit.FailOpen)
	if err != nil {
		return err
	}
	srv, err := newServer(cfg, log, key, limit, loginLimit, clock.New(time.Now))
	if err != nil {
		return err
	}
	srv.Metrics.MustRegister(redisclient.Collector(rdb))

	// -------------------------------------------------------------------------
	// Servers

	return srv.Run(ctx)
}

// sessionKey decodes the configured key, or makes one for this process.
func sessionKey(configured string, log *slog.Logger) ([]byte, error) {
	if configured != "" {
		return base64.StdEncoding.DecodeString(configured)
	}
	log.Warn("web: WEB_SESSION_KEY not set; using a random key (sessions end when this process stops, and replicas do not share them)")
	key := make([]byte, 32)
	_, err := rand.Read(key)
	return key, err
}
