package pages

import (
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// Requests to include a forgotten punch (Portaria 671 art. 82): the
// employee asks, the company approves (the API then makes the inclusion)
// or rejects them from the adjustments queue.

func (p *Pages) forgottenForm(c *fiber.Ctx) error {
	return p.render(c, http.StatusOK, "esquecida.html", view{Title: "Esqueci de bater o ponto", Nav: "registros",
		Form: map[string]string{"data": p.today(c)}})
}

// askInclusion sends the local date and time the employee forgot, in his
// zone, with its offset.
func (p *Pages) askInclusion(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "data", "hora", "motivo")
	again := func(status int, e *api.Error) error {
		return p.render(c, status, "esquecida.html", view{Title: "Esqueci de bater o ponto", Nav: "registros", Form: form, Err: e})
	}
	at, err := time.ParseInLocation("2006-01-02 15:04", form["data"]+" "+form["hora"], location(p.tz(c)))
	if err != nil {
		return again(http.StatusBadRequest, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos",
			Fields: map[string]string{"horario": "informe o dia e a hora (HH:MM)"}})
	}
	body := map[string]string{"horario": at.Format(time.RFC3339), "motivo": form["motivo"]}
	err = p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/solicitacoes", Body: body}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return again(e.Status, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/ponto/registros?mes="+form["data"][:7]+"&ok=solicitacao", http.StatusSeeOther)
}

// decideInclusionRequest approves or rejects a request from the queue; a
// refusal (already decided, a closed period, a duplicate minute) is shown
// on the queue.
func (p *Pages) decideInclusionRequest(c *fiber.Ctx) error {
	d := c.Params("decisao")
	err := p.call(c, api.Call{Method: http.MethodPut, Path: "/registropontos/solicitacoes/" + c.Params("id") + "/" + d}, nil)
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/ajustes?ok=solicitacao-"+d, http.StatusSeeOther)
}

// reopenPeriod reopens a closed period with the reason the API keeps.
func (p *Pages) reopenPeriod(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "motivo")
	err := p.call(c, api.Call{Method: http.MethodPost, Path: "/registropontos/fechamentos/" + c.Params("id") + "/reabrir", Body: form}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.listPage(c, e.Status, "/registropontos/fechamentos?tamanho=100", "fechamentos.html", "Fechamentos de período", "fechamentos",
			map[string]string{"form": "reabrir-" + c.Params("id"), "motivo": form["motivo"]}, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/fechamentos?ok=reaberto", http.StatusSeeOther)
}
