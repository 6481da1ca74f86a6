package lembrete

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the switches: the company's and each employee's.
type Handlers struct {
	Store *Store
	Clock *clock.Clock
}

// Lembretes is the body and answer of both routes.
type Lembretes struct {
	Ativo *bool `json:"ativo"`
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/lembretes/me", jwtauth.RequireRole(jwtauth.RoleFuncionario), h.getMe)
	r.Put("/registropontos/lembretes/me", jwtauth.RequireRole(jwtauth.RoleFuncionario), h.putMe)
	r.Get("/registropontos/lembretes", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.getEmpresa)
	r.Put("/registropontos/lembretes", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.putEmpresa)
}

// read decodes {"ativo": bool}, required.
func read(c *fiber.Ctx) (bool, error) {
	var in Lembretes
	if err := request.DecodeJSON(c, &in); err != nil {
		return false, err
	}
	if in.Ativo == nil {
		return false, domainerr.InvalidField("ativo", "campo obrigatório (true ou false)")
	}
	return *in.Ativo, nil
}

func answer(c *fiber.Ctx, ativo bool) error { return c.JSON(Lembretes{Ativo: &ativo}) }

// getEmpresa is GET /registropontos/lembretes: the company's switch.
func (h *Handlers) getEmpresa(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ativo, err := h.Store.EmpresaAtiva(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return err
	}
	return answer(c, ativo)
}

// putEmpresa is PUT /registropontos/lembretes {"ativo"}.
func (h *Handlers) putEmpresa(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ativo, err := read(c)
	if err != nil {
		return err
	}
	if err := h.Store.SetEmpresa(c.UserContext(), caller.EmpresaID, ativo, h.Clock.Now()); err != nil {
		return err
	}
	return answer(c, ativo)
}

// getMe is GET /registropontos/lembretes/me: whether the employee gets
// reminders.
func (h *Handlers) getMe(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ativo, err := h.Store.FuncionarioAtivo(c.UserContext(), caller.FuncionarioID)
	if err != nil {
		return err
	}
	return answer(c, ativo)
}

// putMe is PUT /registropontos/lembretes/me {"ativo"}: false opts out.
func (h *Handlers) putMe(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ativo, err := read(c)
	if err != nil {
		return err
	}
	if err := h.Store.SetFuncionario(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, ativo, h.Clock.Now()); err != nil {
		return err
	}
	return answer(c, ativo)
}
