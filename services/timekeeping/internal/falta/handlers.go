package falta

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve marcar-falta.
type Handlers struct {
	store     *Store
	employees *employee.Client
	clock     *clock.Clock
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, employees *employee.Client, clk *clock.Clock) *Handlers {
	return &Handlers{store: store, employees: employees, clock: clk}
}

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/:funcionarioId/marcar-falta/:data", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.marcar)
}

// marcar is POST /registropontos/{funcionarioId}/marcar-falta/{data}: 200
// with the absence record, the same one on every repeat. 400 for a bad id
// or date (not YYYY-MM-DD, or after today in the company's time zone), 404
// for another company's employee, 409 when the day has punches, 503 when
// the employee service is down.
func (h *Handlers) marcar(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	id, err := request.ID(c, "funcionarioId")
	if err != nil {
		return err
	}
	data, err := request.Date(c.Params("data"), "data")
	if err != nil {
		return err
	}
	if data.After(h.clock.Today()) {
		return apierr.Invalid(map[string]string{"data": "não é possível marcar falta em data futura"})
	}
	ctx := c.UserContext()
	if _, err := h.employees.Funcionario(ctx, caller.EmpresaID, id); err != nil {
		return err
	}
	r, err := h.store.Marcar(ctx, Falta{EmpresaID: caller.EmpresaID, FuncionarioID: id, Data: data,
		InicioDia: h.clock.StartOfDay(data)}, h.clock.Now())
	if err != nil {
		return err
	}
	return c.JSON(registro.Render(r))
}
