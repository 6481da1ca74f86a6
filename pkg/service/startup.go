package service

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/ardanlabs/conf/v3"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/revocation"
)

// ErrCommandDone tells run to return at once: a command (migrate) ran
// instead of the service. Main exits 0 on it.
var ErrCommandDone = errors.New("command done")

// Command runs the command named by the first argument, if any: "migrate"
// applies the service's embedded migrations (the "migrations" directory of
// files) as the owner role and answers ErrCommandDone; no argument answers
// nil, and the service starts.
func Command(ctx context.Context, args conf.Args, db database.Config, files fs.FS, log *slog.Logger) error {
	switch cmd := args.Num(0); cmd {
	case "":
		return nil
	case "migrate":
		migrations, err := fs.Sub(files, "migrations")
		if err != nil {
			return err
		}
		log.Info("migrating database")
		if err := db.Migrate(ctx, migrations, log); err != nil {
			return err
		}
		return ErrCommandDone
	default:
		return fmt.Errorf("unknown command %q (known: migrate)", cmd)
	}
}

// ExpectSchema is the schema version of a service's embedded migrations
// (the "migrations" directory of files), as Command migrates them.
func ExpectSchema(files fs.FS) (*database.Schema, error) {
	if files == nil {
		return database.ExpectSchema(nil)
	}
	migrations, err := fs.Sub(files, "migrations")
	if err != nil {
		return nil, err
	}
	return database.ExpectSchema(migrations)
}

// Open starts telemetry (only what OTEL_* asks for) and opens the
// service's database; close undoes both, the pool first.
func Open(ctx context.Context, name, build string, db database.Config) (pool *pgxpool.Pool, close func(), err error) {
	stop, err := StartTelemetry(ctx, name, build)
	if err != nil {
		return nil, nil, err
	}
	pool, err = database.Open(ctx, db)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return pool, func() { pool.Close(); stop() }, nil
}

// OpenWithGuards is Open and then OpenGuards, what a service with a
// database and authenticated routes opens; close undoes both, the guards
// first.
func OpenWithGuards(ctx context.Context, name, build string, log *slog.Logger, db database.Config, jwt jwtauth.Config,
	rc redisclient.Config, rate ratelimit.Config) (pool *pgxpool.Pool, g Guards, close func(), err error) {
	pool, closeDB, err := Open(ctx, name, build, db)
	if err != nil {
		return nil, Guards{}, nil, err
	}
	g, closeGuards, err := OpenGuards(ctx, name, log, jwt, rc, rate)
	if err != nil {
		closeDB()
		return nil, Guards{}, nil, err
	}
	return pool, g, func() { closeGuards(); closeDB() }, nil
}

// Guards is what every authenticated route passes through: the token
// verifier, with the shared revocations and the per-token rate limit as
// its guards, and the Redis client and limiter they live on.
type Guards struct {
	Verifier *jwtauth.Verifier
	Redis    *redis.Client
	Limits   *ratelimit.Limiter
}

// OpenGuards builds the service's Guards. Revocations come first: a
// revoked subject's request is refused without spending his budget.
// close closes the Redis client.
func OpenGuards(ctx context.Context, name string, log *slog.Logger, jwt jwtauth.Config, rc redisclient.Config,
	rate ratelimit.Config) (g Guards, close func(), err error) {
	if g.Verifier, err = jwtauth.NewVerifier(ctx, jwt); err != nil {
		return Guards{}, nil, err
	}
	if g.Redis, err = redisclient.Open(rc); err != nil {
		return Guards{}, nil, fmt.Errorf("redis: %w", err)
	}
	g.Verifier.AddGuards(revocation.Watch(ctx, g.Redis, rc.KeyPrefix, log, revocation.DefaultReload).Guard)
	g.Limits = ratelimit.New(g.Redis, rc.KeyPrefix+name+":", log)
	if err := g.Limits.GuardTokens(g.Verifier, rate); err != nil {
		_ = g.Redis.Close()
		return Guards{}, nil, err
	}
	return g, func() { _ = g.Redis.Close() }, nil
}

// KeysCheck is the readiness check "jwks": a replica is not Ready until
// its verifier holds auth's keys, so that a restart under load refuses no
// valid token.
func (g Guards) KeysCheck() httpserver.Check {
	return httpserver.Check{Name: "jwks", Ping: g.Verifier.Ready}
}
