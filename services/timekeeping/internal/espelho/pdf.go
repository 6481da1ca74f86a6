package espelho

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ponto/ponto/services/timekeeping/internal/banco"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
	"github.com/ponto/ponto/services/timekeeping/internal/relatorio"
)

// Titulo is the timesheet's title.
const Titulo = "Espelho de Ponto"

// PDF renders e (landscape A4): employer, employee, period, contractual
// schedule, one row per day (treated punches and figures), the treatments
// with their reasons, the totals, the legend of the alerts and assinatura,
// the line about its digital signature.
func PDF(e Espelho, now time.Time, assinatura string) ([]byte, error) {
	p := documento.New(Titulo+" - "+e.Periodo.Mes, now, true)
	p.Field("Empregador", e.Empregador.RazaoSocial+" (CNPJ "+e.Empregador.CNPJ+")")
	p.Field("Trabalhador", e.Funcionario.Nome+" (CPF "+e.Funcionario.CPF+") - "+e.Funcionario.Cargo)
	p.Field("Data de admissão", derefOr(e.Funcionario.DataAdmissao, "não informada"))
	p.Field("Período", e.Periodo.Inicio+" a "+e.Periodo.Fim+" (apurado até "+e.Periodo.ApuradoAte+", fuso "+e.FusoHorario+")")
	p.Field("Data de emissão", now.UTC().Format("2006-01-02 15:04")+" UTC")
	p.Section("Horário contratual: " + e.Periodo.EscalaNome)
	var hc [][]string
	for _, h := range e.HorarioContratual {
		saida := h.SaidaAlmoco
		if h.IntervaloPreAssinalado {
			saida += " (pré-assinalado)"
		}
		hc = append(hc, []string{h.DiaSemana, h.Entrada, saida, h.RetornoAlmoco, h.Saida, horas(h.MinutosPrevistos)})
	}
	p.Table([]float64{35, 25, 25, 25, 25, 25}, []string{"Dia", "Entrada", "Saída almoço", "Retorno", "Saída", "Previstas"}, hc)

	p.Section("Marcações e apuração")
	var rows [][]string
	var tratamentos []string
	for _, d := range e.Dias {
		var ms []string
		for _, m := range d.MarcacoesTratadas {
			ms = append(ms, m.Horario+marca[m.Origem])
		}
		rows = append(rows, []string{d.Data, d.DiaSemana, strings.Join(ms, " "), horas(d.MinutosTrabalhados),
			horas(d.MinutosPrevistos), horas(d.MinutosExtras50), horas(d.MinutosExtras100), horas(d.MinutosAtraso),
			horas(d.MinutosNoturnos) + " (" + horas(d.MinutosNoturnosReduzidos) + ")", horas(d.SaldoMinutos), ocorrencias(d)})
		tratamentos = append(tratamentos, tratamentosDoDia(d)...)
	}
	p.Table([]float64{20, 24, 52, 15, 15, 15, 15, 15, 22, 16, 58},
		[]string{"Data", "Dia", "Marcações (* incluída, ° pré-assinalada)", "Trab.", "Prev.", "HE 50%", "HE 100%", "Atraso", "Not. (red.)", "Saldo", "Ocorrências"},
		rows)
	if len(tratamentos) > 0 {
		p.Section("Tratamentos")
		for _, s := range tratamentos {
			p.Text(s)
		}
	}
	t := e.Totais
	p.Section("Totais")
	p.Field("Horas trabalhadas", horas(t.MinutosTrabalhados)+" de "+horas(t.MinutosPrevistos)+" previstas; saldo "+horas(t.SaldoMinutos))
	p.Field("Horas extras", horas(t.MinutosExtras50)+" a 50%, "+horas(t.MinutosExtras100)+" a 100%")
	p.Field("Atrasos", horas(t.MinutosAtraso))
	p.Field("Adicional noturno", horas(t.MinutosNoturnos)+" (hora reduzida: "+horas(t.MinutosNoturnosReduzidos)+")")
	p.Field("Faltas", strconv.Itoa(t.Faltas))
	p.Field("Horas abonadas", horas(t.MinutosAbonados))
	p.Field("DSR perdidos", dsrPerdidos(e.DSR))
	bancoHoras(p, e.BancoHoras)
	p.Text("Tolerância do art. 58, §1º da CLT: variações de até 5 minutos por marcação e 10 por dia não são " +
		"computadas. Alertas: intervalo insuficiente (art. 71), descanso entre jornadas inferior a 11 horas " +
		"(art. 66), mais de 2 horas extras no dia (art. 59), marcação fora do local de trabalho.")
	p.Text(assinatura)
	return p.Bytes()
}

