package apuracao

import (
	"slices"
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

func TestParamsFromSchedules(t *testing.T) {
	escalas, err := EscalasOf(map[int64]employee.Escala{3: {Horarios: []employee.Horario{
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
	p := newParams(1, time.Time{}, time.Time{}, []employee.Funcionario{{Funcionario: employeeapi.Funcionario{ID: 9, EscalaTrabalhoID: 3}}}, escalas)
	if !slices.Equal(p.Funcionarios, []int64{9}) || p.escalas[9] != e {
		t.Fatalf("params %+v, schedules %v", p.Periodo, p.escalas)
	}
	if _, err := EscalasOf(map[int64]employee.Escala{1: {Horarios: []employee.Horario{{Entrada: "8h"}}}}); err == nil {
		t.Fatal("a malformed entrada was accepted")
	}
}

// The CSV's text of a day's punches: local times, kinds, and the
// adjusted and pending ones marked.
func TestMarcacoesText(t *testing.T) {
	// Approved adjustments moved the fourth punch to 22:30 of the day
	// before and the fifth to 00:10 of the day after.
	m := Marcacoes{tipos: []string{"entrada", "saída", "almoço", "retorno almoço", "saída"},
		status: []string{"ajuste solicitado", "ajuste aprovado pela empresa", "ajuste reprovado pela empresa",
			"ajuste aprovado pela empresa", "aprovado automaticamente"},
		locais: []int{475, 1020, 720, -90, 1450}}
	want := "07:55 entrada (ajuste pendente) | 17:00 saída (ajustada) | 12:00 almoço | 22:30 retorno almoço (ajustada) | 00:10 saída"
	if got := string(m.AppendText([]byte("x"))); got != "x"+want {
		t.Errorf("AppendText = %q, want %q", got, want)
	}
	if got := string((Marcacoes{}).AppendText(nil)); got != "" {
		t.Errorf("no punches: %q", got)
	}
}
