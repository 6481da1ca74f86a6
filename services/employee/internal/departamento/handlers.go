package departamento

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/employee/internal/request"
)

// Handlers serve the department routes. The employees of a department
// (GET /departamentos/{departamentoId}/{segmento}/funcionarios) are served
// by package funcionario.
type Handlers struct{ store *Store }

// NewHandlers returns the handlers over store.
func NewHandlers(store *Store) *Handlers { return &Handlers{store: store} }

// Public mounts the company routes on r, which must already verify the
// token: POST /departamentos (200 with id and numbered segments; 409 when
// the company already has a department of that name), GET
// /departamentos?pagina=&tamanho= and GET /departamentos/{departamentoId}
// (404 for another company's).
func (h *Handlers) Public(r fiber.Router) {
	request.Collection(r, "/departamentos", "departamentoId", request.Create(createInput.check, h.store.Create),
		h.store.List, h.store.Get)
}
