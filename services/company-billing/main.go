// Command company-billing registers companies, keeps their plans and Stripe subscriptions, and answers auth's credential checks over the internal API.
package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/ardanlabs/conf/v3"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/logging"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	"github.com/ponto/ponto/pkg/telemetry"
	"github.com/ponto/ponto/services/company-billing/internal/authapi"
	"github.com/ponto/ponto/services/company-billing/internal/empresas"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
	"github.com/ponto/ponto/services/company-billing/internal/webhooks"
)

const name = "company-billing"

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
	// JWT locates auth's JWKS (JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE...).
	JWT jwtauth.Config
	// Stripe: STRIPE_API_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET...
	Stripe stripebilling.Config
	// Billing holds the plan catalogue (BILLING_PLANS).
	Billing plans.Config
	// AuthInternalURL is auth's internal API, called to revoke the tokens
	// of a blocked company.
	AuthInternalURL svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081"`
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
	catalog, err := cfg.Billing.Catalog()
	if err != nil {
		return err
	}
	if cfg.Stripe.WebhookSecret == "" {
		log.Warn("STRIPE_WEBHOOK_SECRET is not set: Stripe webhook events are refused and assinaturaStatus is not updated")
	}
	companies := &empresas.Service{
		Store:  empresas.NewStore(db),
		Stripe: stripebilling.New(cfg.Stripe, log),
		Plans:  catalog,
		Auth:   authapi.New(string(cfg.AuthInternalURL)),
		Log:    log,
	}

	// -------------------------------------------------------------------------
	// Servers

	// Stripe is not a readiness check: an outage there fails registration
	// only (with a 502), and taking the pods out would fail every route.
	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "postgres", Ping: database.Ping(db)},
	)
	companies.Mount(srv, verifier)
	webhooks.New(cfg.Stripe.WebhookSecret, db, log).Mount(srv.Public)
	return srv.Run(ctx)
}
