// Package cadeia serves a company's view of the audit of its own chains of
// REP records, one per establishment (GET /registropontos/cadeia): how
// far the periodic audit (package chainaudit) verified each, when, and
// whether it holds.
package cadeia

import (
	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/chainaudit"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the route.
type Handlers struct{ db *pgxpool.Pool }

// NewHandlers returns the handlers.
func NewHandlers(db *pgxpool.Pool) *Handlers { return &Handlers{db: db} }

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/cadeia", request.Empresa, request.Answer(h.get))
}

// get is GET /registropontos/cadeia: 200 {"ultimoNsrVerificado",
// "verificadoEm" (null before the first audit), "integra", "nsrQuebra"}
// of the caller's own company's principal chain, and "estabelecimentos":
// the same of each of its chains (one per establishment).
func (h *Handlers) get(c *fiber.Ctx, caller *jwtauth.Claims) (chainaudit.Estado, error) {
	// A database failure: the error handler makes it a 503.
	return chainaudit.Read(c.UserContext(), h.db, caller.EmpresaID)
}
