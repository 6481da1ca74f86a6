package fechamento

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// maxDias bounds one closing (a year, leap or not).
const maxDias = 366

// Handlers serve closings and acknowledgements.
type Handlers request.Handlers[*Store]

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/fechamentos", request.Empresa, request.Created(h.close))
	r.Get("/registropontos/fechamentos", request.Empresa, request.Answer(h.list))
	r.Post("/registropontos/fechamentos/:fechamentoId/reabrir", request.Empresa, request.AnswerReasoned("fechamentoId", h.reopen))
	r.Get("/registropontos/fechamentos/ciencias", request.Empresa, request.Answer(h.ciencias))
	r.Put("/registropontos/funcionario/:funcionarioId/espelho/ciencia", jwtauth.RequireRole(jwtauth.RoleFuncionario),
		request.AnswerOn("funcionarioId", h.ciencia))
}

type fecharInput struct {
	Inicio *string `json:"inicio"`
	Fim    *string `json:"fim"`
}

// close is POST /registropontos/fechamentos {"inicio","fim"}: 201 the
// closing. Dates YYYY-MM-DD, inicio ≤ fim ≤ today (company zone), at most
// 366 days; 409 fechamento_sobreposto over a standing closing.
func (h *Handlers) close(c *fiber.Ctx, caller *jwtauth.Claims) (Fechamento, error) {
	var in fecharInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return Fechamento{}, err
	}
	zone, err := h.Workdays.Zones.Empresa(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return Fechamento{}, err
	}
	inicio, fim, err := period(in, h.Clock.Today(zone))
	if err != nil {
		return Fechamento{}, err
	}
	return h.Store.Close(c.UserContext(), caller.EmpresaID, caller.EmpresaID, inicio, fim, h.Clock.Now())
}

func period(in fecharInput, today time.Time) (inicio, fim time.Time, err error) {
	v := validate.Errors{}
	inicio, fim = request.RequiredDate(v, in.Inicio, "inicio"), request.RequiredDate(v, in.Fim, "fim")
	if len(v) == 0 {
		v.Check(!fim.Before(inicio), "fim", "deve ser igual ou posterior a inicio")
		v.Check(!fim.After(today), "fim", "não é possível fechar datas futuras")
		v.Check(request.Days(inicio, fim) <= maxDias, "fim", "um fechamento tem no máximo 366 dias")
	}
	return inicio, fim, v.Err()
}

// list is GET /registropontos/fechamentos: a page of the company's
// closings, latest period first, with their reopenings.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (page.Result[Fechamento], error) {
	return request.Paged(c, func(p page.Page) ([]Fechamento, int, error) {
		return h.Store.List(c.UserContext(), caller.EmpresaID, p)
	})
}

// reopen is POST /registropontos/fechamentos/{fechamentoId}/reabrir
// {"motivo"}: 200 the closing with its reopening; 404 another company's,
// 409 fechamento_reaberto.
func (h *Handlers) reopen(c *fiber.Ctx, caller *jwtauth.Claims, id int64, motivo string) (Fechamento, error) {
	return h.Store.Reopen(c.UserContext(), caller.EmpresaID, id, caller.EmpresaID, motivo, h.Clock.Now())
}

// ciencia is PUT /registropontos/funcionario/{funcionarioId}/espelho/
// ciencia?mes=YYYY-MM, by the employee himself (another's id is 404): 200
// the acknowledgement, the same on every repeat; 409 periodo_nao_fechado
// until the whole month is closed.
func (h *Handlers) ciencia(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Ciencia, error) {
	mes, err := request.Month(c.Query("mes"), "mes")
	if err != nil {
		return Ciencia{}, err
	}
	if caller.FuncionarioID != id {
		return Ciencia{}, registro.ErrNotFound
	}
	return h.Store.DarCiencia(c.UserContext(), caller.EmpresaID, id, mes, h.Clock.Now())
}

// Pendente is one employee of the acknowledgements list.
type Pendente struct {
	FuncionarioID int64   `json:"funcionarioId"`
	Nome          string  `json:"nome"`
	CienteEm      *string `json:"cienteEm"`
}

// ciencias is GET /registropontos/fechamentos/ciencias?mes=YYYY-MM&
// departamento=NOME: every employee of the department (by name, as the
// report resolves it) with when he acknowledged the month's timesheet,
// null for those who have not; fechado says whether the month is closed.
func (h *Handlers) ciencias(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	mes, err := request.Month(c.Query("mes"), "mes")
	if err != nil {
		return nil, err
	}
	nome := c.Query("departamento")
	if n := len([]rune(nome)); n < 1 || n > 100 {
		return nil, domainerr.InvalidField("departamento", "informe o nome do departamento (1 a 100 caracteres)")
	}
	q, err := h.Workdays.Employees.Quadro(c.UserContext(), caller.EmpresaID, nome)
	if err != nil {
		return nil, err
	}
	dep, funcs := q.Departamento, q.Funcionarios
	ids := make([]int64, len(funcs))
	for i, f := range funcs {
		ids[i] = f.ID
	}
	ciente, fechado, err := h.Store.Ciencias(c.UserContext(), caller.EmpresaID, ids, mes)
	if err != nil {
		return nil, err
	}
	itens := make([]Pendente, len(funcs))
	pendentes := 0
	for i, f := range funcs {
		itens[i] = Pendente{FuncionarioID: f.ID, Nome: f.Nome}
		if em, ok := ciente[f.ID]; ok {
			s := clock.FormatISO(em)
			itens[i].CienteEm = &s
		} else {
			pendentes++
		}
	}
	return fiber.Map{"departamento": dep, "mes": mes.Format("2006-01"), "fechado": fechado,
		"pendentes": pendentes, "itens": itens}, nil
}
