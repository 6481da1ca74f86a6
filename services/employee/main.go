// Command employee keeps employees, departments with their segments, and work schedules.
package main

import (
	"context"
	"embed"
	"log/slog"
	"time"

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/services/employee/internal/clients/auth"
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
	conf.Version
	Args conf.Args
	Log  logging.Config
	HTTP httpserver.Config
	DB   database.Config
	JWT  jwtauth.Config
	// AuthInternalURL is auth's internal listener, called to revoke a
	// deactivated employee's sessions. Checked at start-up: a bad one
	// would fail every deactivation instead.
	AuthInternalURL svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081,help:auth internal API base URL"`
	// Redis keeps the rate limits every replica shares (REDIS_ADDR...).
	Redis redisclient.Config
	// Rate: RATE_PER_TOKEN (and RATE_PER_IP, unused: every route needs a
	// token).
	Rate ratelimit.Config
	// Outbox delivers the REP events (employees included, changed,
	// excluded) to timekeeping: TIMEKEEPING_INTERNAL_URL, OUTBOX_*.
	Outbox outbox.Config
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration

	cfg := Config{Version: conf.Version{Build: build, Desc: "ponto " + name}}
	if err := service.Configure(&cfg, &cfg.Log, log, level); err != nil {
		return err
	}
	if err := service.Command(ctx, cfg.Args, cfg.DB, migrationFiles, log); err != nil {
		return err
	}

	// -------------------------------------------------------------------------
	// Telemetry and dependencies

	db, guards, closeAll, err := service.OpenWithGuards(ctx, name, build, log, cfg.DB, cfg.JWT, cfg.Redis, cfg.Rate)
	if err != nil {
		return err
	}
	defer closeAll()
	verifier, rdb := guards.Verifier, guards.Redis
	revoker := auth.New(string(cfg.AuthInternalURL))

	// -------------------------------------------------------------------------
	// Servers

	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "postgres", Ping: database.Ping(db)},
	)
	mountRoutes(srv, verifier, db, revoker, clock.New(time.Now))
	srv.Metrics.MustRegister(redisclient.Collector(rdb))

	outbox.NewRelay(db, name, cfg.Outbox, timekeepingapi.NewSender(cfg.Outbox), log).Start(ctx, srv.Metrics.MustRegister)
	return srv.Run(ctx)
}
