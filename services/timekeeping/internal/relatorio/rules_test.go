package relatorio

import (
	"slices"
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

func TestParamsFromSchedules(t *testing.T) {
	escalas, err := escalasOf(map[int64]employee.Escala{3: {Horarios: []employee.Horario{
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "22:00", SaidaAlmoco: 180, RetornoAlmoco: 195, Saida: 480}, // crosses midnight
	}}})
	if err != nil {
		t.Fatal(err)
	}
	e := escalas[3]
	if e.Semana[0].Previstos() != 480 || e.Semana[1].Previstos() != 465 || e.Semana[2] != nil ||
		!slices.Equal(e.Semana[1].Marcas(), []int{1320, 1500, 1515, 1800}) {
		t.Fatalf("schedule %+v %+v", e.Semana[0], e.Semana[1])
	}
	p := NewParams(1, time.Time{}, time.Time{}, []employee.Funcionario{{Funcionario: employeeapi.Funcionario{ID: 9, EscalaTrabalhoID: 3}}}, escalas)
	if !slices.Equal(p.Funcionarios, []int64{9}) || p.escalas[9] != e {
		t.Fatalf("params %+v, schedules %v", p.Params, p.escalas)
	}
	if _, err := escalasOf(map[int64]employee.Escala{1: {Horarios: []employee.Horario{{Entrada: "8h"}}}}); err == nil {
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
