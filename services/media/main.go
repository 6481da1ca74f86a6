// Command media stores employees' profile photos in MinIO: uploads are
// checked by content and size, re-encoded without EXIF, and served back to
// the employee and his company.
package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/telemetry"
	"github.com/ponto/ponto/services/media/internal/objectstore"
)

const name = "media"

// build is set at link time (-ldflags "-X main.build=...").
var build = "develop"

// Config is the whole configuration of the service, read from the
// environment (e.g. HTTP_PUBLIC_ADDR, MINIO_ENDPOINT); see README.md.
type Config struct {
	conf.Version
	Log   logging.Config
	HTTP  httpserver.Config
	Minio objectstore.Config
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

	store, err := objectstore.Open(cfg.Minio)
	if err != nil {
		return err
	}
	go store.KeepBucket(ctx, log, 2*time.Second)

	// -------------------------------------------------------------------------
	// Servers

	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "minio", Ping: store.Ping},
	)
	return srv.Run(ctx)
}
