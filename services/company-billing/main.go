// Command company-billing registers companies, keeps their plans and Stripe subscriptions, and answers auth's credential checks over the internal API.
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
	authapi "github.com/ponto/ponto/services/auth/internalapi"
	"github.com/ponto/ponto/services/company-billing/internal/empresas"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
	"github.com/ponto/ponto/services/company-billing/internal/webhooks"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
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
	// Empresas holds the default time zone of new companies
	// (COMPANY_TIME_ZONE).
	Empresas empresas.Config
	// AuthInternalURL is auth's internal API, called to revoke the tokens
	// of a blocked company.
	AuthInternalURL svcclient.URL `conf:"env:AUTH_INTERNAL_URL,default:http://127.0.0.1:9081"`
	// Redis keeps the rate limits every replica shares (REDIS_ADDR...).
	Redis redisclient.Config
	// Rate: RATE_PER_IP (webhooks) and RATE_PER_TOKEN.
	Rate ratelimit.Config
	// RegistrationRate is each client address's budget of POST /empresas,
	// which creates a Stripe customer and subscription each time.
	RegistrationRate ratelimit.Rate `conf:"env:RATE_REGISTRATION,default:20/min,help:company registrations per client IP (N/s, N/min or N/h)"`
	// Outbox delivers the REP events (company registered, identification
	// changed) to timekeeping: TIMEKEEPING_INTERNAL_URL, OUTBOX_*.
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
	verifier, rdb, limits := guards.Verifier, guards.Redis, guards.Limits
	// Registration fails closed: without Redis nothing would bound the
	// Stripe objects an address can make.
	registrationLimit, err := limits.PerIP("cadastro", cfg.RegistrationRate, ratelimit.FailClosed)
	if err != nil {
		return err
	}
	webhookLimit, err := limits.PerIP("webhooks", cfg.Rate.PerIP, ratelimit.FailOpen)
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
		Config: cfg.Empresas,
		Clock:  clock.New(time.Now),

		RegistrationLimit: registrationLimit,
	}

	// -------------------------------------------------------------------------
	// Servers

	// Stripe is not a readiness check: an outage there fails registration
	// only (with a 502), and taking the pods out would fail every route.
	srv := httpserver.New(name, cfg.HTTP, log,
		httpserver.Check{Name: "postgres", Ping: database.Ping(db)},
	)
	srv.Public.Use("/webhooks", webhookLimit)
	mountRoutes(srv, verifier, db, companies, webhooks.New(cfg.Stripe.WebhookSecret, db, log))
	srv.Metrics.MustRegister(redisclient.Collector(rdb))

	outbox.NewRelay(db, name, cfg.Outbox, timekeepingapi.NewSender(cfg.Outbox), log).Start(ctx, srv.Metrics.MustRegister)
	return srv.Run(ctx)
}
