// Command timekeeping records punches (append-only, with NSR and hash chain), adjustments, absences and department reports.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"time"
	_ "time/tzdata" // the company time zone must load in a minimal container

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/telemetry"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
)

const name = "timekeeping"

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
	// EmployeeInternalURL is the employee service's internal listener:
	// employees, their schedules and departments.
	EmployeeInternalURL string `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee internal API base URL"`
	// TimeZone is the companies' time zone: it decides each punch's workday
	// and the local times of reports.
	TimeZone string `conf:"env:COMPANY_TIME_ZONE,default:America/Sao_Paulo,help:IANA time zone of the companies"`
}

// Validate checks what conf's tags cannot, so that a bad URL or zone
// stops the start-up instead of failing every request.
func (c *Config) Validate() error {
	u, err := url.Parse(c.EmployeeInternalURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("EMPLOYEE_INTERNAL_URL %q: want an http(s) URL", c.EmployeeInternalURL)
	}
	// "Local" would follow the container's zone, and PostgreSQL, which
	// computes the reports' local times, does not know that name.
	if _, err := time.LoadLocation(c.TimeZone); err != nil || c.TimeZone == "" || c.TimeZone == "Local" {
		return fmt.Errorf("COMPANY_TIME_ZONE %q: want an IANA time zone such as America/Sao_Paulo", c.TimeZone)
	}
	return nil
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration

	cfg := Config{Version: conf.Version{Build: build, Desc: "ponto " + name}}
	if err := service.Configure(&cfg, &cfg.Log, log, level); err != nil {
		return err
	}
	migrations, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return err
	}

	switch cmd := cfg.Args.Num(0); cmd {
	case "":
	case "migrate":
		log.Info("migrating database")
		return database.Migrate(ctx, cfg.DB.URL, migrations)
	default:
		return fmt.Errorf("unknown command %q (known: migrate)", cmd)
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

	db, err := database.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	defer db.Close()

	verifier, err := jwtauth.NewVerifier(ctx, cfg.JWT)
	if err != nil {
		return err
	}
	zone, err := time.LoadLocation(cfg.TimeZone)
	if err != nil {
		return err
	}
	employees := employee.New(cfg.EmployeeInternalURL)

	// -------------------------------------------------------------------------
	// Servers

	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "postgres", Ping: database.Ping(db)},
	)
	mountRoutes(srv, verifier, db, employees, clock.New(zone, time.Now))
	return srv.Run(ctx)
}
