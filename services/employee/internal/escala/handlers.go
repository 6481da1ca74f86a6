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
// token.
func (h *Handlers) Public(r fiber.Router) {
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Post("/escalatrabalhos", empresa, h.create)
	// GET /escalatrabalhos?pagina=&tamanho=.
	r.Get("/escalatrabalhos", empresa, request.List(h.store.List))
	// GET /escalatrabalhos/{escalaId}: 404 for another company's.
	r.Get("/escalatrabalhos/:escalaId", empresa, request.Get("escalaId", h.store.Get))
}

// Internal mounts the service-to-service routes (docs/internal-api.md).
func (h *Handlers) Internal(r fiber.Router) {
	r.Get("/internal/funcionarios/:funcionarioId/escala", h.ofFuncionario)
}

// create is POST /escalatrabalhos: 200 with the schedule as sent plus id.
func (h *Handlers) create(c *fiber.Ctx) error {
	var in createInput
	if _, err := request.Body(c, &in); err != nil {
		return err
	}
	e, err := in.check()
	if err != nil {
		return err
	}
	e, err = h.store.Create(c.UserContext(), e)
	if err != nil {
		return err
	}
	return c.JSON(e)
}

// ofFuncionario is the internal GET /internal/funcionarios/{id}/escala.
func (h *Handlers) ofFuncionario(c *fiber.Ctx) error {
	id, err := request.ID(c, "funcionarioId")
	if err != nil {
		return err
	}
	e, err := h.store.OfFuncionario(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(e)
}
