// Command employee keeps employees, departments with their segments, and work schedules.
package main

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"time"

	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/employee/internal/clients/auth"
	"github.com/ponto/ponto/services/employee/internal/clients/companybilling"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

const name = "employee"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

//go:embed migrations
var migrationFiles embed.FS

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, DB_URL); see README.md.
type Config struct {
	// Backend: LOG_*, HTTP_*, DB_*, JWT_* (auth's JWKS) and REDIS_*.
	service.Backend
	// Rate: RATE_PER_TOKEN (and RATE_PER_IP, unused: every route needs a
	// token).
	Rate ratelimit.Config
	// AuthInternalURL is auth's internal listener, called to revoke a
	// deactivated employee's sessions. Checked at start-up: a bad one
	// would fail every deactivation instead.
	AuthInternalURL svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081,help:auth internal API base URL"`
	// CompanyBillingInternalURL is company-billing's internal API, asked
	// whether an employee's establishment is an active one of his company.
	CompanyBillingInternalURL svcclient.URL `conf:"env:COMPANY_BILLING_INTERNAL_URL,default:http://127.0.0.1:9082,help:company-billing internal API base URL"`
	// Outbox delivers the REP events (employees included, changed,
	// excluded) to timekeeping: TIMEKEEPING_INTERNAL_URL, OUTBOX_*.
	Outbox outbox.Config
	// ChangesInterval is how often the changes timekeeping's clock-in
	// cache must forget are published to Redis (pkg/changefeed).
	ChangesInterval time.Duration `conf:"env:EMPLOYEE_CHANGES_INTERVAL,default:500ms,help:how often employee changes are published for the clock-in caches"`
}

// Validate refuses settings the service cannot run with.
func (c *Config) Validate() error {
	if c.ChangesInterval <= 0 {
		return fmt.Errorf("EMPLOYEE_CHANGES_INTERVAL %s: want more than 0", c.ChangesInterval)
	}
	return nil
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration, telemetry and dependencies

	var cfg Config
	deps, closeDeps, err := service.StartBackend(ctx, name, build, &cfg, &cfg.Backend, &cfg.Rate, migrationFiles, log, level)
	if err != nil {
		return err
	}
	defer closeDeps()
	tokens, err := cfg.Tokens(name, cfg.AuthInternalURL)
	if err != nil {
		return err
	}
	revoker := auth.New(string(cfg.AuthInternalURL), tokens)

	// -------------------------------------------------------------------------
	// Servers

	srv := deps.Server(name, cfg.HTTP, log)
	mountRoutes(srv, deps.Verifier, deps.DB, revoker, clock.New(time.Now), companybilling.New(string(cfg.CompanyBillingInternalURL), tokens))

	// The relays read tables the migrate Job may not have made yet.
	deps.Schema.Go(ctx, deps.DB, func() {
		outbox.NewRelay(deps.DB, name, cfg.Outbox, timekeepingapi.NewSender(cfg.Outbox, tokens), log).Start(ctx, srv.Metrics.MustRegister)
		changefeed.NewRelay(deps.DB, deps.Guards.Redis, cfg.Redis.KeyPrefix, log).Start(ctx, cfg.ChangesInterval)
	})
	return srv.Run(ctx)
}
