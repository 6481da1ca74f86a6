package lembrete

import (
	"context"

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
	me := toggle{
		get: func(ctx context.Context, c *jwtauth.Claims) (bool, error) {
			return h.Store.FuncionarioAtivo(ctx, c.FuncionarioID)
		},
		set: func(ctx context.Context, c *jwtauth.Claims, ativo bool) error {
			return h.Store.SetFuncionario(ctx, c.EmpresaID, c.FuncionarioID, ativo, h.Clock.Now())
		},
	}
	empresa := toggle{
		get: func(ctx context.Context, c *jwtauth.Claims) (bool, error) {
			return h.Store.EmpresaAtiva(ctx, c.EmpresaID)
		},
		set: func(ctx context.Context, c *jwtauth.Claims, ativo bool) error {
			return h.Store.SetEmpresa(ctx, c.EmpresaID, ativo, h.Clock.Now())
		},
	}
	// GET and PUT /registropontos/lembretes/me: whether the employee gets
	// reminders (false is the opt-out).
	r.Get("/registropontos/lembretes/me", jwtauth.RequireRole(jwtauth.RoleFuncionario), me.read)
	r.Put("/registropontos/lembretes/me", jwtauth.RequireRole(jwtauth.RoleFuncionario), me.write)
	// GET and PUT /registropontos/lembretes: the company's switch.
	r.Get("/registropontos/lembretes", jwtauth.RequireRole(jwtauth.RoleEmpresa), empresa.read)
	r.Put("/registropontos/lembretes", jwtauth.RequireRole(jwtauth.RoleEmpresa), empresa.write)
}

// toggle is one switch: how to read and set it for the caller.
type toggle struct {
	get func(context.Context, *jwtauth.Claims) (bool, error)
	set func(context.Context, *jwtauth.Claims, bool) error
}

// read answers the caller's switch.
func (t toggle) read(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	ativo, err := t.get(c.UserContext(), caller)
	if err != nil {
		return err
	}
	return answer(c, ativo)
}

// write sets the caller's switch from {"ativo": bool}, required.
func (t toggle) write(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	var in Lembretes
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	if in.Ativo == nil {
		return domainerr.InvalidField("ativo", "campo obrigatório (true ou false)")
	}
	if err := t.set(c.UserContext(), caller, *in.Ativo); err != nil {
		return err
	}
	return answer(c, *in.Ativo)
}

func answer(c *fiber.Ctx, ativo bool) error { return c.JSON(Lembretes{Ativo: &ativo}) }
