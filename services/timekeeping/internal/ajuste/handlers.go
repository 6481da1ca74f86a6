package ajuste

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// listStatus maps the status query of the adjustments list to the stored
// status.
var listStatus = map[string]string{
	"pendente":  registro.StatusSolicitado,
	"aprovado":  registro.StatusAprovado,
	"reprovado": registro.StatusReprovado,
}

// Workdays place an instant in an employee's workday (his zone and
// schedule: employee.Client and fuso.Zones).
type Workdays interface {
	Jornada(ctx context.Context, empresaID, funcionarioID int64, t time.Time) (time.Time, error)
}

// Handlers serve the adjustment routes.
type Handlers struct {
	store     *Store
	registros *registro.Store
	clock     *clock.Clock
	workdays  Workdays
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, registros *registro.Store, clk *clock.Clock, workdays Workdays) *Handlers {
	return &Handlers{store: store, registros: registros, clock: clk, workdays: workdays}
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	funcionario := jwtauth.RequireRole(jwtauth.RoleFuncionario)
	empresa := jwtauth.RequireRole(jwtauth.RoleEmpresa)
	r.Put("/registropontos/solicitar/:registroId", funcionario, h.request)
	r.Get("/registropontos/ajustes", empresa, h.list)
	r.Put("/registropontos/:registroId/aprovar", empresa, h.decide(true))
	r.Put("/registropontos/:registroId/reprovar", empresa, h.decide(false))
}

// request is PUT /registropontos/solicitar/{registroId}
// {"dataSolicitar", "funcionarioId", "motivo"}: 200 {}. Order of checks:
// 400 (path, body), 403 (another employee's funcionarioId), 404 (not his
// record), 409 (an absence), 400 (dataSolicitar not on the punch's
// workday, or in the future), 409 (a pending or approved adjustment).
func (h *Handlers) request(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "registroId")
	if err != nil {
		return err
	}
	var in solicitarInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	req, err := in.check()
	if err != nil {
		return err
	}
	if err := request.SameFuncionario(caller, in.FuncionarioID); err != nil {
		return err
	}
	now := h.clock.Now()
	workday, err := h.workdays.Jornada(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, req.DataSolicitar)
	if err != nil {
		return err
	}
	fits := func(jornada time.Time) error {
		return fitsPunch(req.DataSolicitar, jornada, workday, now)
	}
	if err := h.store.Request(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, id, req, now, fits); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// decide is PUT /registropontos/{registroId}/aprovar and /reprovar: 200
// with the record in its new state; 404 for another company's record, 409
// without a pending request.
func (h *Handlers) decide(aprovar bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, id, err := request.On(c, "registroId")
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		if err := h.store.Decide(ctx, caller.EmpresaID, id, aprovar, h.clock.Now()); err != nil {
			return err
		}
		r, err := h.registros.Get(ctx, caller.EmpresaID, id)
		if err != nil {
			return err
		}
		return c.JSON(registro.Render(r))
	}
}

// list is GET /registropontos/ajustes?status=pendente|aprovado|reprovado
// (default pendente)&pagina=&tamanho=: the company's adjustments, oldest
// request first.
func (h *Handlers) list(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	q := c.Query("status", "pendente")
	status, ok := listStatus[q]
	if !ok {
		return domainerr.InvalidField("status", "use pendente, aprovado ou reprovado")
	}
	p, err := page.FromQuery(c)
	if err != nil {
		return err
	}
	items, total, err := h.store.List(c.UserContext(), caller.EmpresaID, status, p)
	if err != nil {
		return err
	}
	return c.JSON(page.NewResult(items, p, total))
}
