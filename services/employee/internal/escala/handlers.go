package escala

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
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
	r.Get("/escalatrabalhos", empresa, h.list)
	r.Get("/escalatrabalhos/:escalaId", empresa, h.get)
}

// Internal mounts the service-to-service routes (docs/internal-api.md).
func (h *Handlers) Internal(r fiber.Router) {
	r.Get("/internal/funcionarios/:funcionarioId/escala", h.ofFuncionario)
}

// create is POST /escalatrabalhos: 200 with the schedule as sent plus id.
func (h *Handlers) create(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	var in createInput
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	if err := request.SameEmpresa(caller, in.EmpresaID); err != nil {
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

// get is GET /escalatrabalhos/{escalaId}: 404 for another company's.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	id, err := request.ID(c, "escalaId")
	if err != nil {
		return err
	}
	e, err := h.store.Get(c.UserContext(), caller.EmpresaID, id)
	if err != nil {
		return err
	}
	return c.JSON(e)
}

// list is GET /escalatrabalhos?pagina=&tamanho=.
func (h *Handlers) list(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	p, err := page.FromQuery(c)
	if err != nil {
		return err
	}
	items, total, err := h.store.List(c.UserContext(), caller.EmpresaID, p)
	if err != nil {
		return err
	}
	return c.JSON(page.NewResult(items, p, total))
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
