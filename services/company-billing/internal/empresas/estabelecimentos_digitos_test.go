package empresas

import (
	"net/http"
	"strings"
	"testing"
)

// A CAEPF or CNO whose check digits are wrong is refused like a CNPJ's:
// 400 naming numero, no establishment and no REP event stored. The right
// numbers are brdocs' hand-computed examples (pkg/brdocs/brdocs_test.go).
func TestEstablishmentCheckDigitsOfCAEPFAndCNO(t *testing.T) {
	e := newEnv(t)
	id := e.mustRegister(t, 0)
	body := func(tipo, numero string) map[string]any {
		return map[string]any{"tipo": tipo, "numero": numero, "nome": "Unidade", "endereco": "Estrada B, km 3"}
	}
	for name, b := range map[string]map[string]any{
		"caepf second digit":      body("caepf", "29311861000185"),
		"caepf first digit":       body("caepf", "29311861000194"),
		"caepf without the +12":   body("caepf", "29311861000172"),
		"caepf base changed":      body("caepf", "29311862000184"),
		"cno check digit":         body("cno", "115830024986"),
		"cno base changed":        body("cno", "215830024985"),
		"cno digit of a neighbor": body("cno", "123456789011"),
	} {
		t.Run(name, func(t *testing.T) {
			a, _ := e.est(t, http.MethodPost, "", id, b)
			if a.status != http.StatusBadRequest || a.code() != "validacao" {
				t.Fatalf("%d %s; want 400 validacao", a.status, a.raw)
			}
			msg, _ := a.fields()["numero"].(string)
			if !strings.Contains(msg, "verificador") {
				t.Fatalf("numero not named for its check digits: %s", a.raw)
			}
		})
	}
	if n := e.count(t, "estabelecimentos"); n != 1 {
		t.Fatalf("%d establishments stored; want only the principal", n)
	}
	if n := len(e.allEvents(t, id)); n != 2 {
		t.Fatalf("%d events; want the registration's 2", n)
	}
	// The same numbers with their right digits are taken.
	for _, b := range []map[string]any{body("caepf", "29311861000184"), body("caepf", "03456789200107"),
		body("cno", "115830024985"), body("cno", "123456789010")} {
		if a, got := e.est(t, http.MethodPost, "", id, b); a.status != http.StatusCreated || got.Numero != b["numero"] {
			t.Fatalf("create %v: %d %s", b, a.status, a.raw)
		}
	}
	if n := e.count(t, "estabelecimentos"); n != 5 {
		t.Fatalf("%d establishments stored; want 5", n)
	}
}
