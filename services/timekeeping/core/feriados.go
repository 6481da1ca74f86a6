package core

import (
	"strconv"
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/br"
)

// National holidays come from github.com/rickar/cal/v2 (package br: the
// fixed dates and those that follow Easter), never typed by a company.
// Carnaval and Corpus Christi are pontos facultativos, not holidays: a
// company may turn them into holidays (Facultativos). State and city
// holidays stay the company's own (internal/feriado).

// Facultativos are the pontos facultativos a company keeps as holidays.
type Facultativos struct {
	Carnaval      bool `json:"carnaval"`
	CorpusChristi bool `json:"corpusChristi"`
}

// FeriadoNacional is a national date of a year: a holiday, or a ponto
// facultativo (Facultativo) that is a holiday only when the company says
// so (Feriado).
type FeriadoNacional struct {
	Data        string `json:"data"`
	Nome        string `json:"nome"`
	Facultativo bool   `json:"facultativo"`
	Feriado     bool   `json:"feriado"`
}

var (
	// segundaCarnaval is Carnival Monday, the day before br.Carnaval's
	// Tuesday: both are pontos facultativos.
	segundaCarnaval = &cal.Holiday{Name: "Carnaval (segunda-feira)", Type: cal.ObservancePublic, Offset: -48,
		Func: cal.CalcEasterOffset}
	// consciencianegra is the Dia Nacional de Zumbi e da Consciência Negra,
	// a national holiday since Lei 14.759/2023 (2024 on), which package br
	// does not have yet.
	conscienciaNegra = &cal.Holiday{Name: "Dia Nacional de Zumbi e da Consciência Negra", Type: cal.ObservancePublic,
		Month: time.November, Day: 20, Func: cal.CalcDayOfMonth, StartYear: 2024}

	nacionais = []struct {
		h           *cal.Holiday
		facultativo func(Facultativos) bool
	}{
		{br.AnoNovo, nil}, {segundaCarnaval, func(f Facultativos) bool { return f.Carnaval }},
		{br.Carnaval, func(f Facultativos) bool { return f.Carnaval }}, {br.SextaFeiraSanta, nil},
		{br.Tiradentes, nil}, {br.Trabalhador, nil},
		{br.CorpusChristi, func(f Facultativos) bool { return f.CorpusChristi }}, {br.Independencia, nil},
		{br.NossaSenhoraAparecida, nil}, {br.Finados, nil}, {br.Republica, nil}, {conscienciaNegra, nil},
		{br.Natal, nil},
	}
)

// FeriadosNacionais are year's national dates in date order, marked as
// holidays for a company with pontos facultativos f.
func FeriadosNacionais(year int, f Facultativos) []FeriadoNacional {
	out := make([]FeriadoNacional, 0, len(nacionais))
	for _, n := range nacionais {
		actual, _ := n.h.Calc(year)
		if actual.IsZero() {
			continue
		}
		x := FeriadoNacional{Data: actual.Format(time.DateOnly), Nome: n.h.Name, Feriado: true}
		if n.facultativo != nil {
			x.Facultativo, x.Feriado = true, n.facultativo(f)
		}
		out = append(out, x)
	}
	// Easter moves Carnaval and Corpus Christi: sort by date.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Data < out[j-1].Data; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Calendario answers the national holidays of a company (with its
// pontos facultativos) for any date, each year computed once.
type Calendario struct {
	f     Facultativos
	years map[int]map[string]string
}

// NewCalendario returns the calendar of a company with pontos
// facultativos f.
func NewCalendario(f Facultativos) *Calendario {
	return &Calendario{f: f, years: map[int]map[string]string{}}
}

// Feriado is the name of the national holiday on civil date d (YYYY-MM-DD
// of d's own fields), and false when d is none.
func (c *Calendario) Feriado(d time.Time) (string, bool) {
	return c.FeriadoEm(d.Format(time.DateOnly))
}

// FeriadoEm is Feriado of a date written YYYY-MM-DD (the report's rows),
// without parsing it.
func (c *Calendario) FeriadoEm(data string) (string, bool) {
	year, err := strconv.Atoi(data[:min(4, len(data))])
	if err != nil {
		return "", false
	}
	y, ok := c.years[year]
	if !ok {
		y = map[string]string{}
		for _, n := range FeriadosNacionais(year, c.f) {
			if n.Feriado {
				y[n.Data] = n.Nome
			}
		}
		c.years[year] = y
	}
	nome, ok := y[data]
	return nome, ok
}
