package pages

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// remindersView is a reminders page: the switch, where it posts and what
// it says on and off.
type remindersView struct {
	Ativo             bool
	Acao              string
	Ligado, Desligado string
	Desligar, Religar string
}

var (
	employeeReminders = remindersView{Acao: "/ponto/lembretes",
		Ligado:    "Você recebe um e-mail quando um dia de trabalho termina com um número ímpar de marcações (falta uma entrada ou saída).",
		Desligado: "Você não recebe lembretes por e-mail.",
		Desligar:  "Não quero mais receber lembretes", Religar: "Voltar a receber lembretes"}
	companyReminders = remindersView{Acao: "/empresa/lembretes",
		Ligado: "Lembretes ligados: a empresa recebe um resumo diário (atrasos, ausências, pendências) e cada funcionário " +
			"é avisado quando um dia termina com um número ímpar de marcações.",
		Desligado: "Lembretes desligados: nenhum e-mail de lembrete é enviado pela empresa.",
		Desligar:  "Desligar os lembretes", Religar: "Ligar os lembretes"}
)

// myReminders is GET /ponto/lembretes: whether he gets reminders by
// e-mail, with the button that turns them off or on (the reminders'
// opt-out link leads here).
func (p *Pages) myReminders(c *fiber.Ctx) error {
	return p.reminders(c, "/registropontos/lembretes/me", "perfil", employeeReminders)
}

// setMyReminders is POST /ponto/lembretes ativo=true|false.
func (p *Pages) setMyReminders(c *fiber.Ctx) error {
	return p.setReminders(c, "/registropontos/lembretes/me", employeeReminders)
}

// companyRemindersPage is GET /empresa/lembretes: the company's switch.
func (p *Pages) companyRemindersPage(c *fiber.Ctx) error {
	return p.reminders(c, "/registropontos/lembretes", "painel", companyReminders)
}

// setCompanyReminders is POST /empresa/lembretes ativo=true|false.
func (p *Pages) setCompanyReminders(c *fiber.Ctx) error {
	return p.setReminders(c, "/registropontos/lembretes", companyReminders)
}

// reminders reads the switch at path and shows it in page v.
func (p *Pages) reminders(c *fiber.Ctx, path, nav string, v remindersView) error {
	var out struct {
		Ativo bool `json:"ativo"`
	}
	if err := p.get(c, path, &out); err != nil {
		return p.fail(c, err)
	}
	msg := ""
	if c.Query("ok") == "1" {
		msg = "Preferência salva."
	}
	v.Ativo = out.Ativo
	return p.render(c, http.StatusOK, "lembretes.html", view{Title: "Lembretes por e-mail", Nav: nav, Msg: msg, Data: v})
}

// setReminders puts the form's choice at path and shows the page again.
func (p *Pages) setReminders(c *fiber.Ctx, path string, v remindersView) error {
	body := map[string]any{"ativo": c.FormValue("ativo") == "true"}
	if err := p.call(c, api.Call{Method: http.MethodPut, Path: path, Body: body}, nil); err != nil {
		return p.fail(c, err)
	}
	return c.Redirect(v.Acao+"?ok=1", http.StatusSeeOther)
}
