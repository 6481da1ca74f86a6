// Command timekeeping records punches (append-only, with NSR and hash chain), adjustments, absences and department reports.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"time"
	_ "time/tzdata" // the company time zone must load in a minimal container

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/telemetry"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/afd"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/empresa"
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
	EmployeeInternalURL svcclient.URL `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee internal API base URL"`
	// CompanyBillingInternalURL is company-billing's internal listener:
	// the employer's legal name and CNPJ for the AFD, receipts and
	// timesheets.
	CompanyBillingInternalURL svcclient.URL `conf:"env:COMPANY_BILLING_INTERNAL_URL,default:http://127.0.0.1:9082,help:company-billing internal API base URL"`
	// REPINPI is the REP-P program's registration number at INPI (up to
	// 17 digits), printed in every AFD header and punch receipt.
	REPINPI string `conf:"env:REP_INPI,help:INPI registration number of the REP-P program (up to 17 digits)"`
	// REPDesenvolvedor is the CNPJ (or CPF) of the REP-P's developer, in
	// every AFD header.
	REPDesenvolvedor string `conf:"env:REP_DESENVOLVEDOR,help:CNPJ or CPF of the REP-P developer"`
	// TimeZone is the companies' time zone: it decides each punch's workday
	// and the local times of reports.
	TimeZone string `conf:"env:COMPANY_TIME_ZONE,default:America/Sao_Paulo,help:IANA time zone of the companies"`
	// EmployeeCacheTTL is how long a clock-in keeps an employee record it
	// fetched, and so how late it sees a deactivation or a new name or CPF
	// made in the employee service (see employee.Cached); 0 fetches on
	// every punch.
	EmployeeCacheTTL time.Duration `conf:"env:EMPLOYEE_CACHE_TTL,default:30s,help:how long clock-ins reuse an employee record (0: no cache)"`
	// LocaisCacheTTL is how long the geofence check keeps a company's work
	// places: a change made through another replica counts there that much
	// later (this replica's own changes at once); 0 queries on every punch.
	LocaisCacheTTL time.Duration `conf:"env:LOCAIS_CACHE_TTL,default:10s,help:how long clock-ins reuse a company's work places (0: no cache)"`
}

// Validate checks what conf's tags cannot, so that a bad zone or REP identity
// stops the start-up instead of failing every request.
func (c *Config) Validate() error {
	if !validate.Digits(c.REPINPI, 0, 17) {
		return fmt.Errorf("REP_INPI %q: want up to 17 digits", c.REPINPI)
	}
	if d := c.REPDesenvolvedor; d != "" && !brdocs.ValidCNPJ(d) && !brdocs.ValidCPF(d) {
		return fmt.Errorf("REP_DESENVOLVEDOR %q: want a valid CNPJ or CPF", d)
	}
	// "Local" would follow the container's zone, and PostgreSQL, which
	// computes the reports' local times, does not know that name.
	if _, err := time.LoadLocation(c.TimeZone); err != nil || c.TimeZone == "" || c.TimeZone == "Local" {
		return fmt.Errorf("COMPANY_TIME_ZONE %q: want an IANA time zone such as America/Sao_Paulo", c.TimeZone)
	}
	for name, ttl := range map[string]time.Duration{"EMPLOYEE_CACHE_TTL": c.EmployeeCacheTTL,
		"LOCAIS_CACHE_TTL": c.LocaisCacheTTL} {
		if ttl < 0 {
			return fmt.Errorf("%s %s: want 0 (no cache) or more", name, ttl)
		}
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
	deps := dependencies{
		db:        db,
		employees: employee.New(string(cfg.EmployeeInternalURL)),
		companies: empresa.New(string(cfg.CompanyBillingInternalURL)),
		clock:     clock.New(zone, time.Now),
		rep:       afd.REP{INPI: cfg.REPINPI, Desenvolvedor: cfg.REPDesenvolvedor},

		employeeCacheTTL: cfg.EmployeeCacheTTL,
		locaisCacheTTL:   cfg.LocaisCacheTTL,
	}

	// -------------------------------------------------------------------------
	// Servers

	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "postgres", Ping: database.Ping(db)},
	)
	mountRoutes(srv, verifier, deps)
	return srv.Run(ctx)
}
