package pages

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// establishmentRoutes are the company's establishments (head office,
// branches, CAEPF and CNO sites): list, add, deactivate.
func (p *Pages) establishmentRoutes(g fiber.Router) {
	g.Get("/estabelecimentos", p.establishments)
	g.Post("/estabelecimentos", p.createEstablishment)
	g.Post("/estabelecimentos/:id<int>/desativar", p.deactivateEstablishment)
}

// establishmentsPath answers the list, principal first (an array).
const establishmentsPath = "/empresas/me/estabelecimentos"

// establishmentsPage renders the list with the form refilled and e, the
// API's error of a failed change, when there is one.
func (p *Pages) establishmentsPage(c *fiber.Ctx, status int, form map[string]string, e *api.Error) error {
	var list []record
	if err := p.get(c, establishmentsPath, &list); err != nil {
		return p.fail(c, err)
	}
	if form == nil {
		form = map[string]string{"tipo": "cnpj"}
	}
	v := view{Title: "Estabelecimentos", Nav: "estabelecimentos", Form: form, Err: e, Data: struct{ Itens []record }{list}}
	switch ok := c.Query("ok"); {
	case e != nil:
	case ok == "desativado":
		v.Msg = "Estabelecimento desativado."
	case ok != "":
		v.Msg = okMessages[ok]
	}
	return p.render(c, status, "estabelecimentos.html", v)
}

func (p *Pages) establishments(c *fiber.Ctx) error {
	return p.establishmentsPage(c, http.StatusOK, nil, nil)
}

// createEstablishment posts the form as sent; the API validates it and
// names the bad fields. An empty zone is the company's.
func (p *Pages) createEstablishment(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "tipo", "numero", "nome", "endereco", "fusoHorario")
	body := map[string]any{"tipo": form["tipo"], "numero": form["numero"], "nome": form["nome"], "endereco": form["endereco"]}
	if form["fusoHorario"] != "" {
		body["fusoHorario"] = form["fusoHorario"]
	}
	return p.create(c, establishmentsPath, body, "/empresa/estabelecimentos?", form,
		func(status int, e *api.Error) error { return p.establishmentsPage(c, status, form, e) })
}

// deactivateEstablishment refuses, on the list page, the principal and one
// with active employees (the API's 409 message says which).
func (p *Pages) deactivateEstablishment(c *fiber.Ctx) error {
	err := p.call(c, api.Call{Method: http.MethodPatch, Path: establishmentsPath + "/" + c.Params("id"),
		Body: map[string]any{"ativo": false}}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.establishmentsPage(c, e.Status, nil, e)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/estabelecimentos?ok=desativado", http.StatusSeeOther)
}

// activeEstablishments lists the company's active establishments, the
// principal first, for the new employee's form.
func (p *Pages) activeEstablishments(c *fiber.Ctx) ([]record, error) {
	var list []record
	if err := p.get(c, establishmentsPath, &list); err != nil {
		return nil, err
	}
	active := list[:0]
	for _, e := range list {
		if e["ativo"] == true {
			active = append(active, e)
		}
	}
	return active, nil
}
