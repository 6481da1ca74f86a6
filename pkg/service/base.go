package service

import (
	"context"
	"io/fs"
	"log/slog"

	"github.com/ardanlabs/conf/v3"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/telemetry"
)

// Base is the part of the configuration every service shares. A
// service's Config embeds it, anonymously, so that its variables keep
// their names (LOG_LEVEL, HTTP_*, REDIS_*) and the service's own fields
// follow, among them its Rate (RATE_*), whose use each service tells.
type Base struct {
	conf.Version
	Log  logging.Config
	HTTP httpserver.Config
	// Redis keeps the rate limits every replica shares (REDIS_ADDR...).
	Redis redisclient.Config
}

// Backend is Base and what a service with a database and authenticated
// routes adds (company-billing, employee, timekeeping): the command line
// (migrate), its database and auth's JWKS.
type Backend struct {
	Base
	Args conf.Args
	DB   database.Config
	// JWT locates auth's JWKS (JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE...).
	JWT jwtauth.Config
	// Identity proves the service to its peers (SERVICE_SECRET); checked
	// when its token source is made, so that migrate runs without it.
	Identity svcclient.Identity
}

// Tokens is the token source of the service name (svcclient.NewTokenSource
// with auth's internal API at authURL), as a client option for its
// peers' internal APIs.
func (b *Backend) Tokens(name string, authURL svcclient.URL) (svcclient.Option, error) {
	ts, err := svcclient.NewTokenSource(name, b.Identity, authURL)
	if err != nil {
		return nil, err
	}
	return svcclient.WithTokens(ts), nil
}

// Start is the start-up of a service without a database: cfg, its
// Config, is read (Configure, b being the Base it embeds, named after the
// service and its build), then telemetry starts; stop stops it.
func Start(ctx context.Context, name, build string, cfg any, b *Base, log *slog.Logger,
	level *slog.LevelVar) (stop func(), err error) {
	if err := ConfigureBase(name, build, cfg, b, log, level); err != nil {
		return nil, err
	}
	return StartTelemetry(ctx, name, build)
}

// StartBackend is the start-up of a service with a database and
// authenticated routes: cfg, its Config, is read (Configure, b being the
// Backend it embeds and rate its RATE_*), the command of its arguments
// runs (Command, with the service's migrations), then telemetry, the
// database and the guards open; close closes them, the guards first.
func StartBackend(ctx context.Context, name, build string, cfg any, b *Backend, rate *ratelimit.Config,
	migrations fs.FS, log *slog.Logger, level *slog.LevelVar) (d Deps, close func(), err error) {
	if err := ConfigureBase(name, build, cfg, &b.Base, log, level); err != nil {
		return Deps{}, nil, err
	}
	if err := Command(ctx, b.Args, b.DB, migrations, log); err != nil {
		return Deps{}, nil, err
	}
	if d.Schema, err = ExpectSchema(migrations); err != nil {
		return Deps{}, nil, err
	}
	d.DB, d.Guards, close, err = OpenWithGuards(ctx, name, build, log, b.DB, b.JWT, b.Redis, *rate)
	return d, close, err
}

// ConfigureBase names the service and its build in the Version of b, the
// Base that cfg embeds, and reads cfg (Configure).
func ConfigureBase(name, build string, cfg any, b *Base, log *slog.Logger, level *slog.LevelVar) error {
	b.Version = conf.Version{Build: build, Desc: "ponto " + name}
	return Configure(cfg, &b.Log, log, level)
}

// StartTelemetry starts telemetry (only what OTEL_* asks for); stop
// flushes and stops it.
func StartTelemetry(ctx context.Context, name, build string) (stop func(), err error) {
	stopTelemetry, err := telemetry.Start(ctx, name, build)
	if err != nil {
		return nil, err
	}
	return func() { _ = stopTelemetry(context.WithoutCancel(ctx)) }, nil
}

// Deps are what StartBackend opened: the database pool and the guards,
// and the schema version the service's migrations lead to.
type Deps struct {
	DB *pgxpool.Pool
	Guards
	Schema *database.Schema
}

// Server builds the service's listeners (httpserver.New): /readyz pings
// the database, waits for its schema (SchemaChecks) and for auth's keys
// (KeysCheck), then checks; the metrics include the Redis client's.
func (d Deps) Server(name string, cfg httpserver.Config, log *slog.Logger, checks ...httpserver.Check) *httpserver.Server {
	checks = append(append(SchemaChecks(d.DB, d.Schema), d.KeysCheck()), checks...)
	srv := httpserver.New(name, cfg, log, checks...)
	srv.Metrics.MustRegister(redisclient.Collector(d.Redis))
	return srv
}

// SchemaChecks are the readiness checks of a service's database: it
// answers, and its schema is at the version the binary embeds (so a
// replica started before its migrate Job finished takes no traffic).
func SchemaChecks(db *pgxpool.Pool, schema *database.Schema) []httpserver.Check {
	return []httpserver.Check{
		{Name: "postgres", Ping: database.Ping(db)},
		{Name: "schema", Ping: schema.Ready(db)},
	}
}
