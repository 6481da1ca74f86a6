// Command company-billing registers companies, keeps their plans and Stripe subscriptions, and answers auth's credential checks over the internal API.
package main

import (
	"context"
	"embed"
	"log/slog"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/service"
	"github.com/ponto/ponto/pkg/svcclient"
	authapi "github.com/ponto/ponto/services/auth/internalapi"
	"github.com/ponto/ponto/services/company-billing/internal/empresas"
	"github.com/ponto/ponto/services/company-billing/internal/estabelecimentos"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
	"github.com/ponto/ponto/services/company-billing/internal/webhooks"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
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
	// Backend: LOG_*, HTTP_*, DB_*, JWT_* (auth's JWKS) and REDIS_*.
	service.Backend
	// Rate: RATE_PER_IP (webhooks) and RATE_PER_TOKEN.
	Rate ratelimit.Config
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
	// EmployeeInternalURL is employee's internal API, asked how many
	// active employees an establishment has before it is deactivated.
	EmployeeInternalURL svcclient.URL `conf:"env:EMPLOYEE_INTERNAL_URL,default:http://127.0.0.1:9083,help:employee internal API base URL"`
	// RegistrationRate is each client address's budget of POST /empresas,
	// which creates a Stripe customer and subscription each time.
	RegistrationRate ratelimit.Rate `conf:"env:RATE_REGISTRATION,default:20/min,help:company registrations per client IP (N/s, N/min or N/h)"`
	// LoginRate is each e-mail's budget of the internal company login,
	// whoever calls it: auth's own login limits do not cover a caller that
	// reaches the internal route by itself.
	LoginRate ratelimit.Rate `conf:"env:RATE_LOGIN_PER_EMAIL,default:10/min,help:internal company logins per e-mail (N/s, N/min or N/h)"`
	// Outbox delivers the REP events (company registered, identification
	// changed) to timekeeping: TIMEKEEPING_INTERNAL_URL, OUTBOX_*.
	Outbox outbox.Config
}

func main() { service.Main(name, run) }

func run(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error {
	// -------------------------------------------------------------------------
	// Configuration, telemetry and dependencies

	var cfg Config
	deps, closeDeps, err := service.StartBackend(ctx, name, build, &cfg, &cfg.Backend, &cfg.Rate, migrationFiles, log, level)
	if err != nil {
		return err
	}
	defer closeDeps()
	// Registration fails closed: without Redis nothing would bound the
	// Stripe objects an address can make.
	registrationLimit, err := deps.Limits.PerIP("cadastro", cfg.RegistrationRate, ratelimit.FailClosed)
	if err != nil {
		return err
	}
	webhookLimit, err := deps.Limits.PerIP("webhooks", cfg.Rate.PerIP, ratelimit.FailOpen)
	if err != nil {
		return err
	}
	loginLimit, err := cfg.LoginRate.Limit()
	if err != nil {
		return err
	}
	tokens, err := cfg.Tokens(name, cfg.AuthInternalURL)
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
		Store:  empresas.NewStore(deps.DB),
		Stripe: stripebilling.New(cfg.Stripe, log),
		Plans:  catalog,
		Auth:   authapi.New(string(cfg.AuthInternalURL), tokens),
		Log:    log,
		Config: cfg.Empresas,
		Clock:  clock.New(time.Now),

		RegistrationLimit: registrationLimit,
		LoginLimit:        empresas.LoginLimit(deps.Limits, loginLimit),
	}

	// -------------------------------------------------------------------------
	// Servers

	// Stripe is not a readiness check: an outage there fails registration
	// only (with a 502), and taking the pods out would fail every route.
	srv := deps.Server(name, cfg.HTTP, log)
	srv.Public.Use("/webhooks", webhookLimit)
	establishments := &estabelecimentos.Handlers{Store: estabelecimentos.NewStore(deps.DB),
		Funcionarios: employeeapi.New(string(cfg.EmployeeInternalURL), tokens), Log: log}
	mountRoutes(srv, deps.Verifier, deps.DB, companies, establishments, webhooks.New(cfg.Stripe.WebhookSecret, deps.DB, log))

	// The relay reads a table the migrate Job may not have made yet.
	deps.Schema.Go(ctx, deps.DB, func() {
		outbox.NewRelay(deps.DB, name, cfg.Outbox, timekeepingapi.NewSender(cfg.Outbox, tokens), log).Start(ctx, srv.Metrics.MustRegister)
	})
	return srv.Run(ctx)
}
