package main

import (
	"io"
	"io/fs"
	"log/slog"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/httpserver/servertest"
	"github.com/ponto/ponto/pkg/jwtauth/jwttest"
	authapi "github.com/ponto/ponto/services/auth/internalapi"
	"github.com/ponto/ponto/services/company-billing/internal/empresas"
	"github.com/ponto/ponto/services/company-billing/internal/estabelecimentos"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
	"github.com/ponto/ponto/services/company-billing/internal/stripetest"
	"github.com/ponto/ponto/services/company-billing/internal/webhooks"
)

// TestMetricsScrapeAfterBurst serves every route as run mounts them and,
// after each is asked without a token, as a company and as an admin,
// checks that /metrics answers and parses (pkg/httpserver/servertest).
func TestMetricsScrapeAfterBurst(t *testing.T) {
	migrations, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, migrations)
	iss := jwttest.NewIssuer(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	catalog, err := plans.Parse("basic:price_1basic:30")
	if err != nil {
		t.Fatal(err)
	}
	companies := &empresas.Service{
		Store: empresas.NewStore(db),
		Stripe: stripebilling.New(stripebilling.Config{
			APIURL: stripetest.MockURL(t), SecretKey: stripetest.Key, Timeout: 5 * time.Second,
		}, log),
		Plans: catalog,
		Auth:  authapi.New("http://127.0.0.1:1"),
		Log:   log,
		Clock: clock.New(time.Now),
	}
	srv := httpserver.New(name, httpserver.Config{
		ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
		RequestTimeout: 10 * time.Second, ShutdownTimeout: 5 * time.Second, ReadyTimeout: time.Second,
		BodyLimit: 1 << 20,
	}, log)
	establishments := &estabelecimentos.Handlers{Store: estabelecimentos.NewStore(db), Log: log}
	mountRoutes(srv, iss.NewVerifier(t), db, companies, establishments, webhooks.New("whsec_teste", db, log))
	r := servertest.Start(t, srv)

	r.CheckMetricsAfterBurst(t, nil)
	r.CheckMetricsAfterBurst(t, servertest.Bearer(iss.Empresa(t, 1)))
	families := r.CheckMetricsAfterBurst(t, servertest.Bearer(iss.Admin(t)))
	servertest.RequireFamilies(t, families, "pgxpool_acquire_count", "pgxpool_max_conns")
}
