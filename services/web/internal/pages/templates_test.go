package pages

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/assets"
	"github.com/ponto/ponto/services/web/internal/session"
)

// renderView executes a page's template as render does, with data decoded
// from JSON the way the API's answers are.
func renderView(t *testing.T, page string, v view) string {
	t.Helper()
	a, err := assets.Load()
	if err != nil {
		t.Fatal(err)
	}
	views, err := parseViews(a)
	if err != nil {
		t.Fatal(err)
	}
	v.Sess = &session.Session{CSRF: "csrf-token", Role: session.RoleEmpresa}
	if v.Form == nil {
		v.Form = map[string]string{}
	}
	var buf bytes.Buffer
	if err := views[page].ExecuteTemplate(&buf, "layout", v); err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	return buf.String()
}

func decoded(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func records(t *testing.T, s string) []record {
	t.Helper()
	var r []record
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// The day's treatment page offers reconsider for a disregarded original,
// cancel for a standing abono, and undo for an absence; an abono's error
// is shown on the abono form only.
func TestTreatmentPageOffersEveryTreatment(t *testing.T) {
	day := decoded(t, `{"data": "2026-03-04", "falta": true, "faltaMarcada": true,
		"marcacoesOriginais": [{"registroId": 7, "nsr": 3, "tipo": "entrada", "horario": "08:00", "desconsiderada": true},
			{"registroId": 8, "nsr": 4, "tipo": "saída", "horario": "17:00", "desconsiderada": false}],
		"marcacoesTratadas": [], "desconsideradas": [{"registroId": 7, "horario": "08:00", "motivo": "engano"}]}`)
	abonos := records(t, `[{"id": 12, "tipo": "atestado_medico", "inicio": "13:00", "fim": "17:00", "motivo": "consulta", "cancelamento": null},
		{"id": 13, "tipo": "folga", "inicio": null, "fim": null, "motivo": "troca", "cancelamento": {"motivo": "desfeita"}}]`)
	e := &api.Error{Status: 400, Code: "validacao", Message: "dados inválidos", Fields: map[string]string{"motivo": "mínimo de 3 caracteres"}}
	html := renderView(t, "tratamento.html", view{Title: "Tratamento do dia", Err: e,
		Form: map[string]string{"form": "abono", "abono-tipo": "licenca", "abono-motivo": "x"},
		Data: treatmentView{FuncionarioID: "101", Data: "2026-03-04", TZ: "America/Sao_Paulo", Dia: day, Abonos: abonos,
			TiposAbono: abonoTypes, AbonoErr: e}})
	for _, want := range []string{
		`action="/empresa/tratamento/7/reconsiderar"`, `action="/empresa/tratamento/8/desconsiderar"`,
		`action="/empresa/tratamento/abonos/12/cancelar"`, `cancelado: desfeita`, `dia inteiro`,
		`action="/empresa/tratamento/falta/desfazer"`, `<option value="licenca" selected>`,
		`id="abono-motivo-erro"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the treatment page lacks %s", want)
		}
	}
	if strings.Contains(html, `action="/empresa/tratamento/abonos/13/cancelar"`) {
		t.Error("a cancelled abono is offered for cancellation again")
	}
	if strings.Contains(html, `id="motivo-erro"`) || strings.Contains(html, `falta-motivo-erro`) {
		t.Error("the abono's error is shown on another form")
	}
	if strings.Contains(html, `action="/empresa/tratamento/falta"`) {
		t.Error("a day with an absence offers to mark it again")
	}

	// The inclusion form's error stays on it; the day without an
	// absence offers to mark one.
	e = &api.Error{Status: 409, Code: "marcacao_duplicada", Message: "já existe", Fields: map[string]string{"motivo": "curto"}}
	day["faltaMarcada"] = false // an unpunched day is still the rule's absence ("falta"), not the company's mark
	html = renderView(t, "tratamento.html", view{Title: "Tratamento do dia", Err: e, Form: map[string]string{"hora": "12:00"},
		Data: treatmentView{FuncionarioID: "101", Data: "2026-03-04", Dia: day, TiposAbono: abonoTypes}})
	if !strings.Contains(html, `id="motivo-erro"`) || strings.Contains(html, `abono-motivo-erro`) {
		t.Error("the inclusion's error is not shown on the inclusion form alone")
	}
	if !strings.Contains(html, `action="/empresa/tratamento/falta"`) || !strings.Contains(html, "Nenhum abono neste dia") {
		t.Error("a day without absence or abonos does not offer to mark them")
	}
}

func TestClosingsOfferReopeningOnlyWhenClosed(t *testing.T) {
	items := records(t, `[{"id": 3, "inicio": "2026-03-01", "fim": "2026-03-31", "fechadoEm": "2026-04-02T12:00:00.000Z", "reabertura": null},
		{"id": 4, "inicio": "2026-02-01", "fim": "2026-02-28", "fechadoEm": "2026-03-02T12:00:00.000Z", "reabertura": {"motivo": "atestado"}}]`)
	html := renderView(t, "fechamentos.html", view{Title: "Fechamentos", Data: page{Itens: items}})
	if !strings.Contains(html, `action="/empresa/fechamentos/3/reabrir"`) || strings.Contains(html, `/empresa/fechamentos/4/reabrir`) {
		t.Error("reopening is offered for the closed period only")
	}
	if !strings.Contains(html, "reaberto: atestado") {
		t.Error("the reopened period shows its reason")
	}
}

func TestQueueListsInclusionRequests(t *testing.T) {
	reqs := records(t, `[{"id": 9, "funcionarioId": 101, "data": "2026-03-04", "horario": "2026-03-04T20:00:00.000Z", "motivo": "esqueci a saída", "status": "pendente"}]`)
	html := renderView(t, "ajustes.html", view{Title: "Ajustes", Data: adjustmentsView{Status: "pendente", Solicitacoes: reqs,
		Nomes: map[string]string{"101": "Maria"}, Fusos: map[string]string{"101": "America/Manaus"}}})
	for _, want := range []string{`action="/empresa/solicitacoes/9/aprovar"`, `action="/empresa/solicitacoes/9/reprovar"`, "esqueci a saída", "Maria", "16:00"} {
		if !strings.Contains(html, want) {
			t.Errorf("the queue lacks %s", want)
		}
	}
}

func TestHourBankPageNamesTheMovements(t *testing.T) {
	saldo := decoded(t, `{"ativo": true, "saldoMinutos": -120, "apuradoAte": "2026-03-31", "periodo": {"inicio": "2026-01-01", "fim": "2026-06-30"},
		"movimentos": [{"data": "2026-03-12", "tipo": "debito", "minutos": -120, "saldoMinutos": -120, "motivo": "atraso"}]}`)
	html := renderView(t, "banco.html", view{Title: "Banco de horas", Data: saldo})
	for _, want := range []string{`<strong id="saldo-banco">-2h00</strong>`, "<td>Débito</td>", "01/01/2026 a 30/06/2026"} {
		if !strings.Contains(html, want) {
			t.Errorf("the hour-bank page lacks %s", want)
		}
	}
	html = renderView(t, "banco.html", view{Title: "Banco de horas", Data: decoded(t, `{"ativo": false}`)})
	if !strings.Contains(html, `id="banco-inativo"`) {
		t.Error("an inactive bank is not said so")
	}
}
