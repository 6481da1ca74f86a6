package banco

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// errNaoEncontrado answers an employee asking for another's bank, as for
// an unknown one.
var errNaoEncontrado = domainerr.NotFound("funcionário não encontrado")

// Handlers serve the hour-bank routes.
type Handlers struct {
	store    *Store
	apuracao *apuracao.Apuracao
	workdays fuso.Workdays
	clock    *clock.Clock
}

// NewHandlers returns the handlers: store holds the policies and
// movements, a computes the banks.
func NewHandlers(store *Store, a *apuracao.Apuracao, workdays fuso.Workdays, clk *clock.Clock) *Handlers {
	return &Handlers{store: store, apuracao: a, workdays: workdays, clock: clk}
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/banco-horas/politica", request.Empresa, request.Answer(h.getPolitica))
	r.Put("/registropontos/banco-horas/politica", request.Empresa, request.Answer(h.putPolitica))
	r.Get("/registropontos/funcionario/:funcionarioId/banco-horas",
		jwtauth.RequireRole(jwtauth.RoleEmpresa, jwtauth.RoleFuncionario), request.AnswerOn("funcionarioId", h.saldo))
	r.Post("/registropontos/funcionario/:funcionarioId/banco-horas/movimentos", request.Empresa, h.post)
}

// getPolitica is GET /registropontos/banco-horas/politica: 200 the
// company's policy (off, with the defaults, when never set).
func (h *Handlers) getPolitica(c *fiber.Ctx, caller *jwtauth.Claims) (Politica, error) {
	return h.store.Politica(c.UserContext(), caller.EmpresaID)
}

type politicaInput struct {
	Ativo                *bool   `json:"ativo"`
	PeriodoMeses         *int    `json:"periodoMeses"`
	Inicio               *string `json:"inicio"`
	LimiteCreditoMinutos *int    `json:"limiteCreditoMinutos"`
	LimiteDebitoMinutos  *int    `json:"limiteDebitoMinutos"`
}

// check validates the body over the defaults: on, 6 months, from the
// first day of today's month, no caps.
func (in politicaInput) check(today time.Time) (bool, core.PoliticaBanco, error) {
	ativo := in.Ativo == nil || *in.Ativo
	p := core.PoliticaBanco{PeriodoMeses: core.BancoPeriodoPadrao,
		Inicio: time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)}
	v := validate.Errors{}
	if in.PeriodoMeses != nil {
		p.PeriodoMeses = *in.PeriodoMeses
	}
	if in.Inicio != nil {
		p.Inicio = request.CheckDate(v, *in.Inicio, "inicio")
	}
	if in.LimiteCreditoMinutos != nil {
		p.LimiteCredito = *in.LimiteCreditoMinutos
	}
	if in.LimiteDebitoMinutos != nil {
		p.LimiteDebito = *in.LimiteDebitoMinutos
	}
	if len(v) == 0 {
		// Each field on its own, so each gets its message.
		base := core.PoliticaBanco{Inicio: p.Inicio, PeriodoMeses: core.BancoPeriodoPadrao}
		fields := map[string]core.PoliticaBanco{
			"periodoMeses":         {Inicio: base.Inicio, PeriodoMeses: p.PeriodoMeses},
			"inicio":               base,
			"limiteCreditoMinutos": {Inicio: base.Inicio, PeriodoMeses: base.PeriodoMeses, LimiteCredito: p.LimiteCredito},
			"limiteDebitoMinutos":  {Inicio: base.Inicio, PeriodoMeses: base.PeriodoMeses, LimiteDebito: p.LimiteDebito},
		}
		for field, x := range fields {
			if err := x.Validate(); err != nil {
				v.Check(false, field, err.Error())
			}
		}
	}
	return ativo, p, v.Err()
}

// putPolitica is PUT /registropontos/banco-horas/politica {"ativo",
// "periodoMeses", "inicio", "limiteCreditoMinutos",
// "limiteDebitoMinutos"}: 200 the policy stored; 400 a period outside 1
// to 12 months, a start that is not a month's first day, a negative or
// too large cap.
func (h *Handlers) putPolitica(c *fiber.Ctx, caller *jwtauth.Claims) (Politica, error) {
	var in politicaInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return Politica{}, err
	}
	ctx := c.UserContext()
	zone, err := h.workdays.Zones.Empresa(ctx, caller.EmpresaID)
	if err != nil {
		return Politica{}, err
	}
	ativo, p, err := in.check(h.clock.Today(zone))
	if err != nil {
		return Politica{}, err
	}
	if err := h.store.save(ctx, caller.EmpresaID, caller.EmpresaID, ativo, p, h.clock.Now()); err != nil {
		return Politica{}, err
	}
	return h.store.Politica(ctx, caller.EmpresaID)
}

