package pages

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
)

// The month's charts (GET /empresa/graficos): bar charts drawn on the
// server as SVG (no script, no chart library), each with a title, a
// description and its data as a table behind a toggle. Their data are the
// department reports' totals and days.

// relatorioMes is what the charts read of a department report's page.
type relatorioMes struct {
	Departamento struct {
		Nome string `json:"nome"`
	} `json:"departamento"`
	Totais totaisMes `json:"totais"`
	Itens  []struct {
		Dias []struct {
			Data          string `json:"data"`
			Falta         bool   `json:"falta"`
			MinutosAtraso int    `json:"minutosAtraso"`
		} `json:"dias"`
		BancoHoras *struct {
			SaldoMinutos int `json:"saldoMinutos"`
		} `json:"bancoHoras"`
	} `json:"itens"`
	Total int `json:"total"`
}

type totaisMes struct {
	MinutosTrabalhados int `json:"minutosTrabalhados"`
	MinutosPrevistos   int `json:"minutosPrevistos"`
	MinutosExtras50    int `json:"minutosExtras50"`
	MinutosExtras100   int `json:"minutosExtras100"`
	MinutosAtraso      int `json:"minutosAtraso"`
	Faltas             int `json:"faltas"`
}

// serie is one colour of a chart.
type serie struct {
	Nome, Classe string
	Valores      []float64
}

// grafico is one chart: categories, series, and the drawn bars.
type grafico struct {
	ID, Titulo, Descricao, Unidade string
	Rotulos                        []string
	Series                         []serie
	// Drawn by layout: the bars, the value axis' marks and the size.
	Barras          []barra
	Marcas          []marca
	Largura, Altura int
	Rotulados       []rotulo
}

type barra struct {
	X, Y, W, H float64
	Classe     string
	Texto      string
}

type marca struct {
	Y     float64
	Texto string
}

type rotulo struct {
	X     float64
	Texto string
}

// Geometry of a chart, in SVG user units.
const (
	margemEsq  = 56
	margemTopo = 12
	margemBase = 40
	alturaArea = 220
	largBarra  = 18
	folgaGrupo = 14
	pxLetra    = 6.5 // width of a letter of a category's label (11px)
)

// layout draws g's grouped bars on a zero-based axis with four marks.
func (g *grafico) layout() {
	maxV := 0.0
	for _, s := range g.Series {
		for _, v := range s.Valores {
			maxV = math.Max(maxV, v)
		}
	}
	top := niceCeil(maxV)
	grupo := float64(len(g.Series))*largBarra + folgaGrupo
	for _, r := range g.Rotulos {
		grupo = max(grupo, float64(utf8.RuneCountInString(r))*pxLetra+folgaGrupo)
	}
	g.Largura = margemEsq + int(math.Ceil(grupo*float64(max(len(g.Rotulos), 1)))) + 8
	g.Altura = margemTopo + alturaArea + margemBase
	base := float64(margemTopo + alturaArea)
	for i := 0; i <= 4; i++ {
		v := top * float64(i) / 4
		g.Marcas = append(g.Marcas, marca{Y: base - alturaArea*v/top, Texto: numero2(v)})
	}
	for i, r := range g.Rotulos {
		x0 := margemEsq + float64(i)*grupo + (grupo-float64(len(g.Series))*largBarra)/2
		g.Rotulados = append(g.Rotulados, rotulo{X: x0 + float64(len(g.Series))*largBarra/2, Texto: r})
		for j, s := range g.Series {
			v := s.Valores[i]
			h := alturaArea * v / top
			g.Barras = append(g.Barras, barra{X: x0 + float64(j)*largBarra, Y: base - h, W: largBarra - 2, H: h,
				Classe: s.Classe, Texto: fmt.Sprintf("%s, %s: %s %s", r, s.Nome, numero(v), g.Unidade)})
		}
	}
}

// niceCeil is the least 1, 2 or 5 times a power of ten at or above v (1
// for nothing), so that the axis' marks are round.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// numero writes v with at most one decimal, the Brazilian way.
func numero(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return s[:len(s)-2] + "," + s[len(s)-1:]
}

// numero2 writes an axis mark with up to two decimals (0,25).
func numero2(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s) > i+3 {
		s = s[:i+3]
	}
	return strings.Replace(s, ".", ",", 1)
}

func horas(min int) float64 { return math.Round(float64(min)/6) / 10 }

// faixasBanco are the hour-bank balance buckets, in minutes: below each
// limit, the last open.
var faixasBanco = []struct {
	ate    int
	rotulo string
}{{-480, "< -8 h"}, {-60, "-8 h a -1 h"}, {60, "-1 h a 1 h"}, {480, "1 h a 8 h"}, {math.MaxInt, "> 8 h"}}

