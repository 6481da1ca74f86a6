package pages

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The week of Tuesday 2026-03-03 runs from Wednesday 02-25 (last month's
// timesheet) to today: 02-25 worked 480 = 8 h of 480; 03-02 (yesterday)
// three punches, 240 = 4 h worked of 480 = 8 h expected: odd, noticed;
// other days nothing. The balance is this month's total, -240 = -4h00.
func TestWeekOfTheEmployee(t *testing.T) {
	var fev, mar espelhoSemana
	for s, dst := range map[string]*espelhoSemana{
		`{"dias": [{"data": "2026-02-24", "marcacoes": [{}, {}], "minutosTrabalhados": 500, "minutosPrevistos": 480},
			{"data": "2026-02-25", "marcacoes": [{}, {}, {}, {}], "minutosTrabalhados": 480, "minutosPrevistos": 480}],
		  "totais": {"saldoMinutos": 20}}`: &fev,
		`{"dias": [{"data": "2026-03-02", "marcacoes": [{}, {}, {}], "minutosTrabalhados": 240, "minutosPrevistos": 480}],
		  "totais": {"saldoMinutos": -240}}`: &mar,
	} {
		if err := json.Unmarshal([]byte(s), dst); err != nil {
			t.Fatal(err)
		}
	}
	today := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)
	first := today.AddDate(0, 0, -6)
	if d := cmp.Diff([]string{"2026-02", "2026-03"}, monthsOf(first, today)); d != "" {
		t.Errorf("months (-want +got):\n%s", d)
	}
	v := weekOf([]espelhoSemana{fev, mar}, first, today)
	if d := cmp.Diff([]string{"qua 25", "qui 26", "sex 27", "sáb 28", "dom 01", "seg 02", "ter 03"}, v.Grafico.Rotulos); d != "" {
		t.Errorf("days (-want +got):\n%s", d)
	}
	want := [][]float64{{8, 0, 0, 0, 0, 4, 0}, {8, 0, 0, 0, 0, 8, 0}}
	if d := cmp.Diff(want, [][]float64{v.Grafico.Series[0].Valores, v.Grafico.Series[1].Valores}); d != "" {
		t.Errorf("hours (-want +got):\n%s", d)
	}
	if v.Saldo != -240 || v.OntemImpar != "02/03/2026" {
		t.Errorf("saldo %d, ontem ímpar %q", v.Saldo, v.OntemImpar)
	}
	html := renderView(t, "ponto.html", view{Title: "Registrar ponto", Data: clockView{TZ: "America/Sao_Paulo", Semana: v}})
	for _, w := range []string{`id="aviso-ontem"`, `Sua jornada de 02/03/2026 terminou com um número ímpar`,
		`<strong id="saldo-mes">-4h00</strong>`, `aria-labelledby="g-semana-t g-semana-d"`, `<th scope="row">seg 02</th><td>4</td><td>8</td>`} {
		if !strings.Contains(html, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}
