package departamento

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/employee/internal/request"
)

// Handlers serve the department routes. The employees of a department
// (GET /departamentos/{departamentoId}/{segmento}/funcionarios) are served
// by package funcionario.
type Handlers struct{ store *Store }

// NewHandlers returns the handlers over store.
func NewHandlers(store *Store) *Handlers { return &Handlers{store: store} }

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Post("/departamentos", empresa, h.create)
	// GET /departamentos?pagina=&tamanho=.
	r.Get("/departamentos", empresa, request.List(h.store.List))
	// GET /departamentos/{departamentoId}: 404 for another company's.
	r.Get("/departamentos/:departamentoId", empresa, request.Get("departamentoId", h.store.Get))
}

// create is POST /departamentos: 200 with id and numbered segments; 409
// when the company already has a department of that name.
func (h *Handlers) create(c *fiber.Ctx) error {
	var in createInput
	caller, err := request.Body(c, &in)
	if err != nil {
		return err
	}
	d, err := in.check(caller.EmpresaID)
	if err != nil {
		return err
	}
	d, err = h.store.Create(c.UserContext(), d)
	if err != nil {
		return err
	}
	return c.JSON(d)
}
