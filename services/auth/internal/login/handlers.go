// Package login serves the login routes: POST /auth/login (companies and
// admins, e-mail and password), POST /auth/login/funcionario/codigo (an
// employee asks for a one-time code by e-mail) and
// POST /auth/login/funcionario (an employee logs in with that code).
package login

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/services/auth/internal/accounts"
	"github.com/ponto/ponto/services/auth/internal/clients/companybilling"
	"github.com/ponto/ponto/services/auth/internal/clients/employee"
	"github.com/ponto/ponto/services/auth/internal/codes"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

// Limits are the per-minute budgets of every login route, per client IP
// and per e-mail, plus the hourly budget of code e-mails per address,
// which bounds how many guesses one can make at a code (tries per code ×
// codes per hour).
type Limits struct {
	PerIP        int
	PerEmail     int
	CodesPerHour int
}

// Handlers holds what the login routes need.
type Handlers struct {
	Admins    accounts.Admins
	Companies *companybilling.Client
	Employees *employee.Client
	Gate      *accounts.Gate
	Issuer    *tokens.Issuer
	Codes     *codes.Store
	Mail      mail.Sender
	Limiter   *ratelimit.Limiter
	Limits    Limits
	Log       *slog.Logger

	bg *background
}

// New returns the handlers; Drain must be called on shutdown so that code
// e-mails being sent are not cut off.
func New(h Handlers) *Handlers {
	h.bg = newBackground(h.Log, backgroundSlots, backgroundTimeout)
	return &h
}

// Routes registers the routes on the /auth group.
func (h *Handlers) Routes(r fiber.Router) {
	r.Post("/login", h.loginEmpresa)
	r.Post("/login/funcionario/codigo", h.requestCode)
	r.Post("/login/funcionario", h.loginFuncionario)
}

// Drain waits up to timeout for background code deliveries to finish.
func (h *Handlers) Drain(timeout time.Duration) { h.bg.drain(timeout) }

// loginAnswer is the 200 of every login route.
type loginAnswer struct {
	Token        string `json:"token"`
	RefreshToken string `json:"refreshToken"`
	User         any    `json:"user"`
}

// limit applies the route's per-IP and per-e-mail budgets. The IP is the
// client's as the trusted proxies report it (HTTP_TRUSTED_PROXIES): behind
// the Ingress, c.IP() would be the proxy and put every client under one
// budget.
func (h *Handlers) limit(c *fiber.Ctx, route, email string, extra ...ratelimit.Check) error {
	checks := append([]ratelimit.Check{
		{Name: route + ":ip", Limit: ratelimit.PerMinute(h.Limits.PerIP), Key: ratelimit.IPKey(httpserver.ClientIP(c))},
		{Name: route + ":email", Limit: ratelimit.PerMinute(h.Limits.PerEmail), Key: ratelimit.EmailKey(email)},
	}, extra...)
	// Fail closed: an unlimited login route helps guessing more than an
	// unavailable one hurts.
	return h.Limiter.AllowAll(c.UserContext(), ratelimit.FailClosed, checks...)
}
