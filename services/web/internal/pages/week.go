package pages

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The employee's week on his punch page: a bar chart of his last seven
// days (worked and expected hours), his month's balance, and a notice
// when yesterday ended with an odd number of punches. All from his
// timesheet (GET .../espelho), this month's and, when the week starts in
// it, last month's.

// espelhoSemana is what the week reads of a timesheet.
type espelhoSemana struct {
	Dias []struct {
		Data               string           `json:"data"`
		Marcacoes          []map[string]any `json:"marcacoes"`
		MinutosTrabalhados int              `json:"minutosTrabalhados"`
		MinutosPrevistos   int              `json:"minutosPrevistos"`
	} `json:"dias"`
	Totais struct {
		SaldoMinutos int `json:"saldoMinutos"`
	} `json:"totais"`
}

// weekView is the week's part of the punch page.
type weekView struct {
	Grafico grafico
	// Saldo is the month's balance in minutes; OntemImpar the date
	// (DD/MM/YYYY) of yesterday when it ended with an odd number of
	// punches, "" otherwise.
	Saldo      int
	OntemImpar string
	Mes        string
}

// week reads the employee's timesheets and builds his week ending today.
func (p *Pages) week(c *fiber.Ctx, id int64, today time.Time) (weekView, error) {
	first := today.AddDate(0, 0, -6)
	var meses []espelhoSemana
	for _, m := range monthsOf(first, today) {
		var e espelhoSemana
		if err := p.get(c, fmt.Sprintf("/registropontos/funcionario/%d/espelho?mes=%s", id, m), &e); err != nil {
			return weekView{}, err
		}
		meses = append(meses, e)
	}
	return weekOf(meses, first, today), nil
}

// monthsOf are the months (YYYY-MM) from a's to b's.
func monthsOf(a, b time.Time) []string {
	if a.Format("2006-01") == b.Format("2006-01") {
		return []string{b.Format("2006-01")}
	}
	return []string{a.Format("2006-01"), b.Format("2006-01")}
}

// weekOf builds the week [first, today] from the timesheets (the last is
// today's month): a bar per day, the month's balance, yesterday's odd
// punches.
func weekOf(meses []espelhoSemana, first, today time.Time) weekView {
	type dia struct{ trab, prev, marc int }
	dias := map[string]dia{}
	for _, m := range meses {
		for _, d := range m.Dias {
			dias[d.Data] = dia{d.MinutosTrabalhados, d.MinutosPrevistos, len(d.Marcacoes)}
		}
	}
	g := grafico{ID: "semana", Titulo: "Sua semana", Unidade: "h",
		Series: []serie{{Nome: "Trabalhadas", Classe: "s1"}, {Nome: "Previstas", Classe: "s2"}}}
	for d := first; !d.After(today); d = d.AddDate(0, 0, 1) {
		x := dias[d.Format(time.DateOnly)]
		g.Rotulos = append(g.Rotulos, diasSemana[d.Weekday()]+" "+d.Format("02"))
		g.Series[0].Valores = append(g.Series[0].Valores, horas(x.trab))
		g.Series[1].Valores = append(g.Series[1].Valores, horas(x.prev))
	}
	g.Descricao = describe(g, first.Format("02/01")+" a "+today.Format("02/01"))
	g.layout()
	v := weekView{Grafico: g, Mes: today.Format("2006-01")}
	if len(meses) > 0 {
		v.Saldo = meses[len(meses)-1].Totais.SaldoMinutos
	}
	ontem := today.AddDate(0, 0, -1)
	if dias[ontem.Format(time.DateOnly)].marc%2 == 1 {
		v.OntemImpar = ontem.Format("02/01/2006")
	}
	return v
}

var diasSemana = [...]string{"dom", "seg", "ter", "qua", "qui", "sex", "sáb"}
