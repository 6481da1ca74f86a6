package pages

import (
	"strings"
	"testing"

	"github.com/ponto/ponto/services/web/internal/api"
)

// The payroll page lists every event with its code, the layouts to
// export in, and shows a refused code next to its field.
func TestPayrollPageShowsCodesLayoutsAndErrors(t *testing.T) {
	form := map[string]string{"extras50": "a b", "afastamento_ferias": "400"}
	e := &api.Error{Status: 400, Code: "validacao", Message: "dados inválidos",
		Fields: map[string]string{"extras50": "código de até 20 letras"}}
	html := renderView(t, "folha.html", view{Title: "Exportação para a folha", Nav: "folha", Form: form, Err: e,
		Data: payrollView{Eventos: payrollEvents, Layouts: []map[string]any{{"nome": "calima", "descricao": "Calima"}}}})
	for _, want := range []string{`id="extras50"`, `value="a b"`, `aria-invalid="true"`, `id="extras50-erro"`,
		`value="400"`, `<option value="calima">calima — Calima</option>`, `action="/empresa/folha/arquivo"`} {
		if !strings.Contains(html, want) {
			t.Fatalf("the page lacks %s", want)
		}
	}
	if n := strings.Count(html, `class="campo"`); n < len(payrollEvents) {
		t.Fatalf("%d fields for %d events", n, len(payrollEvents))
	}
}

func TestExportProblemNamesTheField(t *testing.T) {
	e := &api.Error{Status: 400, Message: "dados inválidos", Fields: map[string]string{"codigo": "o código \"0150\" do evento extras50 tem 4 caracteres"}}
	if got := exportProblem(e); !strings.Contains(got, "extras50") || !strings.HasPrefix(got, "Não foi possível") {
		t.Fatalf("got %q", got)
	}
	if got := exportProblem(&api.Error{Message: "outro"}); got != "outro" {
		t.Fatalf("got %q", got)
	}
}
