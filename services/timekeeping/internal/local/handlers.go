package local

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the work places.
type Handlers struct {
	store *Store
	clock *clock.Clock
}

// NewHandlers returns the handlers.
func NewHandlers(store *Store, clk *clock.Clock) *Handlers {
	return &Handlers{store: store, clock: clk}
}

// Public mounts the company routes on r, which must already verify the
// token.
func (h *Handlers) Public(r fiber.Router) {
	r.Post("/registropontos/locais-trabalho", request.Empresa, request.Answer(h.create))
	r.Get("/registropontos/locais-trabalho", request.Empresa, request.Answer(h.list))
	r.Delete("/registropontos/locais-trabalho/:localId", request.Empresa, h.remove)
}

// create is POST /registropontos/locais-trabalho {"nome", "endereco",
// "latitude", "longitude", "raioMetros"}: 200 with the place (its id
// added); 409 limite_locais past 500 active places.
func (h *Handlers) create(c *fiber.Ctx, caller *jwtauth.Claims) (Local, error) {
	var in input
	if err := request.DecodeJSON(c, &in); err != nil {
		return Local{}, err
	}
	if err := in.check(); err != nil {
		return Local{}, err
	}
	return h.store.Create(c.UserContext(), caller.EmpresaID, in, h.clock.Now())
}

// list is GET /registropontos/locais-trabalho: 200 {"itens"}, the active
// places, oldest first.
func (h *Handlers) list(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	itens, err := h.store.Ativos(c.UserContext(), caller.EmpresaID)
	return fiber.Map{"itens": itens}, err
}

// remove is DELETE /registropontos/locais-trabalho/{localId}: 204, or 404
// (unknown, removed or another company's).
func (h *Handlers) remove(c *fiber.Ctx) error {
	caller, id, err := request.On(c, "localId")
	if err != nil {
		return err
	}
	if err := h.store.Remove(c.UserContext(), caller.EmpresaID, id, h.clock.Now()); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
