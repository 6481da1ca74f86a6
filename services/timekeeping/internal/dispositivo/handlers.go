package dispositivo

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// LimiteDiasPadrao is how old an off-line punch may arrive when the
// company set no limit.
const LimiteDiasPadrao = 7

// Handlers serve the device keys and the company's off-line limit.
type Handlers struct {
	Store *Store
	Clock *clock.Clock
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	funcionario := jwtauth.RequireRole(jwtauth.RoleFuncionario)
	r.Post("/registropontos/dispositivos", funcionario, request.Created(h.register))
	r.Get("/registropontos/dispositivos", jwtauth.RequireRole(jwtauth.RoleFuncionario, jwtauth.RoleEmpresa),
		request.Answer(h.list))
	r.Delete("/registropontos/dispositivos/:dispositivoId",
		jwtauth.RequireRole(jwtauth.RoleFuncionario, jwtauth.RoleEmpresa), h.revoke)
	r.Get("/registropontos/offline/limite", request.Empresa, request.Answer(h.limite))
	r.Put("/registropontos/offline/limite", request.Empresa, request.Answer(h.setLimite))
}

type registerInput struct {
	Nome               *string `json:"nome"`
	ChavePublica       *string `json:"chavePublica"`
	HorarioDispositivo *string `json:"horarioDispositivo"`
}

// register is POST /registropontos/dispositivos {"nome", "chavePublica",
// "horarioDispositivo"}: 201 with the device (its id). horarioDispositivo,
// the device's clock now, measures its skew.
func (h *Handlers) register(c *fiber.Ctx, caller *jwtauth.Claims) (Dispositivo, error) {
	var in registerInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return Dispositivo{}, err
	}
	now := h.Clock.Now()
	v := validate.Errors{}
	nome := "dispositivo"
	if in.Nome != nil {
		nome = strings.TrimSpace(*in.Nome)
		v.Check(nome != "" && utf8.RuneCountInString(nome) <= 80, "nome", "deve ter entre 1 e 80 caracteres")
	}
	var chave []byte
	if in.ChavePublica == nil {
		v.Check(false, "chavePublica", "campo obrigatório")
	} else if der, _, err := ParseChave(*in.ChavePublica); err != nil {
		v.Check(false, "chavePublica", "use a chave pública ECDSA P-256 em SPKI (DER), codificada em base64")
	} else {
		chave = der
	}
	desvio, ok := Desvio(in.HorarioDispositivo, now)
	v.Check(ok, "horarioDispositivo", "use data e hora ISO 8601 com fuso, ex.: 2026-12-07T08:00:00-03:00")
	if err := v.Err(); err != nil {
		return Dispositivo{}, err
	}
	return h.Store.Register(c.UserContext(), caller.EmpresaID, caller.FuncionarioID, nome, chave, desvio, now)
}

// Desvio reads a device's clock (nil: not sent) and returns its skew
// against now; false when malformed.
func Desvio(horario *string, now time.Time) (*time.Duration, bool) {
	if horario == nil {
		return nil, true
	}
	t, err := time.Parse(time.RFC3339Nano, *horario)
	if err != nil {
		return nil, false
	}
	d := t.Sub(now)
	return &d, true
}

// list is GET /registropontos/dispositivos: {"itens"}, the caller's
// devices (an employee) or every employee's (the company).
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	itens, err := h.Store.List(c.UserContext(), caller.EmpresaID, own(caller))
	return fiber.Map{"itens": itens}, err
}

// revoke is DELETE /registropontos/dispositivos/{dispositivoId}: 204; 404
// for another employee's device (an employee) or another company's.
func (h *Handlers) revoke(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "dispositivoId")
	if err != nil {
		return err
	}
	if err := h.Store.Revoke(c.UserContext(), caller.EmpresaID, own(caller), id, h.Clock.Now()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// own is the employee an employee's token is limited to; 0 for the company.
func own(caller *jwtauth.Claims) int64 {
	if caller.IsFuncionario() {
		return caller.FuncionarioID
	}
	return 0
}

// Limite is the company's limit on how old an off-line punch may arrive.
type Limite struct {
	Dias int `json:"dias"`
}

// limite is GET /registropontos/offline/limite: {"dias"}.
func (h *Handlers) limite(c *fiber.Ctx, caller *jwtauth.Claims) (Limite, error) {
	dias, err := h.Store.LimiteDias(c.UserContext(), caller.EmpresaID, LimiteDiasPadrao)
	return Limite{Dias: dias}, err
}

// setLimite is PUT /registropontos/offline/limite {"dias"}: 1 to 31.
func (h *Handlers) setLimite(c *fiber.Ctx, caller *jwtauth.Claims) (Limite, error) {
	var in struct {
		Dias *int `json:"dias"`
	}
	if err := request.DecodeJSON(c, &in); err != nil {
		return Limite{}, err
	}
	if in.Dias == nil || *in.Dias < 1 || *in.Dias > 31 {
		return Limite{}, domainerr.InvalidField("dias", "use um número inteiro de 1 a 31")
	}
	err := h.Store.SetLimiteDias(c.UserContext(), caller.EmpresaID, *in.Dias, h.Clock.Now())
	return Limite{Dias: *in.Dias}, err
}
