package pages

import (
	"net/http"
	"net/url"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/web/internal/api"
)

// The payroll export (exportação para a folha): the company maps ponto's
// events to its payroll codes and downloads a period's file, CSV or a
// fixed-width layout.

const payrollEventsPath = "/registropontos/folha/eventos"

// payrollEvent is one row of the mapping form.
type payrollEvent struct{ Nome, Rotulo string }

// payrollEvents are ponto's events in the API's order, named for people.
var payrollEvents = []payrollEvent{
	{"extras50", "Horas extras a 50%"}, {"extras100", "Horas extras a 100%"},
	{"noturnos", "Adicional noturno (minutos de relógio)"}, {"noturnosReduzidos", "Horas noturnas reduzidas"},
	{"atrasos", "Atrasos"}, {"faltas", "Faltas injustificadas (dias e horas)"}, {"dsrPerdidos", "DSR perdido (dias)"},
	{"bancoPago", "Banco de horas pago"}, {"bancoDescontado", "Banco de horas descontado"},
	{"intervaloSuprimido", "Intervalo suprimido (CLT art. 71 §4)"}, {"interjornada", "Interjornada (CLT art. 66)"},
	{"afastamento_ferias", "Afastamento: férias (dias)"}, {"afastamento_doenca", "Afastamento: doença (dias)"},
	{"afastamento_acidente_trabalho", "Afastamento: acidente de trabalho (dias)"},
	{"afastamento_maternidade", "Afastamento: licença-maternidade (dias)"},
	{"afastamento_paternidade", "Afastamento: licença-paternidade (dias)"},
	{"afastamento_casamento", "Afastamento: casamento (dias)"}, {"afastamento_falecimento", "Afastamento: falecimento (dias)"},
	{"afastamento_doacao_sangue", "Afastamento: doação de sangue (dias)"},
	{"afastamento_servico_militar", "Afastamento: serviço militar (dias)"},
	{"afastamento_suspensao", "Afastamento: suspensão disciplinar (dias)"},
	{"afastamento_nao_remunerada", "Afastamento: licença não remunerada (dias)"},
	{"afastamento_outro", "Afastamento: outro (dias)"},
}

// payrollView is the page: the mapping's rows and the layouts to export in.
type payrollView struct {
	Eventos []payrollEvent
	Layouts []map[string]any
}

var layoutName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

func (p *Pages) payroll(c *fiber.Ctx) error {
	return p.payrollWith(c, http.StatusOK, nil, nil, okMessages[c.Query("ok")])
}

// payrollWith shows the page: form holds the codes (the company's, or
// those it sent when e refused them).
func (p *Pages) payrollWith(c *fiber.Ctx, status int, e *api.Error, form map[string]string, msg string) error {
	if form == nil {
		if err := p.get(c, payrollEventsPath, &form); err != nil {
			return p.fail(c, err)
		}
	}
	var layouts []map[string]any
	if err := p.get(c, "/registropontos/folha/layouts", &layouts); err != nil {
		return p.fail(c, err)
	}
	return p.render(c, status, "folha.html", view{Title: "Exportação para a folha", Nav: "folha", Form: form, Err: e, Msg: msg,
		Data: payrollView{Eventos: payrollEvents, Layouts: layouts}})
}

// savePayrollEvents puts the form's codes as the company's mapping.
func (p *Pages) savePayrollEvents(c *fiber.Ctx) error {
	form := map[string]string{}
	for _, ev := range payrollEvents {
		form[ev.Nome] = c.FormValue(ev.Nome)
	}
	err := p.call(c, api.Call{Method: http.MethodPut, Path: payrollEventsPath, Body: form}, nil)
	if e, ok := api.AsError(err); ok && e.Status < 500 {
		return p.payrollWith(c, e.Status, e, form, "")
	}
	if err != nil {
		return p.fail(c, err)
	}
	return c.Redirect("/empresa/folha?ok=salvo", http.StatusSeeOther)
}

// exportProblem is the export's refusal in one sentence: the problem of
// the parameter or layout field it names (a code too long for the layout
// names the event), else its message.
func exportProblem(e *api.Error) string {
	for _, k := range []string{"codigo", "horas", "minutos", "dias", "centesimos", "matricula", "cpf", "competencia",
		"layout", "formato", "inicio", "fim", "estabelecimento"} {
		if m := e.Field(k); m != "" {
			return "Não foi possível gerar o arquivo: " + m
		}
	}
	return e.Message
}

// payrollFile passes the period, the format and the layout through to
// the export and the file back.
func (p *Pages) payrollFile(c *fiber.Ctx) error {
	_, q := reportQuery(c)
	if c.Query("formato") == "layout" {
		q.Set("formato", "layout")
		if l := c.Query("layout"); layoutName.MatchString(l) {
			q.Set("layout", l)
		}
	}
	return p.streamOr(c, "/registropontos/folha?"+url.Values(q).Encode(), func(e *api.Error) error {
		return p.payrollWith(c, e.Status, &api.Error{Status: e.Status, Code: e.Code, Message: exportProblem(e)}, nil, "")
	})
}
