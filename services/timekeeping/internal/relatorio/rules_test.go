package relatorio

import "testing"

func TestCSVCells(t *testing.T) {
	for in, want := range map[string]string{"=HYPERLINK(1)": "'=HYPERLINK(1)", "+55": "'+55", "-1": "'-1", "@a": "'@a", "Ana": "Ana", "": ""} {
		if got := cell(in); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Operações Norte": "operacoes-norte", "RH/Folha": "rhfolha", "???": "departamento"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}
