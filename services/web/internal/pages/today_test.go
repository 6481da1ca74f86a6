package pages

import (
	"encoding/json"
	"strings"
	"testing"
)

// The Today page lists each person under his situation with a link to
// his day, the counts, the pending days and the health of the records.
func TestTodayPageListsTheDay(t *testing.T) {
	var h hoje
	err := json.Unmarshal([]byte(`{"data": "2026-03-09", "agora": "2026-03-09T15:30:00.000Z",
		"fusoHorario": "America/Sao_Paulo", "contagens": {"trabalhando": 1, "atrasado": 1},
		"funcionarios": [
			{"id": 7, "nome": "Ana Lima", "departamento": "Vendas", "situacao": "trabalhando", "entradaPrevista": "08:00", "marcacoes": ["07:58"]},
			{"id": 8, "nome": "Bruno Reis", "departamento": "", "situacao": "atrasado", "entradaPrevista": "08:00", "marcacoes": []}],
		"pendencias": {"ajustes": 2, "solicitacoes": 1, "periodoAberto": "2026-03-01",
			"diasImpares": [{"funcionarioId": 7, "nome": "Ana Lima", "data": "2026-03-06", "marcacoes": 3, "alertas": []}],
			"alertas": [{"funcionarioId": 8, "nome": "Bruno Reis", "data": "2026-03-05", "marcacoes": 4, "alertas": ["intervalo_insuficiente"]}],
			"mesFechado": "2026-02", "semCiencia": [{"id": 8, "nome": "Bruno Reis"}]},
		"saude": {"cadeia": {"verificadoEm": null, "integra": true, "nsrQuebra": null}, "certificadoDiasRestantes": 40, "eventosIndisponibilidade": 1}}`), &h)
	if err != nil {
		t.Fatal(err)
	}
	html := renderView(t, "empresa.html", view{Title: "Hoje", Data: todayView{H: h, Situacoes: group(h), Departamento: "Vendas",
		Departamentos: records(t, `[{"id": 1, "nome": "Vendas"}, {"id": 2, "nome": "Caixa"}]`), Estabelecimento: "12",
		Estabelecimentos: records(t, `[{"id": 11, "nome": "Matriz", "principal": true, "ativo": true},
			{"id": 12, "nome": "Obra Centro", "principal": false, "ativo": true}, {"id": 13, "nome": "Filial Sul", "principal": false, "ativo": false}]`)}})
	for _, want := range []string{
		`<a href="/empresa/tratamento?funcionario=7&amp;data=2026-03-09">Ana Lima</a> · Vendas · entrada prevista 08:00 · marcações: 07:58`,
		`<h3 id="sit-atrasado">Atrasado (1)</h3>`, `<span class="numero">0</span> Folga`,
		`href="/empresa/tratamento?funcionario=7&amp;data=2026-03-06">Ana Lima — 06/03/2026</a> (3 marcações)`,
		`Bruno Reis — 05/03/2026</a>: intervalo menor que o mínimo (art. 71)`, `Ajustes pendentes: <strong>2</strong>`,
		`Sem ciência do espelho de 2026-02`, `40 dias restantes`, `ainda não auditada`, `<option value="Vendas" selected>`,
		`às 12:30`, `data-atualizar="60"`,
		`<select id="estabelecimento" name="estabelecimento">`, `<option value="11">Matriz (principal)</option>`,
		`<option value="12" selected>Obra Centro</option>`, `<option value="13">Filial Sul (inativo)</option>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, `id="sit-folga"`) {
		t.Error("an empty situation has a section")
	}
}

// The reminders page says where the switch stands and offers the other
// position, for the employee and for the company.
func TestRemindersPageOffersTheOtherPosition(t *testing.T) {
	for _, c := range []struct {
		v    remindersView
		want []string
	}{
		{remindersView{Ativo: true, Acao: employeeReminders.Acao, Ligado: employeeReminders.Ligado, Desligado: employeeReminders.Desligado,
			Desligar: employeeReminders.Desligar, Religar: employeeReminders.Religar},
			[]string{`action="/ponto/lembretes"`, `name="ativo" value="false"`, "Não quero mais receber lembretes", "Você recebe um e-mail"}},
		{remindersView{Ativo: false, Acao: companyReminders.Acao, Ligado: companyReminders.Ligado, Desligado: companyReminders.Desligado,
			Desligar: companyReminders.Desligar, Religar: companyReminders.Religar},
			[]string{`action="/empresa/lembretes"`, `name="ativo" value="true"`, "Ligar os lembretes", "Lembretes desligados"}},
	} {
		html := renderView(t, "lembretes.html", view{Title: "Lembretes por e-mail", Data: c.v})
		for _, w := range c.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s: the page lacks %q", c.v.Acao, w)
			}
		}
	}
}
