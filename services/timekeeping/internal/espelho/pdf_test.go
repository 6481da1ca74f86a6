package espelho

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/estabelecimento"
)

// layoutMonth is a month as people read it: a night shift into a holiday
// (punches after midnight), a holiday with a long name, every alert, an
// absence, treatments; 31 rows, so the table runs over pages.
func layoutMonth() Espelho {
	feriado := "Dia Nacional de Zumbi e da Consciência Negra (Lei 14.759/2023), feriado nacional"
	motivo := "esqueceu de registrar a saída no aplicativo porque o celular estava sem bateria"
	e := Espelho{
		Empregador: Empregador{RazaoSocial: "Panificação São João de Todos os Santos Indústria e Comércio Ltda", CNPJ: "11.222.333/0001-81"},
		Estabelecimento: &estabelecimento.Estabelecimento{ID: 501, Tipo: "cno", Numero: "123456789012",
			Nome: "Obra do Hospital Regional"},
		Funcionario: Funcionario{ID: 7, Nome: "Maria Aparecida dos Santos Oliveira", CPF: "123.456.789-09", Cargo: "Padeira"},
		Periodo: Periodo{Mes: "2024-11", Inicio: "2024-11-01", Fim: "2024-11-30", ApuradoAte: "2024-11-30",
			EscalaNome: "Noturno 22:00-05:30"},
		FusoHorario: "America/Sao_Paulo",
		HorarioContratual: []HorarioContratual{{DiaSemana: "segunda-feira", Entrada: "22:00", SaidaAlmoco: "02:00 (+1)",
			RetornoAlmoco: "03:00 (+1)", Saida: "05:30 (+1)", MinutosPrevistos: 390, MinutosAEJ: 446}},
		Totais: apuracao.Totais{MinutosTrabalhados: 9000, MinutosPrevistos: 8580, Faltas: 1, Alertas: 4,
			MinutosIntervaloSuprimido: 40, MinutosInterjornada: 90},
		DSR: []apuracao.DSR{{Data: "2024-11-24", Perdido: true, Faltas: []string{"2024-11-21"}}},
	}
	for day := 1; day <= 30; day++ {
		data := fmt.Sprintf("2024-11-%02d", day)
		d := Dia{Dia: apuracao.Dia{Data: data, MinutosTrabalhados: 390, MinutosPrevistos: 390, SaldoMinutos: 0,
			MinutosNoturnos: 390, MinutosNoturnosReduzidos: 446, Alertas: []string{}},
			DiaSemana: diasSemana[weekday(data)]}
		for i, h := range []string{"22:00", "02:00", "03:00", "05:30"} {
			d.MarcacoesOriginais = append(d.MarcacoesOriginais, Original{NSR: int64(day*4 + i), Horario: h})
			d.MarcacoesTratadas = append(d.MarcacoesTratadas, Tratada{Horario: h, Origem: OrigemOriginal, DiaSeguinte: i > 0})
		}
		switch day {
		case 19: // into the holiday
			d.MinutosExtras100, d.MinutosPrevistos, d.SaldoMinutos = 270, 120, 270
		case 20:
			d.Feriado = &feriado
			d.MinutosExtras100 = 120
		case 21:
			d.MarcacoesOriginais, d.MarcacoesTratadas, d.Falta, d.FaltaMarcada = nil, nil, true, true
			d.MinutosTrabalhados, d.SaldoMinutos = 0, -390
		case 22:
			d.Alertas = []string{core.AlertaIntervalo, core.AlertaDescanso, core.AlertaExtras, core.AlertaLocal}
			d.MinutosIntervaloSuprimido, d.MinutosInterjornada = 40, 90
			d.MarcacoesTratadas[3] = Tratada{RegistroID: 99, Horario: "07:40", Origem: OrigemIncluida, Motivo: &motivo,
				DiaSeguinte: true}
		}
		e.Dias = append(e.Dias, d)
	}
	return e
}

