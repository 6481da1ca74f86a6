package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// treatmentRoutes are the day's treatments (Portaria 671 art. 82): each
// adds to the record, the original punches never change.
func (p *Pages) treatmentRoutes(g fiber.Router) {
	g.Get("/tratamento", p.treatment)
	g.Post("/tratamento/incluir", p.includePunch)
	g.Post("/tratamento/:id<int>/:acao<regex(^(desconsiderar|reconsiderar)$)>", p.disregardPunch)
	g.Post("/tratamento/falta", p.markAbsence)
	g.Post("/tratamento/falta/desfazer", p.undoAbsence)
	g.Post("/tratamento/abonos", p.createAbono)
	g.Post("/tratamento/abonos/:id<int>/cancelar", p.cancelAbono)
}

// treatmentView is one employee's workday as the timesheet shows it, with
// the treatment forms (include, disregard and reconsider, absence and its
// undoing, abonos).
type treatmentView struct {
	FuncionarioID string
	Nome          string
	Data          string
	TZ            string
	Dia           map[string]any
	Abonos        []record
	TiposAbono    []option
	// AbonoErr is the API's refusal of the abono form, shown next to its
	// fields only.
	AbonoErr *api.Error
}

// option is one choice of a select.
type option struct{ Valor, Rotulo string }

// abonoTypes are the contract's TipoAbono values with their labels.
var abonoTypes = []option{
	{"atestado_medico", "Atestado médico"},
	{"declaracao_comparecimento", "Declaração de comparecimento"},
	{"licenca", "Licença"},
	{"folga", "Folga"},
	{"outro", "Outro"},
}

// treatment reads the employee's day from his timesheet of that month.
func (p *Pages) treatment(c *fiber.Ctx) error {
	return p.treatmentWith(c, http.StatusOK, nil, okMessages[c.Query("ok")], nil)
}

func (p *Pages) treatmentWith(c *fiber.Ctx, status int, e *api.Error, msg string, form map[string]string) error {
	id, err := strconv.ParseInt(c.Query("funcionario", c.FormValue("funcionario")), 10, 64)
	data := c.Query("data", c.FormValue("data"))
	if err != nil || id <= 0 || !isoDate.MatchString(data) {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "escolha um funcionário e um dia"})
	}
	var sheet map[string]any
	if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?mes=%s", id, data[:7]), &sheet); err != nil {
		return p.fail(c, err)
	}
	var abonos struct {
		Itens []record `json:"itens"`
	}
	if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/abonos?inicio=%s&fim=%s", id, data, data), &abonos); err != nil {
		return p.fail(c, err)
	}
	v := treatmentView{FuncionarioID: strconv.FormatInt(id, 10), Data: data, TZ: str(sheet["fusoHorario"]),
		Abonos: abonos.Itens, TiposAbono: abonoTypes}
	if form["form"] == "abono" {
		v.AbonoErr = e
	}
	if f, ok := sheet["funcionario"].(map[string]any); ok {
		v.Nome = str(f["nome"])
	}
	dias, _ := sheet["dias"].([]any)
	for _, d := range dias {
		if day, ok := d.(map[string]any); ok && str(day["data"]) == data {
			v.Dia = day
		}
	}
	return p.render(c, status, "tratamento.html", view{Title: "Tratamento do dia", Nav: "espelhos", Data: v, Err: e, Msg: msg, Form: form})
}

// treatmentBack is the day's page after a change.
func treatmentBack(c *fiber.Ctx, ok string) string {
	return "/empresa/tratamento?" + url.Values{"funcionario": {c.FormValue("funcionario")}, "data": {c.FormValue("data")}, "ok": {ok}}.Encode()
}

