// Package empresas holds the company routes: registration (POST
// /empresas, with its Stripe customer and subscription), the company's
// own view and settings (GET and PATCH /empresas/me), the admin listing and blocking under
// /admin/empresas, and the internal API auth calls to check company
// credentials. Each route's handler is in the file named after it;
// rules.go validates the registration, store.go holds the SQL.
package empresas

import (
	"context"
	"log/slog"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/services/company-billing/internal/plans"
	"github.com/ponto/ponto/services/company-billing/internal/stripebilling"
)

// TokenRevoker revokes the tokens of a company and its employees (auth's
// internal API: services/auth/internalapi's Client).
type TokenRevoker interface {
	RevokeEmpresa(ctx context.Context, empresaID int64) error
}

// Service holds what the routes need.
type Service struct {
	Store  *Store
	Stripe *stripebilling.Client
	Plans  plans.Catalog
	Auth   TokenRevoker
	Log    *slog.Logger
	// Config holds the default time zone of new companies.
	Config Config
	// Clock tells today's date, which a company's opening date may not
	// pass.
	Clock *clock.Clock
	// RegistrationLimit bounds POST /empresas per client address (nil:
	// no limit).
	RegistrationLimit fiber.Handler
	// LoginLimit spends one internal login of an e-mail's budget (nil: no
	// limit); its error is the answer.
	LoginLimit func(ctx context.Context, email string) error
}

// LoginLimit is the Service's LoginLimit on l: limit per normalised
// e-mail, failing closed (an unlimited login helps guessing).
func LoginLimit(l *ratelimit.Limiter, limit ratelimit.Limit) func(context.Context, string) error {
	return func(ctx context.Context, email string) error {
		key := ratelimit.EmailKey(strings.ToLower(strings.TrimSpace(email)))
		return l.AllowAll(ctx, ratelimit.FailClosed, ratelimit.Check{Name: "login:email", Limit: limit, Key: key})
	}
}

// Public registers the public routes on r: registration without a token,
// the others behind the verifier and a role (the table is in the
// service's routes.go).
func (s *Service) Public(r fiber.Router, v *jwtauth.Verifier) {
	if s.RegistrationLimit != nil {
		r.Post("/empresas", s.RegistrationLimit, s.create)
	} else {
		r.Post("/empresas", s.create)
	}
	me := r.Group("/empresas/me", v.Middleware(), jwtauth.RequireRole(jwtauth.RoleEmpresa))
	me.Get("", s.me)
	me.Patch("", s.update)

	admin := r.Group("/admin/empresas", v.Middleware(), jwtauth.RequireRole(jwtauth.RoleAdmin))
	admin.Get("", s.list)
	admin.Put("/:empresaId/bloquear", s.bloquear)
	admin.Put("/:empresaId/desbloquear", s.desbloquear)
}

// Internal registers the internal API on r, each route behind the
// service tokens of its callers.
func (s *Service) Internal(r fiber.Router, v *jwtauth.Verifier) {
	r.Post("/internal/empresas/login", v.Services("auth"), s.login)
	r.Get("/internal/empresas/:empresaId", v.Services("auth", "timekeeping"), s.get)
}