// saldo is GET /registropontos/funcionario/{funcionarioId}/banco-horas
// ?ate=YYYY-MM-DD (default today, not in the future): 200 Saldo. The
// company sees its employees', an employee only his own (404 otherwise,
// as for another company's employee).
func (h *Handlers) saldo(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Saldo, error) {
	if caller.Role == jwtauth.RoleFuncionario && caller.FuncionarioID != id {
		return Saldo{}, errNaoEncontrado
	}
	ctx := c.UserContext()
	f, zone, err := h.workdays.Funcionario(ctx, caller.EmpresaID, id)
	if err != nil {
		return Saldo{}, err
	}
	today := h.clock.Today(zone)
	ate := today
	if s := c.Query("ate"); s != "" {
		d, ok := validate.DateISO(s)
		if !ok || d.Before(request.Earliest) || d.After(today) {
			return Saldo{}, domainerr.InvalidField("ate", "data inválida (use AAAA-MM-DD, de 2000-01-01 até hoje)")
		}
		ate = d
	}
	pol, err := h.store.Politica(ctx, caller.EmpresaID)
	if err != nil {
		return Saldo{}, err
	}
	escalas := map[int64]*core.Escala{}
	if pol.Ativo { // the schedule matters only to an active bank
		escala, err := h.workdays.Employees.Escala(ctx, id)
		if err != nil {
			return Saldo{}, err
		}
		if escalas, err = apuracao.EscalasOf(map[int64]employee.Escala{f.EscalaTrabalhoID: escala}); err != nil {
			return Saldo{}, err
		}
	}
	saldos, err := h.apuracao.Saldos(ctx, apuracao.Consulta{EmpresaID: caller.EmpresaID,
		Funcionarios: []employee.Funcionario{f}, Escalas: escalas,
		Banco: &apuracao.ConsultaBanco{Ate: ate, ApurarAte: today.AddDate(0, 0, -1), Politica: &pol}})
	return saldos[id], err
}

type lancarInput struct {
	Data    *string `json:"data"`
	Tipo    *string `json:"tipo"`
	Minutos *int    `json:"minutos"`
	Motivo  *string `json:"motivo" text:"multiline"`
}

// check validates the body: data, tipo (pagamento, desconto, compensacao,
// ajuste), minutos (positive; for an ajuste, signed and not zero; at
// most the largest cap) and motivo. It returns the movement with the
// sign its tipo gives.
func (in lancarInput) check(v validate.Errors) novo {
	n := novo{data: request.RequiredDate(v, in.Data, "data")}
	sign, ok := 0, false
	if in.Tipo != nil {
		sign, ok = core.SinalManual(*in.Tipo)
		n.tipo = *in.Tipo
	}
	v.Check(ok, "tipo", "use pagamento, desconto, compensacao ou ajuste")
	const max = 366 * core.LimiteExtras
	switch {
	case in.Minutos == nil:
		v.Check(false, "minutos", "campo obrigatório")
	case ok && sign == 0:
		v.Check(*in.Minutos != 0 && *in.Minutos >= -max && *in.Minutos <= max, "minutos",
			"minutos do ajuste: diferente de zero, entre -"+strconv.Itoa(max)+" e "+strconv.Itoa(max))
		n.minutos = *in.Minutos
	case ok:
		v.Check(*in.Minutos >= 1 && *in.Minutos <= max, "minutos", "minutos: de 1 a "+strconv.Itoa(max))
		n.minutos = sign * *in.Minutos
	}
	n.motivo = request.Motivo(v, in.Motivo, "motivo")
	return n
}

// post is POST /registropontos/funcionario/{funcionarioId}/banco-horas
// /movimentos: 201 the movement. 400 (body; a date in the future or
// before the bank's start), 404 (not the company's employee), 409 (the
// bank off: banco_horas_inativo; a closed period: periodo_fechado).
func (h *Handlers) post(c *fiber.Ctx) error {
	var in lancarInput
	e, err := request.ReadEntry(c, h.workdays, &in, func(v validate.Errors) novo { return in.check(v) })
	if err != nil {
		return err
	}
	ctx, n := c.UserContext(), e.Body
	pol, err := h.store.Politica(ctx, e.Caller.EmpresaID)
	if err != nil {
		return err
	}
	if !pol.Ativo {
		return ErrInativo
	}
	if n.data.After(h.clock.Today(e.Zone)) || n.data.Before(pol.Core().Inicio) {
		return domainerr.InvalidField("data", "a data deve estar entre o início do banco de horas ("+
			*pol.Inicio+") e hoje")
	}
	n.empresaID, n.funcionarioID, n.autor = e.Caller.EmpresaID, e.ID, e.Caller.EmpresaID
	out, err := h.store.post(ctx, n, h.clock.Now())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out)
}