// treat sends one treatment and comes back to the day, or shows the API's
// refusal (a closed period, a duplicate minute...) on it.
func (p *Pages) treat(c *fiber.Ctx, call api.Call, ok string, form map[string]string) error {
	err := p.call(c, call, nil)
	if e, isAPI := api.AsError(err); isAPI && e.Status < 500 {
		return p.treatmentWith(c, e.Status, e, "", form)
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect(treatmentBack(c, ok), http.StatusSeeOther)
}

// includePunch adds a forgotten punch at the day's local time in the
// employee's zone, sent with its offset as the API wants.
func (p *Pages) includePunch(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "hora", "motivo", "tz")
	at, err := time.ParseInLocation("2006-01-02 15:04", c.FormValue("data")+" "+form["hora"], location(form["tz"]))
	if err != nil {
		return p.treatmentWith(c, http.StatusBadRequest, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos",
			Fields: map[string]string{"horario": "informe a hora (HH:MM)"}}, "", form)
	}
	body := map[string]string{"horario": at.Format(time.RFC3339), "motivo": form["motivo"]}
	return p.treat(c, api.Call{Method: http.MethodPost, Path: employeePath(c, "/marcacoes"), Body: body}, "incluida", form)
}

// employeePath is the API path of the form's employee, under
// /registropontos/funcionario/{id}.
func employeePath(c *fiber.Ctx, rest string) string {
	return "/registropontos/funcionario/" + url.PathEscape(c.FormValue("funcionario")) + rest
}

func (p *Pages) disregardPunch(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "motivo")
	return p.treat(c, api.Call{Method: http.MethodPut, Path: "/registropontos/" + c.Params("id") + "/" + c.Params("acao"), Body: form}, c.Params("acao"), nil)
}

// absencePath is the API path of the form's employee's absence on the
// form's date, or "" when the date is not one.
func absencePath(c *fiber.Ctx) string {
	if !isoDate.MatchString(c.FormValue("data")) {
		return ""
	}
	return "/registropontos/" + url.PathEscape(c.FormValue("funcionario")) + "/marcar-falta/" + c.FormValue("data")
}

func (p *Pages) markAbsence(c *fiber.Ctx) error {
	path := absencePath(c)
	if path == "" {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "data inválida"})
	}
	return p.treat(c, api.Call{Method: http.MethodPost, Path: path}, "falta", nil)
}

// undoAbsence undoes the day's standing absence; the API keeps it in the
// history with the reason.
func (p *Pages) undoAbsence(c *fiber.Ctx) error {
	path := absencePath(c)
	if path == "" {
		return p.errorPage(c, &api.Error{Status: http.StatusBadRequest, Code: "validacao", Message: "data inválida"})
	}
	form := formValues(c.FormValue, "motivo")
	return p.treat(c, api.Call{Method: http.MethodDelete, Path: path, Body: form}, "falta-desfeita", prefixed("falta-", form))
}

// createAbono excuses the whole day, or a range of its local times when
// both ends are given.
func (p *Pages) createAbono(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "tipo", "inicio", "fim", "motivo")
	body := map[string]string{"data": c.FormValue("data"), "tipo": form["tipo"], "motivo": form["motivo"]}
	if form["inicio"] != "" || form["fim"] != "" {
		body["inicio"], body["fim"] = form["inicio"], form["fim"]
	}
	return p.treat(c, api.Call{Method: http.MethodPost, Path: employeePath(c, "/abonos"), Body: body}, "abono", prefixed("abono-", form))
}

// cancelAbono cancels a standing abono; it stays listed with the reason.
func (p *Pages) cancelAbono(c *fiber.Ctx) error {
	form := formValues(c.FormValue, "motivo")
	return p.treat(c, api.Call{Method: http.MethodPost, Path: "/registropontos/abonos/" + c.Params("id") + "/cancelar", Body: form}, "abono-cancelado", nil)
}

// prefixed renames a form's fields and names the form ("form"), so that
// the day's page, which has several forms with a "motivo", refills and
// marks only the one that failed.
func prefixed(prefix string, form map[string]string) map[string]string {
	out := map[string]string{"form": strings.TrimSuffix(prefix, "-")}
	for k, v := range form {
		out[prefix+k] = v
	}
	return out
}
