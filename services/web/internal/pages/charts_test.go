package pages

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each chart's data are the department reports' totals and days: Vendas
// worked 9,000 minutes = 150 h of 9,600 = 160 h expected, 90 minutes at
// 50% = 1.5 h and 60 at 100% = 1 h; Caixa 4,830 = 80.5 h of 4,800 = 80 h,
// 0 and 30 = 0.5 h. Absences per day: 03-02 one (Ana) + one (Caio) = 2,
// lateness 10 + 5 = 15 minutes; 03-03 none, 20 minutes. Balances -600
// (< -8 h), 0 (-1 h a 1 h) and 500 (> 8 h); Caio has no bank.
func TestMonthChartsAreTheReportsTotals(t *testing.T) {
	var vendas, caixa relatorioMes
	for s, dst := range map[string]*relatorioMes{
		`{"departamento": {"nome": "Vendas"}, "total": 2, "totais": {"minutosTrabalhados": 9000, "minutosPrevistos": 9600,
			"minutosExtras50": 90, "minutosExtras100": 60, "faltas": 1},
		  "itens": [{"dias": [{"data": "2026-03-02", "falta": true, "minutosAtraso": 0}, {"data": "2026-03-03", "falta": false, "minutosAtraso": 20}],
		             "bancoHoras": {"saldoMinutos": -600}},
		            {"dias": [{"data": "2026-03-02", "falta": false, "minutosAtraso": 10}], "bancoHoras": {"saldoMinutos": 0}}]}`: &vendas,
		`{"departamento": {"nome": "Caixa"}, "total": 1, "totais": {"minutosTrabalhados": 4830, "minutosPrevistos": 4800,
			"minutosExtras50": 0, "minutosExtras100": 30, "faltas": 1},
		  "itens": [{"dias": [{"data": "2026-03-02", "falta": true, "minutosAtraso": 5}], "bancoHoras": null},
		            {"dias": [], "bancoHoras": {"saldoMinutos": 500}}]}`: &caixa,
	} {
		if err := json.Unmarshal([]byte(s), dst); err != nil {
			t.Fatal(err)
		}
	}
	gs := monthCharts("2026-03", []relatorioMes{vendas, caixa})
	type data struct {
		Rotulos []string
		Valores [][]float64
	}
	got := map[string]data{}
	for _, g := range gs {
		d := data{Rotulos: g.Rotulos}
		for _, s := range g.Series {
			d.Valores = append(d.Valores, s.Valores)
		}
		got[g.ID] = d
	}
	want := map[string]data{
		"horas":   {[]string{"Vendas", "Caixa"}, [][]float64{{150, 80.5}, {160, 80}}},
		"extras":  {[]string{"Vendas", "Caixa"}, [][]float64{{1.5, 0}, {1, 0.5}}},
		"faltas":  {[]string{"02", "03"}, [][]float64{{2, 0}}},
		"atrasos": {[]string{"02", "03"}, [][]float64{{15, 20}}},
		"banco":   {[]string{"< -8 h", "-8 h a -1 h", "-1 h a 1 h", "1 h a 8 h", "> 8 h"}, [][]float64{{1, 0, 1, 0, 1}}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("charts (-want +got):\n%s", d)
	}
	// Drawn: 160 h tops the axis at 200 (niceCeil), so Vendas' 150 h bar
	// is 220 × 150 / 200 = 165 units high.
	if b := gs[0].Barras[0]; b.H != 165 || b.Texto != "Vendas, Trabalhadas: 150 h" {
		t.Errorf("first bar %+v", b)
	}
	html := renderView(t, "graficos.html", view{Title: "Gráficos do mês", Data: chartsView{Mes: "2026-03", Graficos: gs}})
	for _, w := range []string{`<svg role="img" aria-labelledby="g-horas-t g-horas-d"`, `<title id="g-horas-t">`,
		`<summary>Ver os dados em tabela</summary>`, `<th scope="row">Caixa</th><td>80,5</td><td>80</td>`,
		`Trabalhadas: maior valor 150 h (Vendas).`} {
		if !strings.Contains(html, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}
