package iniciouso

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Handlers serve the company's setting.
type Handlers struct {
	Store *Store
	Clock *clock.Clock
	Zones *fuso.Zones
}

// InicioUso is the body and answer of both routes: data is YYYY-MM-DD,
// or null when not set.
type InicioUso struct {
	Data *string `json:"data"`
}

// Public mounts the routes on r, which must already verify the token.
func (h *Handlers) Public(r fiber.Router) {
	r.Get("/registropontos/inicio-uso", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.get)
	r.Put("/registropontos/inicio-uso", jwtauth.RequireRole(jwtauth.RoleEmpresa), h.put)
}

func answer(c *fiber.Ctx, d *time.Time) error {
	out := InicioUso{}
	if d != nil {
		s := d.Format(time.DateOnly)
		out.Data = &s
	}
	return c.JSON(out)
}

// get is GET /registropontos/inicio-uso: the company's first day on ponto.
func (h *Handlers) get(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	d, err := h.Store.Get(c.UserContext(), caller.EmpresaID)
	if err != nil {
		return err
	}
	return answer(c, d)
}

// put is PUT /registropontos/inicio-uso {"data": "YYYY-MM-DD"|null}: 400
// for a missing member, a date that is not one, before 2000 or after
// today in the company's time zone; 409 when the change moves a closed
// day's figures (Store.Set).
func (h *Handlers) put(c *fiber.Ctx) error {
	caller, err := request.Caller(c)
	if err != nil {
		return err
	}
	var in map[string]json.RawMessage
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	raw, ok := in["data"]
	if !ok {
		return domainerr.InvalidField("data", "campo obrigatório (data AAAA-MM-DD ou null)")
	}
	var d *time.Time
	if !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if d, err = h.date(c, caller.EmpresaID, raw); err != nil {
			return err
		}
	}
	if err := h.Store.Set(c.UserContext(), caller.EmpresaID, d, h.Clock.Now()); err != nil {
		return err
	}
	return answer(c, d)
}

// date reads raw as a YYYY-MM-DD date from 2000 to today in company
// empresaID's time zone.
func (h *Handlers) date(c *fiber.Ctx, empresaID int64, raw json.RawMessage) (*time.Time, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, domainerr.InvalidField("data", "data inválida (use AAAA-MM-DD ou null)")
	}
	d, err := request.Date(s, "data")
	if err != nil {
		return nil, err
	}
	zone, err := h.Zones.Empresa(c.UserContext(), empresaID)
	if err != nil {
		return nil, err
	}
	if d.After(h.Clock.Today(zone)) {
		return nil, domainerr.InvalidField("data", "o início do uso não pode ser uma data futura")
	}
	return &d, nil
}
