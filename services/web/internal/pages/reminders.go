package pages

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// remindersView is the employee's reminders page.
type remindersView struct{ Ativo bool }

// myReminders is GET /ponto/lembretes: whether he gets reminders by
// e-mail, with the button that turns them off or on (the reminders'
// opt-out link leads here).
func (p *Pages) myReminders(c *fiber.Ctx) error {
	var out struct {
		Ativo bool `json:"ativo"`
	}
	if err := p.get(c, "/registropontos/lembretes/me", &out); err != nil {
		return p.fail(c, err)
	}
	msg := ""
	if c.Query("ok") == "1" {
		msg = "Preferência salva."
	}
	return p.render(c, http.StatusOK, "lembretes.html", view{Title: "Lembretes por e-mail", Nav: "perfil", Msg: msg,
		Data: remindersView{Ativo: out.Ativo}})
}

// setMyReminders is POST /ponto/lembretes ativo=true|false.
func (p *Pages) setMyReminders(c *fiber.Ctx) error {
	body := map[string]any{"ativo": c.FormValue("ativo") == "true"}
	if err := p.call(c, api.Call{Method: http.MethodPut, Path: "/registropontos/lembretes/me", Body: body}, nil); err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/lembretes?ok=1", http.StatusSeeOther)
}
