// Command media stores employees' profile photos in MinIO: uploads are
// checked by content and size, re-encoded without EXIF, and served back to
// the employee and his company.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/redisclient"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/media/internal/foto"
	"github.com/ponto/ponto/services/media/internal/objectstore"
)

const name = "media"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, MINIO_ENDPOINT); see README.md.
type Config struct {
	// Base: LOG_*, HTTP_* and REDIS_*.
	service.Base
	// Rate: RATE_PER_TOKEN (and RATE_PER_IP, unused: every route needs a
	// token).
	Rate  ratelimit.Config
	Minio objectstore.Config
	JWT   jwtauth.Config
	Photo foto.Config
	// EmployeeInternalURL is the employee service's internal listener:
	// the employee's company (authorization) and his fotoProfile.
	EmployeeInternalURL svcclient.URL `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee internal API base URL"`
	// Identity proves media to the employee service (SERVICE_SECRET),
	// with the service tokens auth gives at AuthInternalURL.
	Identity        svcclient.Identity
	AuthInternalURL svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081,help:auth internal API base URL (service tokens)"`
}

// newConfig holds media's own defaults where they differ from the shared
// ones: the body limit fits a 5 MiB photo with its multipart framing
// (conf keeps a preset value as the default; HTTP_BODY_LIMIT still wins).
func newConfig() Config {
	return Config{Base: service.Base{HTTP: httpserver.Config{BodyLimit: foto.MaxBodyBytes}}}
}

// Validate checks what conf's tags cannot.
func (c *Config) Validate() error {
	// A lower limit would refuse photos the design accepts (up to 5 MiB).
	if c.HTTP.BodyLimit < foto.MaxBodyBytes {
		return fmt.Errorf("HTTP_BODY_LIMIT %d: media needs at least %d bytes", c.HTTP.BodyLimit, foto.MaxBodyBytes)
	}
	return nil
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

	store, err := objectstore.Open(cfg.Minio)
	if err != nil {
		return err
	}
	go store.KeepBucket(ctx, log, 2*time.Second)

	guards, closeGuards, err := service.OpenGuards(ctx, name, log, cfg.JWT, cfg.Redis, cfg.Rate)
	if err != nil {
		return err
	}
	defer closeGuards()
	verifier, rdb := guards.Verifier, guards.Redis
	tokens, err := svcclient.NewTokenSource(name, cfg.Identity, cfg.AuthInternalURL)
	if err != nil {
		return err
	}
	employees := employeeapi.New(string(cfg.EmployeeInternalURL), svcclient.WithTokens(tokens))

	// -------------------------------------------------------------------------
	// Servers

	srv := newServer(cfg, log, store, verifier, employees)
	srv.Metrics.MustRegister(redisclient.Collector(rdb))
	return srv.Run(ctx)
}
