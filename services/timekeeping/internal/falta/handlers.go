package falta

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve marcar-falta.
type Handlers request.Handlers[*Store]

// Public mounts the company route on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/:funcionarioId/marcar-falta/:data", request.Empresa, h.mark)
	r.Delete("/registropontos/:funcionarioId/marcar-falta/:data", request.Empresa, h.undo)
}

type desfazerInput struct {
	Motivo *string `json:"motivo" text:"multiline"`
}

// undo is DELETE /registropontos/{funcionarioId}/marcar-falta/{data}
// with the reason as a JSON body {"motivo"} or, without a body, the query
// ?motivo=: 204. The absence stays in the history with who undid it
// (the company account) and why. 400 (path, motivo), 404 (no standing
// absence of the company's employee that day), 409 (closed period).
func (h *Handlers) undo(c *fiber.Ctx) error {
	caller, id, data, err := onDay(c)
	if err != nil {
		return err
	}
	var in desfazerInput
	if len(c.Body()) > 0 {
		if err := request.DecodeJSON(c, &in); err != nil {
			return err
		}
	} else if q := c.Query("motivo"); q != "" {
		in.Motivo = &q
	}
	v := validate.Errors{}
	motivo := request.Motivo(v, in.Motivo, "motivo")
	if err := v.Err(); err != nil {
		return err
	}
	if err := h.Store.Undo(c.UserContext(), caller.EmpresaID, id, data, caller.EmpresaID, motivo, h.Clock.Now()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// mark is POST /registropontos/{funcionarioId}/marcar-falta/{data}: 200
// with the absence record, the same one on every repeat. 400 for a bad id
// or date (not YYYY-MM-DD, or after today in the company's time zone), 404
// for another company's employee, 409 when the day has punches or is
// outside the employment bond (fora_do_vinculo), 503 when
// the employee service is down.
func (h *Handlers) mark(c *fiber.Ctx) error {
	caller, id, data, err := onDay(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	f, zone, err := h.Workdays.Funcionario(ctx, caller.EmpresaID, id)
	if err != nil {
		return err
	}
	if data.After(h.Clock.Today(zone)) {
		return domainerr.InvalidField("data", "não é possível marcar falta em data futura")
	}
	if err := fuso.Vinculo(f, data); err != nil {
		return err
	}
	r, err := h.Store.Mark(ctx, Falta{EmpresaID: caller.EmpresaID, FuncionarioID: id, Data: data,
		InicioDia: clock.StartOfDay(data, zone)}, h.Clock.Now())
	if err != nil {
		return err
	}
	return c.JSON(registro.Render(r))
}

// onDay reads a request about an employee's day: the caller, the
// {funcionarioId} and the {data} (YYYY-MM-DD) of the path.
func onDay(c *fiber.Ctx) (caller *jwtauth.Claims, id int64, data time.Time, err error) {
	if caller, id, err = request.On(c, "funcionarioId"); err != nil {
		return nil, 0, time.Time{}, err
	}
	if data, err = request.Date(c.Params("data"), "data"); err != nil {
		return nil, 0, time.Time{}, err
	}
	return caller, id, data, nil
}
