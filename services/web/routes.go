package main

import (
	"context"
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/assets"
	"github.com/ponto/ponto/services/web/internal/pages"
	"github.com/ponto/ponto/services/web/internal/session"
)

// newServer builds the listeners: the pages on the public one. Readiness
// is the web pods' own: the API's reachability shows in /readyz as a
// warning ("api: aviso: ...") and in the log, never failing it, so that a
// blink of the API does not take every web pod out at once (its pages
// then say the service is unavailable).
//
// Public: the static assets (/static/...) and the pages, registered by
// pages.Routes (pages.go, employee.go, company.go) and listed in README.md,
// "Pages"; every other path answers the not-found page.
//
// Internal: none (the web client has no internal API; the internal
// listener serves only the probes and metrics every service has).
func newServer(cfg Config, log *slog.Logger, key []byte, limit, loginLimit fiber.Handler, clk *clock.Clock) (*httpserver.Server, error) {
	a, err := assets.Load()
	if err != nil {
		return nil, err
	}
	cookie := "ponto"
	if cfg.Web.SecureCookies {
		cookie = "__Host-ponto"
	}
	codec, err := session.NewCodec(key, cookie, cfg.Web.SessionTTL, clk)
	if err != nil {
		return nil, err
	}
	client := api.New(cfg.Web.APIURL, cfg.Web.APITimeout)
	if client.Routes, err = api.ParseRoutes(cfg.Web.APIRoutes); err != nil {
		return nil, err
	}
	p, err := pages.New(pages.Config{SecureCookies: cfg.Web.SecureCookies, DefaultTZ: cfg.Web.TimeZone, Plans: plans(cfg.Web.Plans), LimitPosts: limit, LimitLogins: loginLimit},
		client, codec, clk, a, log)
	if err != nil {
		return nil, err
	}
	srv := httpserver.New(name, cfg.HTTP, log, httpserver.Check{Name: "api", Ping: warnOnly(client.Ping)})
	p.Routes(srv.Public)
	return srv, nil
}

// warnOnly turns ping's failures into warnings: shown and logged by
// /readyz, which stays 200.
func warnOnly(ping func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		if err := ping(ctx); err != nil {
			return httpserver.Warning("API inacessível: " + err.Error())
		}
		return nil
	}
}
