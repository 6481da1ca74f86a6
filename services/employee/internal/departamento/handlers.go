package departamento

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
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
	r.Get("/departamentos", empresa, h.list)
	r.Get("/departamentos/:departamentoId", empresa, h.get)
}

// create is POST /departamentos: 200 with id and numbered segments; 409
// when the company already has a department of that name.
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

// get is GET /departamentos/{departamentoId}: 404 for another company's.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	id, err := request.ID(c, "departamentoId")
	if err != nil {
		return err
	}
	d, err := h.store.Get(c.UserContext(), caller.EmpresaID, id)
	if err != nil {
		return err
	}
	return c.JSON(d)
}

// list is GET /departamentos?pagina=&tamanho=.
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