// word is one word of pdftotext -bbox, in points.
type word struct {
	XMin float64 `xml:"xMin,attr"`
	YMin float64 `xml:"yMin,attr"`
	XMax float64 `xml:"xMax,attr"`
	YMax float64 `xml:"yMax,attr"`
	Text string  `xml:",chardata"`
}

type page struct {
	Width  float64 `xml:"width,attr"`
	Height float64 `xml:"height,attr"`
	Words  []word  `xml:"word"`
}

// The timesheet as people read it: rendered to PNG (pdftoppm; the pages
// are kept in ESPELHO_PNG_DIR when set, to look at) and every word of
// pdftotext -bbox inside the page's margins and, in the day table, inside
// its column; the texts people asked for are there (dd/mm/aaaa dates, the
// issue time in the company's zone, alerts as sentences, "(+1)", NSRs,
// the AEJ duration explained).
func TestEspelhoPDFLayout(t *testing.T) {
	for _, tool := range []string{"pdftoppm", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s (poppler-utils) is required: %v", tool, err)
		}
	}
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2024, 12, 2, 1, 30, 0, 0, time.UTC).In(sp) // 01/12 22:30 in São Paulo
	b, err := PDF(layoutMonth(), now, "Documento sem assinatura digital.")
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("ESPELHO_PNG_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	pdf := filepath.Join(dir, "espelho.pdf")
	if err := os.WriteFile(pdf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "60", pdf, filepath.Join(dir, "espelho")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "espelho-*.png")); len(pngs) < 2 {
		t.Fatalf("%d pages rendered, want the table over at least 2", len(pngs))
	}
	out, err := exec.Command("pdftotext", "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	var doc struct {
		Pages []page `xml:"body>doc>page"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	const mm = 72 / 25.4
	// The day table's column boundaries (pdf.go's widths), from the left margin.
	var bounds []float64
	x := 15.0
	for _, w := range []float64{19, 21, 52, 20, 11, 11, 11, 12, 13, 17, 12, 68} {
		x += w
		bounds = append(bounds, x*mm)
	}
	var all []string
	inTable := false
	for n, p := range doc.Pages {
		for _, w := range p.Words {
			all = append(all, w.Text)
			if w.XMin < 15*mm-1 || w.XMax > p.Width-15*mm+1 || w.YMin < 0 || w.YMax > p.Height-15*mm+1 {
				t.Errorf("page %d: %q at [%.1f %.1f %.1f %.1f] outside the margins of %.0fx%.0f", n+1, w.Text,
					w.XMin, w.YMin, w.XMax, w.YMax, p.Width, p.Height)
			}
			switch {
			case w.Text == "apuração":
				inTable = true
				continue
			case w.XMin < 15*mm+4 && (w.Text == "Tratamentos" || w.Text == "Totais"):
				inTable = false
			}
			for _, bd := range bounds {
				if inTable && w.XMin < bd-0.3 && w.XMax > bd+0.3 {
					t.Errorf("page %d: %q [%.1f-%.1f] runs over the column edge at %.1f", n+1, w.Text, w.XMin, w.XMax, bd)
				}
			}
		}
	}
	text := strings.Join(all, " ")
	for _, want := range []string{"01/11/2024", "19/11/2024", "02:00 (+1)", "05:30 (+1)", "07:40* (+1)",
		"01/12/2024 22:30 (UTC-03:00)", "intervalo menor que o exigido (art. 71): 0:40 suprimido",
		"descanso entre jornadas menor que 11 horas (art. 66): faltaram 1:30", "mais de 2 horas extras no dia (art. 59)",
		"Duração no AEJ", "7:26", "52 min 30 s", "NSR no REP", "80, 81, 82, 83", "Consciência Negra",
		"24/11/2024 (faltas: 21/11/2024)", "Estabelecimento", "Obra do Hospital Regional (CNO 123456789012)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the timesheet lacks %q", want)
		}
	}
	for _, bad := range []string{"2024-11-", "extras_acima_do_limite", "intervalo_insuficiente", " UTC "} {
		if strings.Contains(text, bad) {
			t.Errorf("the timesheet shows %q", bad)
		}
	}
}