// ocorrencias lists a day's holiday, absence, tolerance, incompleteness
// and alerts.
func ocorrencias(d Dia) string {
	var s []string
	if d.Feriado != nil {
		s = append(s, "feriado: "+*d.Feriado)
	}
	if d.Falta {
		s = append(s, "falta")
	}
	if d.MinutosAbonados > 0 {
		s = append(s, "abono "+horas(d.MinutosAbonados))
	}
	if d.ToleranciaAplicada {
		s = append(s, "tolerância")
	}
	if d.Incompleto {
		s = append(s, "incompleto")
	}
	if d.AjustesPendentes > 0 {
		s = append(s, "ajuste pendente")
	}
	return strings.Join(append(s, d.Alertas...), ", ")
}

// marca marks a treated punch in the day's row by its origin.
var marca = map[string]string{OrigemIncluida: "*", OrigemPreAssinalada: "°"}

// tratamentosDoDia lists a day's treatments with their reasons: adjusted,
// disregarded and included punches, the pre-assigned break, abonos.
func tratamentosDoDia(d Dia) []string {
	var out []string
	for _, x := range d.Desconsideradas {
		if in, ok := incluida(d, x.RegistroID); ok {
			out = append(out, fmt.Sprintf("%s: marcação das %s desconsiderada; incluída às %s. Motivo: %s", d.Data, x.Horario, in, x.Motivo))
		} else {
			out = append(out, fmt.Sprintf("%s: marcação das %s desconsiderada. Motivo: %s", d.Data, x.Horario, x.Motivo))
		}
	}
	for _, m := range d.MarcacoesTratadas {
		switch {
		case m.Origem == OrigemPreAssinalada:
			out = append(out, fmt.Sprintf("%s: %s às %s pré-assinalada", d.Data, m.Tipo, m.Horario))
		case m.Origem == OrigemIncluida && !desconsiderou(d, m.RegistroID):
			out = append(out, fmt.Sprintf("%s: marcação incluída às %s. Motivo: %s", d.Data, m.Horario, deref(m.Motivo)))
		}
	}
	for _, a := range d.Abonos {
		faixa := "dia inteiro"
		if a.Inicio != nil && a.Fim != nil {
			faixa = *a.Inicio + " a " + *a.Fim
		}
		out = append(out, fmt.Sprintf("%s: abono (%s), %s. Motivo: %s", d.Data, a.Tipo, faixa, a.Motivo))
	}
	return out
}

// incluida is the treated time of record registroID (an approved
// adjustment's), if it has one.
func incluida(d Dia, registroID int64) (string, bool) {
	for _, m := range d.MarcacoesTratadas {
		if m.RegistroID == registroID && m.Origem != OrigemPreAssinalada {
			return m.Horario, true
		}
	}
	return "", false
}

func desconsiderou(d Dia, registroID int64) bool {
	for _, x := range d.Desconsideradas {
		if x.RegistroID == registroID {
			return true
		}
	}
	return false
}

func derefOr(s *string, alt string) string {
	if s == nil {
		return alt
	}
	return *s
}

// dsrPerdidos lists the month's lost weekly rest days with the absences
// that cost them (Lei 605/49 art. 6), "nenhum" when none.
func dsrPerdidos(ds []relatorio.DSR) string {
	var out []string
	for _, d := range ds {
		if d.Perdido {
			out = append(out, d.Data+" (faltas: "+strings.Join(d.Faltas, ", ")+")")
		}
	}
	if len(out) == 0 {
		return "nenhum"
	}
	return strings.Join(out, "; ")
}

// bancoHoras writes the hour bank's balance and the month's movements,
// when the company's bank is on.
func bancoHoras(p *documento.PDF, b banco.Saldo) {
	if !b.Ativo || b.Periodo == nil {
		return
	}
	p.Section("Banco de horas")
	p.Field("Saldo em "+b.Ate, horas(b.SaldoMinutos)+" (período de compensação "+b.Periodo.Inicio+" a "+b.Periodo.Fim+")")
	var rows [][]string
	for _, m := range b.Movimentos {
		rows = append(rows, []string{m.Data, m.Tipo, horas(m.Minutos), horas(m.ExcedenteMinutos), horas(m.SaldoMinutos), m.Motivo})
	}
	if len(rows) > 0 {
		p.Table([]float64{22, 25, 18, 20, 18, 90}, []string{"Data", "Movimento", "Minutos", "Excedente", "Saldo", "Motivo"}, rows)
	}
}

// horas writes minutes as H:MM ("-0:20" when negative).
func horas(m int) string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d:%02d", sign, m/60, m%60)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
