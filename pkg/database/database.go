// Package database opens the PostgreSQL pool every service uses and runs
// its schema migrations.
package database

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"time"

	"github.com/IBM/pgxpoolprometheus"
	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is the connection configuration. Services embed it in their own
// config struct as a field named DB, so ardanlabs/conf reads it from
// DB_URL, DB_MIGRATE_URL, DB_MIGRATE_WAIT, DB_MAX_CONNS, DB_MIN_CONNS and
// DB_CONNECT_TIMEOUT.
type Config struct {
	// URL is a postgres:// URL as the service's own role, which must not
	// own the tables; mask hides its user:password when the config is
	// printed at startup.
	URL string `conf:"default:postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable,mask"`
	// MigrateURL is the same database as the role that owns the tables,
	// used only by the migrate subcommand (see Config.Migrate). Empty
	// migrates as URL's role, which then owns the tables: development
	// only, since the record tables are then guarded by their triggers
	// alone.
	MigrateURL string `conf:"mask"`
	// MigrateWait is how long the migrate subcommand retries its first
	// connection while the server cannot be reached: a migration job's
	// address can be admitted by the NetworkPolicy controller a moment
	// after the pod starts (see WaitReachable).
	MigrateWait time.Duration `conf:"default:60s"`
	// MaxConns caps the pool; zero keeps pgx's default (max(4, NumCPU)).
	MaxConns int32 `conf:"default:10"`
	// MinConns is kept at zero by default so a service whose database is
	// down still starts (and reports not-ready) instead of spinning.
	MinConns int32 `conf:"default:0"`
	// ConnectTimeout bounds each dial, and thus how long a readiness
	// probe can hang while the database is unreachable.
	ConnectTimeout time.Duration `conf:"default:5s"`
}

// Migrate waits up to MigrateWait for the server to be reachable
// (WaitReachable), applies migrations as MigrateURL's role and then
// grants URL's role the rights table_access gives it (see Grant). Without
// a MigrateURL it migrates as URL's role and says, in the log, that
// nothing restrains that role.
func (c Config) Migrate(ctx context.Context, migrations fs.FS, log *slog.Logger) error {
	if err := WaitReachable(ctx, cmp.Or(c.MigrateURL, c.URL), c.MigrateWait); err != nil {
		return err
	}
	if c.MigrateURL == "" {
		log.Warn("DB_MIGRATE_URL unset: migrating as the service's own role, which then owns the tables " +
			"(the record tables are guarded by their triggers alone)")
		return Migrate(ctx, c.URL, migrations)
	}
	pc, err := pgx.ParseConfig(c.URL)
	if err != nil {
		return fmt.Errorf("database: parse url: %w", err)
	}
	if err := Migrate(ctx, c.MigrateURL, migrations); err != nil {
		return err
	}
	if err := Grant(ctx, c.MigrateURL, pc.User); err != nil {
		return err
	}
	log.Info("service role granted its rights", "role", pc.User)
	return nil
}

// Open builds a traced connection pool. It does not dial: pgxpool connects
// on first use, so a service can start while PostgreSQL is still down and
// let Ping report it not-ready.
func Open(ctx context.Context, cfg Config) (*pgxpool.Pool, error) {
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		// pgconn redacts the password from its parse errors.
		return nil, fmt.Errorf("database: parse url: %w", err)
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	if cfg.MinConns > 0 {
		pc.MinConns = cfg.MinConns
	}
	if cfg.ConnectTimeout > 0 {
		pc.ConnConfig.ConnectTimeout = cfg.ConnectTimeout
	}
	pc.ConnConfig.Tracer = otelpgx.NewTracer()

	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("database: new pool: %w", err)
	}
	return pool, nil
}

// Ping returns a readiness check for the pool: it fails while no
// connection can be acquired and used.
func Ping(pool *pgxpool.Pool) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if err := pool.Ping(ctx); err != nil {
			return fmt.Errorf("database: ping: %w", err)
		}
		return nil
	}
}

// EnsureDatabase creates the database name on the server reached through
// adminURL unless it already exists. The local stack uses it to give each
// service its own database on one server.
func EnsureDatabase(ctx context.Context, adminURL, name string) error {
	if name == "" {
		return errors.New("database: ensure: empty database name")
	}
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("database: ensure %q: connect: %w", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))

	exists, err := databaseExists(ctx, conn, name)
	if err != nil || exists {
		return err
	}
	// CREATE DATABASE takes no bind parameters, hence the quoted identifier.
	_, createErr := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if createErr == nil {
		return nil
	}
	// Losing a race with another creator fails with 42P04 or, when the
	// catalogs collide, a unique violation; either way the database is
	// there now, which is all the caller asked for.
	if exists, err := databaseExists(ctx, conn, name); err == nil && exists {
		return nil
	}
	return fmt.Errorf("database: ensure %q: create: %w", name, createErr)
}

// EnsureRole creates role, able to log in with password, on the server
// reached through adminURL unless it exists (its password is then left
// as it is). Roles are cluster-wide: callers racing to create the same
// one all succeed.
func EnsureRole(ctx context.Context, adminURL, role, password string) error {
	if role == "" {
		return errors.New("database: ensure role: empty name")
	}
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("database: ensure role %q: connect: %w", role, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	// CREATE ROLE takes no bind parameters: quoted identifier and literal.
	// A concurrent creator shows up as duplicate_object or, when the
	// catalogs collide, unique_violation.
	_, err = conn.Exec(ctx, `DO $$ BEGIN
		CREATE ROLE `+pgx.Identifier{role}.Sanitize()+` LOGIN PASSWORD `+quoteLiteral(password)+`;
	EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
	END $$`)
	if err != nil {
		return fmt.Errorf("database: ensure role %q: %w", role, err)
	}
	return nil
}

// quoteLiteral quotes s as an SQL string literal (standard_conforming_strings
// is on in every supported PostgreSQL).
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func databaseExists(ctx context.Context, conn *pgx.Conn, name string) (bool, error) {
	var exists bool
	err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	if err != nil {
		return false, fmt.Errorf("database: ensure %q: lookup: %w", name, err)
	}
	return exists, nil
}

// Collector exports the pool's statistics (connections acquired, idle,
// total and maximum, acquire counts and waits) as pgxpool_* series, for
// the service's metrics registry.
func Collector(pool *pgxpool.Pool) prometheus.Collector {
	return pgxpoolprometheus.NewCollector(pool, nil)
}
