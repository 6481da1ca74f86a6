package escala

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"

	"github.com/ponto/ponto/services/employee/internal/request"
)

// Handlers serve the schedule routes.
type Handlers struct{ store *Store }

// NewHandlers returns the handlers over store.
func NewHandlers(store *Store) *Handlers { return &Handlers{store: store} }

// Public mounts the company routes on r, which must already verify the
// token: POST /escalatrabalhos (200 with the schedule as sent plus id; the
// body names its company), GET /escalatrabalhos?pagina=&tamanho= and GET
// /escalatrabalhos/{escalaId} (404 for another company's).
func (h *Handlers) Public(r fiber.Router) {
	check := func(in createInput, _ int64) (Escala, error) { return in.check() }
	request.Collection(r, "/escalatrabalhos", "escalaId", request.Create(check, h.store.Create), h.store.List, h.store.Get)
}

// Internal mounts the service-to-service routes (docs/internal-api.md).
func (h *Handlers) Internal(r fiber.Router, v *jwtauth.Verifier) {
	// GET /internal/funcionarios/{id}/escala: the employee's schedule.
	r.Get("/internal/funcionarios/:funcionarioId/escala", v.Services("timekeeping"), request.ByID("funcionarioId", h.store.OfFuncionario))
}
