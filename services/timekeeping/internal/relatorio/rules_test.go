package relatorio

import (
	"testing"

	"github.com/ponto/ponto/services/timekeeping/internal/employee"
)

func TestSchedulesOf(t *testing.T) {
	got, err := schedulesOf(employee.Escala{Horarios: []employee.Horario{
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "22:00", SaidaAlmoco: 180, RetornoAlmoco: 195, Saida: 480}, // crosses midnight
	}})
	if err != nil || len(got) != 2 || got[0] != (schedule{0, 480, 480, [4]int{480, 720, 780, 1020}}) ||
		got[1] != (schedule{1, 1320, 465, [4]int{1320, 1500, 1515, 1800}}) {
		t.Fatalf("schedulesOf = %+v, %v", got, err)
	}
	if _, err := schedulesOf(employee.Escala{Horarios: []employee.Horario{{Entrada: "8h"}}}); err == nil {
		t.Fatal("a malformed entrada was accepted")
	}
}

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
	// Approved adjustments moved the fourth punch to 22:30 of the day
	// before and the fifth to 00:10 of the day after.
	m := Marcacoes{tipos: []string{"entrada", "saída", "almoço", "retorno almoço", "saída"},
		status: []string{"ajuste solicitado", "ajuste aprovado pela empresa", "ajuste reprovado pela empresa",
			"ajuste aprovado pela empresa", "aprovado automaticamente"},
		locais: []int{475, 1020, 720, -90, 1450}}
	want := "07:55 entrada (ajuste pendente) | 17:00 saída (ajustada) | 12:00 almoço | 22:30 retorno almoço (ajustada) | 00:10 saída"
	if got := string(m.appendText([]byte("x"))); got != "x"+want {
		t.Errorf("appendText = %q, want %q", got, want)
	}
	if got := string((Marcacoes{}).appendText(nil)); got != "" {
		t.Errorf("no punches: %q", got)
	}
}
