package tratamento

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve inclusions and disregards.
type Handlers request.Handlers[*Store]

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/funcionario/:funcionarioId/marcacoes", request.Empresa, h.include)
	r.Put("/registropontos/:registroId/desconsiderar", request.Empresa, request.AnswerReasoned("registroId", h.disregard(true)))
	r.Put("/registropontos/:registroId/reconsiderar", request.Empresa, request.AnswerReasoned("registroId", h.disregard(false)))
	r.Post("/registropontos/solicitacoes", jwtauth.RequireRole(jwtauth.RoleFuncionario), request.Created(h.request))
	r.Get("/registropontos/solicitacoes", request.Empresa, request.Answer(h.listSolicitacoes))
	r.Put("/registropontos/solicitacoes/:solicitacaoId/aprovar", request.Empresa,
		request.AnswerOn("solicitacaoId", h.decide(true)))
	r.Put("/registropontos/solicitacoes/:solicitacaoId/reprovar", request.Empresa,
		request.AnswerOn("solicitacaoId", h.decide(false)))
}

type incluirInput struct {
	Horario *string `json:"horario"`
	Motivo  *string `json:"motivo" text:"multiline"`
}

// include is POST /registropontos/funcionario/{funcionarioId}/marcacoes
// {"horario" (ISO 8601 with offset), "motivo"}: 201 the included punch.
// Order of checks: 400 (path, body), 404 (not the company's employee), 400
// (in the future, or older than the keeping period), 409 (closed period,
// a punch at the same minute of the workday).
func (h *Handlers) include(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "funcionarioId")
	if err != nil {
		return err
	}
	in, err := h.inclusao(c, caller.EmpresaID, id)
	if err != nil {
		return err
	}
	in.Autor = caller.EmpresaID
	m, err := h.Store.Include(c.UserContext(), in, h.Clock.Now())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

// inclusao reads the body {"horario","motivo"} of an inclusion of
// employee id of company empresaID and places it in his workday (his zone
// and schedule). 400 (body; in the future or older than the keeping
// period), 404 (not the company's employee), 409 (fora_do_vinculo).
func (h *Handlers) inclusao(c *fiber.Ctx, empresaID, id int64) (Inclusao, error) {
	var in incluirInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return Inclusao{}, err
	}
	v := validate.Errors{}
	var horario time.Time
	if in.Horario == nil {
		v.Check(false, "horario", "campo obrigatório")
	} else {
		t, perr := time.Parse(time.RFC3339, *in.Horario)
		v.Check(perr == nil, "horario", "data e hora ISO 8601 com fuso (ex.: 2024-03-04T17:00:00-03:00)")
		horario = t.Truncate(time.Minute)
	}
	motivo := request.Motivo(v, in.Motivo, "motivo")
	if err := v.Err(); err != nil {
		return Inclusao{}, err
	}
	ctx := c.UserContext()
	f, err := h.Workdays.Employees.Funcionario(ctx, empresaID, id)
	if err != nil {
		return Inclusao{}, err
	}
	if err := core.CheckInclusao(horario, h.Clock.Now()); err != nil {
		return Inclusao{}, validate.Errors{"horario": err.Error()}.Err()
	}
	zone, err := h.Workdays.Zones.Funcionario(ctx, empresaID, f.FusoHorario)
	if err != nil {
		return Inclusao{}, err
	}
	escala, err := h.Workdays.Employees.Escala(ctx, id)
	if err != nil {
		return Inclusao{}, err
	}
	jornada := core.Jornada(horario, zone, escala.Core())
	if err := fuso.Vinculo(f, jornada); err != nil {
		return Inclusao{}, err
	}
	return Inclusao{EmpresaID: empresaID, FuncionarioID: id, Jornada: jornada,
		Horario: horario, FusoMinutos: core.Offset(horario, zone), Motivo: motivo}, nil
}

// disregard is PUT /registropontos/{registroId}/desconsiderar and
// /reconsiderar {"motivo"}: 200 the punch with its new state. 404 when
// the id is not one of the company's punches (an absence, another
// company's), 409 when its workday is closed or it is already in that
// state.
func (h *Handlers) disregard(d bool) func(*fiber.Ctx, *jwtauth.Claims, int64, string) (Marcacao, error) {
	return func(c *fiber.Ctx, caller *jwtauth.Claims, id int64, motivo string) (Marcacao, error) {
		return h.Store.Disregard(c.UserContext(), caller.EmpresaID, id, caller.EmpresaID, d, motivo, h.Clock.Now())
	}
}