// monthCharts builds the five charts of a month from each department's
// report (every page of it).
func monthCharts(mes string, reps []relatorioMes) []grafico {
	trab := grafico{ID: "horas", Titulo: "Horas trabalhadas e previstas por departamento", Unidade: "h",
		Series: []serie{{Nome: "Trabalhadas", Classe: "s1"}, {Nome: "Previstas", Classe: "s2"}}}
	extras := grafico{ID: "extras", Titulo: "Horas extras a 50% e a 100% por departamento", Unidade: "h",
		Series: []serie{{Nome: "Extras 50%", Classe: "s1"}, {Nome: "Extras 100%", Classe: "s3"}}}
	porDia := map[string][2]float64{}
	banco := make([]float64, len(faixasBanco))
	seen := map[string]bool{}
	for _, r := range reps {
		if !seen[r.Departamento.Nome] {
			seen[r.Departamento.Nome] = true
			t := r.Totais
			trab.Rotulos = append(trab.Rotulos, r.Departamento.Nome)
			trab.Series[0].Valores = append(trab.Series[0].Valores, horas(t.MinutosTrabalhados))
			trab.Series[1].Valores = append(trab.Series[1].Valores, horas(t.MinutosPrevistos))
			extras.Rotulos = append(extras.Rotulos, r.Departamento.Nome)
			extras.Series[0].Valores = append(extras.Series[0].Valores, horas(t.MinutosExtras50))
			extras.Series[1].Valores = append(extras.Series[1].Valores, horas(t.MinutosExtras100))
		}
		for _, it := range r.Itens {
			for _, d := range it.Dias {
				v := porDia[d.Data]
				if d.Falta {
					v[0]++
				}
				v[1] += float64(d.MinutosAtraso)
				porDia[d.Data] = v
			}
			if b := it.BancoHoras; b != nil {
				for i, f := range faixasBanco {
					if b.SaldoMinutos < f.ate {
						banco[i]++
						break
					}
				}
			}
		}
	}
	faltas := grafico{ID: "faltas", Titulo: "Faltas por dia", Unidade: "faltas",
		Series: []serie{{Nome: "Faltas", Classe: "s3"}}}
	atrasos := grafico{ID: "atrasos", Titulo: "Atrasos por dia", Unidade: "minutos",
		Series: []serie{{Nome: "Atrasos", Classe: "s2"}}}
	datas := make([]string, 0, len(porDia))
	for d := range porDia {
		datas = append(datas, d)
	}
	sort.Strings(datas)
	for _, d := range datas {
		faltas.Rotulos, atrasos.Rotulos = append(faltas.Rotulos, d[8:]), append(atrasos.Rotulos, d[8:])
		faltas.Series[0].Valores = append(faltas.Series[0].Valores, porDia[d][0])
		atrasos.Series[0].Valores = append(atrasos.Series[0].Valores, porDia[d][1])
	}
	bh := grafico{ID: "banco", Titulo: "Distribuição dos saldos do banco de horas", Unidade: "funcionários",
		Series: []serie{{Nome: "Funcionários", Classe: "s1", Valores: banco}}}
	for _, f := range faixasBanco {
		bh.Rotulos = append(bh.Rotulos, f.rotulo)
	}
	out := []grafico{trab, extras, faltas, atrasos, bh}
	for i := range out {
		out[i].Descricao = describe(out[i], mes)
		out[i].layout()
	}
	return out
}

// describe is a chart's text equivalent: what it shows and its largest
// value of each series.
func describe(g grafico, mes string) string {
	s := g.Titulo + " em " + mes + "."
	if len(g.Rotulos) == 0 {
		return s + " Sem dados no período."
	}
	for _, se := range g.Series {
		best := 0
		for i, v := range se.Valores {
			if v > se.Valores[best] {
				best = i
			}
		}
		s += fmt.Sprintf(" %s: maior valor %s %s (%s).", se.Nome, numero(se.Valores[best]), g.Unidade, g.Rotulos[best])
	}
	return s
}

// chartsView is the charts page.
type chartsView struct {
	Mes      string
	Graficos []grafico
}

// maxChartPages bounds the pages of one department's report read for the
// charts (100 employees each).
const maxChartPages = 20

// charts is GET /empresa/graficos?mes=YYYY-MM.
func (p *Pages) charts(c *fiber.Ctx) error {
	mes, first := p.month(c)
	deps, err := p.all(c, "/departamentos")
	if err != nil {
		return p.fail(c, err)
	}
	fim := first.AddDate(0, 1, -1)
	if today := p.clock.Now().In(first.Location()); today.Before(fim) {
		fim = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, first.Location())
	}
	var reps []relatorioMes
	for _, d := range deps {
		q := url.Values{"inicio": {first.Format(time.DateOnly)}, "fim": {fim.Format(time.DateOnly)}, "tamanho": {"100"}}
		for pagina := 1; pagina <= maxChartPages; pagina++ {
			q.Set("pagina", strconv.Itoa(pagina))
			var r relatorioMes
			if err := p.get(c, "/registropontos/departamento/"+url.PathEscape(str(d["nome"]))+"?"+q.Encode(), &r); err != nil {
				return p.fail(c, err)
			}
			reps = append(reps, r)
			if pagina*100 >= r.Total {
				break
			}
		}
	}
	return p.render(c, http.StatusOK, "graficos.html", view{Title: "Gráficos do mês", Nav: "painel",
		Data: chartsView{Mes: mes, Graficos: monthCharts(mes, reps)}})
}
