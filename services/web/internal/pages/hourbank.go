package pages

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// The hour bank (banco de horas, CLT art. 59 §§2 and 5): the company sets
// its policy, each employee reads his balance and its movements. The API
// computes both from the treated workdays.

const policyPath = "/registropontos/banco-horas/politica"

// movementLabels name the hour bank's movement types for people.
var movementLabels = map[string]string{
	"credito": "Crédito", "debito": "Débito", "vencimento": "Vencimento do período", "pagamento": "Pagamento",
	"desconto": "Desconto", "compensacao": "Compensação", "ajuste": "Ajuste",
}

func (p *Pages) hourBankPolicy(c *fiber.Ctx) error {
	return p.hourBankPolicyWith(c, http.StatusOK, nil, nil, okMessages[c.Query("ok")])
}

func (p *Pages) hourBankPolicyWith(c *fiber.Ctx, status int, e *api.Error, form map[string]string, msg string) error {
	var pol map[string]any
	if err := p.get(c, policyPath, &pol); err != nil {
		return p.fail(c, err)
	}
	if form == nil {
		form = map[string]string{"periodoMeses": str(pol["periodoMeses"]), "inicio": str(pol["inicio"]),
			"limiteCreditoMinutos": str(pol["limiteCreditoMinutos"]), "limiteDebitoMinutos": str(pol["limiteDebitoMinutos"])}
		if pol["ativo"] == true {
			form["ativo"] = "on"
		}
	}
	return p.render(c, status, "banco-politica.html", view{Title: "Banco de horas", Nav: "banco", Data: pol, Form: form, Err: e, Msg: msg})
}

// saveHourBankPolicy sends the form as the policy; a number that is not
// one is named next to its field before the API is called.
func (p *Pages) saveHourBankPolicy(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "ativo", "periodoMeses", "inicio", "limiteCreditoMinutos", "limiteDebitoMinutos")
	body := map[string]any{"ativo": form["ativo"] != ""}
	if form["inicio"] != "" {
		body["inicio"] = form["inicio"]
	}
	bad := map[string]string{}
	for _, name := range []string{"periodoMeses", "limiteCreditoMinutos", "limiteDebitoMinutos"} {
		if form[name] == "" {
			continue
		}
		n, err := strconv.Atoi(form[name])
		if err != nil {
			bad[name] = "informe um número inteiro"
			continue
		}
		body[name] = n
	}
	if len(bad) > 0 {
		return p.hourBankPolicyWith(c, http.StatusBadRequest, &api.Error{Status: http.StatusBadRequest, Code: "validacao",
			Message: "dados inválidos", Fields: bad}, form, "")
	}
	err := p.call(c, api.Call{Method: http.MethodPut, Path: policyPath, Body: body}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.hourBankPolicyWith(c, e.Status, e, form, "")
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/banco-horas?ok=salvo", http.StatusSeeOther)
}

// myHourBank is the employee's balance and the movements of its period.
func (p *Pages) myHourBank(c *fiber.Ctx) error {
	var saldo map[string]any
	path := fmt.Sprintf("/registropontos/funcionario/%d/banco-horas", sess(c).FuncionarioID)
	if err := p.get(c, path, &saldo); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, http.StatusOK, "banco.html", view{Title: "Banco de horas", Nav: "banco", Data: saldo})
}
