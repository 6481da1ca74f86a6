// Command auth issues and verifies ponto's credentials: company and admin
// login, employee one-time codes, refresh tokens (Redis) and the JWKS that
// every other service verifies access tokens with.
package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/telemetry"
)

const name = "auth"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, REDIS_ADDR); see README.md.
type Config struct {
	conf.Version
	Log   logging.Config
	HTTP  httpserver.Config
	Redis redisclient.Config
	JWT   struct {
		Issuer   string `conf:"default:ponto-auth"`
		Audience string `conf:"default:ponto-api"`
	}
	Auth struct {
		KeysDir string `conf:"default:/var/run/ponto/auth-keys,help:directory of Ed25519 signing keys"`
	}
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration

	cfg := Config{Version: conf.Version{Build: build, Desc: "ponto " + name}}
	if err := service.Configure(&cfg, &cfg.Log, log, level); err != nil {
		return err
	}

	// -------------------------------------------------------------------------
	// Telemetry

	stopTelemetry, err := telemetry.Start(ctx, name, build)
	if err != nil {
		return err
	}
	defer stopTelemetry(context.WithoutCancel(ctx))

	// -------------------------------------------------------------------------
	// Dependencies

	rdb, err := redisclient.Open(cfg.Redis)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	defer rdb.Close()

	// -------------------------------------------------------------------------
	// Servers

	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "redis", Ping: redisclient.Ping(rdb)},
	)
	return srv.Run(ctx)
}
