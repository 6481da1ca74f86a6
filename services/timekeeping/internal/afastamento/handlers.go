package afastamento

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the leave routes.
type Handlers struct {
	Store    *Store
	Workdays fuso.Workdays
	Clock    *clock.Clock
	// Documentos keeps the documents' bytes (the media service); nil: the
	// document routes answer 503.
	Documentos Documentos
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	both := jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleFuncionario)
	r.Post("/registropontos/funcionario/:funcionarioId/afastamentos", request.Empresa, h.create)
	r.Get("/registropontos/funcionario/:funcionarioId/afastamentos", both, request.AnswerOn("funcionarioId", h.list))
	r.Get("/registropontos/afastamentos", request.Empresa, request.Answer(h.company))
	r.Put("/registropontos/afastamentos/:afastamentoId", request.Empresa, request.AnswerOn("afastamentoId", h.change))
	r.Post("/registropontos/afastamentos/:afastamentoId/cancelar", request.Empresa,
		request.AnswerReasoned("afastamentoId", h.cancel))
	r.Post("/registropontos/afastamentos/:afastamentoId/documento", request.Empresa,
		request.AnswerOn("afastamentoId", h.upload))
	r.Get("/registropontos/afastamentos/:afastamentoId/documento", both, h.download)
}

type input struct {
	Tipo   *string `json:"tipo"`
	Inicio *string `json:"inicio"`
	Fim    *string `json:"fim"`
	Motivo *string `json:"motivo" text:"multiline"`
}

// check validates the body: a known tipo, inicio and fim YYYY-MM-DD, the
// core's rules (core.Afastamento.Valida), a motivo.
func (in input) check(v validate.Errors) novo {
	var n novo
	n.leave.Inicio = request.RequiredDate(v, in.Inicio, "inicio")
	n.leave.Fim = request.RequiredDate(v, in.Fim, "fim")
	n.motivo = request.Motivo(v, in.Motivo, "motivo")
	if in.Tipo != nil {
		n.leave.Tipo = *in.Tipo
	}
	if _, ok := core.RegraAfastamento(n.leave.Tipo); !ok {
		v.Check(false, "tipo", "use "+strings.Join(core.TiposAfastamento, ", "))
	} else if len(v) == 0 {
		if err := n.leave.Valida(); err != nil {
			v.Check(false, err.Campo, err.Mensagem)
		}
	}
	return n
}

// create is POST /registropontos/funcionario/{funcionarioId}/afastamentos
// {"tipo","inicio","fim","motivo"}: 201 the leave. 400 (body; before the
// keeping period), 404 (not the company's employee), 409 (closed period,
// afastamento_sobreposto, doacao_sangue_no_periodo, fora_do_vinculo).
func (h *Handlers) create(c *fiber.Ctx) error {
	var in input
	e, err := request.ReadEntry(c, h.Workdays, &in, func(v validate.Errors) novo { return in.check(v) })
	if err != nil {
		return err
	}
	n := e.Body
	if err := h.checkRange(n.leave, e.Zone); err != nil {
		return err
	}
	for _, d := range []time.Time{n.leave.Inicio, n.leave.Fim} {
		if err := fuso.Vinculo(e.Funcionario, d); err != nil {
			return err
		}
	}
	n.empresaID, n.funcionarioID, n.autor = e.Caller.EmpresaID, e.ID, e.Caller.EmpresaID
	a, err := h.Store.create(c.UserContext(), n, h.Clock.Now())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(a)
}

// checkRange refuses a leave starting before the keeping period (5
// years) or more than a year ahead.
func (h *Handlers) checkRange(a core.Afastamento, zone *time.Location) error {
	today := h.Clock.Today(zone)
	if a.Inicio.Before(today.AddDate(-5, 0, 0)) || a.Inicio.After(today.AddDate(1, 0, 0)) {
		return domainerr.InvalidField("inicio", "o início deve estar entre o prazo legal de guarda (5 anos) e um ano à frente")
	}
	return nil
}

// list is GET /registropontos/funcionario/{funcionarioId}/afastamentos
// ?inicio=&fim=: {"itens"} the employee's leaves touching the period
// (default: the two years around today), cancelled ones with their
// cancellation, latest first. The company sees its employees', an
// employee only his own (404 otherwise, as for another company's).
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (fiber.Map, error) {
	if caller.Role == jwtauth.RoleFuncionario && caller.FuncionarioID != id {
		return nil, domainerr.NotFound("funcionário não encontrado")
	}
	ctx := c.UserContext()
	_, zone, err := h.Workdays.Funcionario(ctx, caller.EmpresaID, id)
	if err != nil {
		return nil, err
	}
	inicio, fim, err := period(c, h.Clock.Today(zone))
	if err != nil {
		return nil, err
	}
	itens, err := h.Store.List(ctx, caller.EmpresaID, id, inicio, fim)
	return fiber.Map{"itens": itens}, err
}

// period reads inicio and fim (both or neither; at most 2 years + 1 day);
// without them, the year before and the year after today.
func period(c *fiber.Ctx, today time.Time) (time.Time, time.Time, error) {
	if c.Query("inicio") == "" && c.Query("fim") == "" {
		return today.AddDate(-1, 0, 0), today.AddDate(1, 0, 0), nil
	}
	return request.Period(c, today, core.MaxDiasAfastamento+1)
}

// company is GET /registropontos/afastamentos?inicio=&fim=: {"itens"} the
// standing leaves of all the company's employees touching the period
// (default this month, at most 366 days), by start: the calendar of the
// console's department page, which groups them by employee.
func (h *Handlers) company(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	ctx := c.UserContext()
	zone, err := h.Workdays.Zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return nil, err
	}
	inicio, fim, err := request.Period(c, h.Clock.Today(zone), 366)
	if err != nil {
		return nil, err
	}
	itens, err := h.Store.Company(ctx, caller.EmpresaID, inicio, fim)
	return fiber.Map{"itens": itens}, err
}

// change is PUT /registropontos/afastamentos/{afastamentoId}
// {"tipo","inicio","fim","motivo"}: 200 the leave changed, the old values
// kept in the history. 400 (body), 404 (another company's), 409
// (cancelled, a closed day before or after, a conflict).
func (h *Handlers) change(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Afastamento, error) {
	var in input
	if err := request.DecodeJSON(c, &in); err != nil {
		return Afastamento{}, err
	}
	v := validate.Errors{}
	n := in.check(v)
	if err := v.Err(); err != nil {
		return Afastamento{}, err
	}
	ctx := c.UserContext()
	zone, err := h.Workdays.Zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return Afastamento{}, err
	}
	if err := h.checkRange(n.leave, zone); err != nil {
		return Afastamento{}, err
	}
	n.empresaID, n.autor = caller.EmpresaID, caller.EmpresaID
	return h.Store.change(ctx, id, n, h.Clock.Now())
}

// cancel is POST /registropontos/afastamentos/{afastamentoId}/cancelar
// {"motivo"}: 200 the leave with its cancellation; 404 another company's,
// 409 already cancelled or in a closed period.
func (h *Handlers) cancel(c *fiber.Ctx, caller *jwtauth.Claims, id int64, motivo string) (Afastamento, error) {
	return h.Store.cancel(c.UserContext(), caller.EmpresaID, id, caller.EmpresaID, motivo, h.Clock.Now())
}
