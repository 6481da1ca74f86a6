package ajuste

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// listStatus maps the status query of the adjustments list to the stored
// status.
var listStatus = map[string]string{
	"pendente":  core.StatusSolicitado,
	"aprovado":  core.StatusAprovado,
	"reprovado": core.StatusReprovado,
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
	r.Put("/registropontos/solicitar/:registroId", funcionario, request.AnswerOn("registroId", h.request))
	r.Get("/registropontos/ajustes", request.Empresa, request.Answer(h.list))
	r.Put("/registropontos/:registroId/aprovar", request.Empresa, request.AnswerOn("registroId", h.decide(true)))
	r.Put("/registropontos/:registroId/reprovar", request.Empresa, request.AnswerOn("registroId", h.decide(false)))
}

// request is PUT /registropontos/solicitar/{registroId}
// {"dataSolicitar", "funcionarioId", "motivo"}: 200 {}. Order of checks:
// 400 (path, body), 403 (another employee's funcionarioId), 404 (not his
// record), 409 (an absence), 400 (dataSolicitar not on the punch's
// workday, or in the future), 409 (a pending or approved adjustment).
func (h *Handlers) request(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (fiber.Map, error) {
	var in solicitarInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return nil, err
	}
	req, err := in.check()
	if err != nil {
		return nil, err
	}
	if err := request.SameFuncionario(caller, in.FuncionarioID); err != nil {
		return nil, err
	}
	now := h.clock.Now()
	workday, err := h.workdays.Jornada(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, req.DataSolicitar)
	if err != nil {
		return nil, err
	}
	fits := func(jornada time.Time) error {
		return fitsPunch(req.DataSolicitar, jornada, workday, now)
	}
	return fiber.Map{}, h.store.Request(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, id, req, now, fits)
}

// decide is PUT /registropontos/{registroId}/aprovar and /reprovar: 200
// with the record in its new state; 404 for another company's record, 409
// without a pending request.
func (h *Handlers) decide(aprovar bool) func(*fiber.Ctx, *jwtauth.Claims, int64) (registro.Record, error) {
	return func(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (registro.Record, error) {
		ctx := c.UserContext()
		if err := h.store.Decide(ctx, caller.EmpresaID, id, aprovar, h.clock.Now()); err != nil {
			return registro.Record{}, err
		}
		r, err := h.registros.Get(ctx, caller.EmpresaID, id)
		if err != nil {
			return registro.Record{}, err
		}
		return registro.Render(r), nil
	}
}

// list is GET /registropontos/ajustes?status=pendente|aprovado|reprovado
// (default pendente)&pagina=&tamanho=: the company's adjustments, oldest
// request first.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (page.Result[Item], error) {
	q := c.Query("status", "pendente")
	status, ok := listStatus[q]
	if !ok {
		return page.Result[Item]{}, domainerr.InvalidField("status", "use pendente, aprovado ou reprovado")
	}
	return request.Paged(c, func(p page.Page) ([]Item, int, error) {
		return h.store.List(c.UserContext(), caller.EmpresaID, status, p)
	})
}
