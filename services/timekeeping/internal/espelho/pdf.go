package espelho

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/documento"
)

// Titulo is the timesheet's title.
const Titulo = "Espelho de Ponto"

// PDF renders e (landscape A4): employer, employee, period, contractual
// schedule, one row per day (treated punches and figures), the treatments
// with their reasons, the totals, the legend of the alerts and assinatura,
// the line about its digital signature. now is the issue time, in the
// zone the document dates it in (the company's); every date is written
// dd/mm/aaaa, every alert as a sentence.
func PDF(e Espelho, now time.Time, assinatura string) ([]byte, error) {
	p := documento.New(Titulo+" - "+mesBR(e.Periodo.Mes), now, true)
	p.Field("Empregador", e.Empregador.RazaoSocial+" (CNPJ "+e.Empregador.CNPJ+")")
	if e.Estabelecimento != nil {
		p.Field("Estabelecimento", e.Estabelecimento.Identificacao())
	}
	p.Field("Trabalhador", e.Funcionario.Nome+" (CPF "+e.Funcionario.CPF+") - "+e.Funcionario.Cargo)
	p.Field("Data de admissão", dataBR(derefOr(e.Funcionario.DataAdmissao, "não informada")))
	p.Field("Período", dataBR(e.Periodo.Inicio)+" a "+dataBR(e.Periodo.Fim)+" (apurado até "+dataBR(e.Periodo.ApuradoAte)+
		", fuso "+e.FusoHorario+")")
	p.Field("Data de emissão", now.Format("02/01/2006 15:04")+" (UTC"+now.Format("-07:00")+")")
	p.Section("Horário contratual: " + e.Periodo.EscalaNome)
	var hc [][]string
	for _, h := range e.HorarioContratual {
		saida := h.SaidaAlmoco
		if h.IntervaloPreAssinalado {
			saida += " (pré-assinalado)"
		}
		hc = append(hc, []string{h.DiaSemana, h.Entrada, saida, h.RetornoAlmoco, h.Saida, horas(h.MinutosPrevistos),
			horas(h.MinutosAEJ)})
	}
	p.Table([]float64{45, 25, 32, 25, 25, 38, 50}, []string{"Dia", "Entrada", "Saída almoço", "Retorno", "Saída",
		"Previstas (relógio)", "Duração no AEJ (hora noturna reduzida)"}, hc)
	p.Text("Previstas são os minutos de relógio do turno, sem o intervalo; a duração no AEJ conta cada hora noturna " +
		"(22:00 às 05:00) como 52 min 30 s (CLT art. 73, §1º; Portaria 671, Anexo VI), por isso é maior num turno noturno.")

	p.Section("Marcações e apuração")
	var rows [][]string
	var tratamentos []string
	for _, d := range e.Dias {
		var ms, nsrs []string
		for _, m := range d.MarcacoesTratadas {
			h := m.Horario + marca[m.Origem]
			if m.DiaSeguinte && !strings.Contains(h, "(+1)") {
				h += " (+1)"
			}
			ms = append(ms, h)
		}
		for _, o := range d.MarcacoesOriginais {
			nsrs = append(nsrs, itoa(o.NSR))
		}
		rows = append(rows, []string{dataBR(d.Data), d.DiaSemana, strings.Join(ms, "  "), strings.Join(nsrs, ", "),
			horas(d.MinutosTrabalhados), horas(d.MinutosPrevistos), horas(d.MinutosExtras50), horas(d.MinutosExtras100),
			horas(d.MinutosAtraso), horas(d.MinutosNoturnos) + " (" + horas(d.MinutosNoturnosReduzidos) + ")",
			horas(d.SaldoMinutos), ocorrencias(d)})
		tratamentos = append(tratamentos, tratamentosDoDia(d)...)
	}
	p.Table([]float64{19, 21, 52, 20, 11, 11, 11, 12, 13, 17, 12, 68},
		[]string{"Data", "Dia", "Marcações (* incluída, ° pré-assinalada; (+1) dia seguinte)", "NSR no REP", "Trab.",
			"Prev.", "HE 50%", "HE 100%", "Atraso", "Not. (red.)", "Saldo", "Ocorrências"},
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
	p.Field("Intervalo suprimido (art. 71, §4º)", horas(t.MinutosIntervaloSuprimido))
	p.Field("Descanso entre jornadas não concedido (art. 66)", horas(t.MinutosInterjornada))
	p.Field("Faltas", strconv.Itoa(t.Faltas))
	p.Field("Horas abonadas", horas(t.MinutosAbonados))
	p.Field("DSR perdidos", dsrPerdidos(e.DSR))
	bancoHoras(p, e.BancoHoras)
	p.Text("Tolerância do art. 58, §1º da CLT: variações de até 5 minutos por marcação e 10 por dia não são " +
		"computadas. NSR no REP: o número sequencial de registro de cada marcação original no AFD.")
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
	switch {
	case d.AntesDoUso():
		s = append(s, "antes do início do uso do ponto")
	case d.ForaDoVinculo:
		s = append(s, "fora do vínculo (antes da admissão ou após a demissão)")
	}
	if a := d.Afastamento; a != nil && !d.ForaDoVinculo {
		s = append(s, "afastamento: "+nomeAfastamento(a.Tipo)+" ("+a.Regra().Artigo+")")
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
	for _, a := range d.Alertas {
		s = append(s, alerta(a, d))
	}
	return strings.Join(s, "; ")
}

// alerta is alert code a of day d as a sentence.
func alerta(a string, d Dia) string {
	switch a {
	case core.AlertaIntervalo:
		return "intervalo menor que o exigido (art. 71): " + horas(d.MinutosIntervaloSuprimido) + " suprimido"
	case core.AlertaDescanso:
		return "descanso entre jornadas menor que 11 horas (art. 66): faltaram " + horas(d.MinutosInterjornada)
	case core.AlertaExtras:
		return "mais de 2 horas extras no dia (art. 59)"
	case core.AlertaLocal:
		return "marcação fora do local de trabalho"
	case core.AlertaAfastamento:
		return "marcação durante afastamento: a tratar"
	}
	return a
}

// nomesAfastamento are the leave kinds as the timesheet names them.
var nomesAfastamento = map[string]string{
	core.AfastamentoFerias: "férias", core.AfastamentoDoenca: "doença", core.AfastamentoAcidente: "acidente de trabalho",
	core.AfastamentoMaternidade: "licença-maternidade", core.AfastamentoPaternidade: "licença-paternidade",
	core.AfastamentoCasamento: "casamento", core.AfastamentoFalecimento: "falecimento",
	core.AfastamentoDoacaoSangue: "doação de sangue", core.AfastamentoServicoMilitar: "serviço militar",
	core.AfastamentoSuspensao: "suspensão disciplinar", core.AfastamentoNaoRemunerada: "licença não remunerada",
	core.AfastamentoOutro: "outro",
}

// nomeAfastamento is leave kind tipo's name (tipo itself when unknown).
func nomeAfastamento(tipo string) string {
	if n, ok := nomesAfastamento[tipo]; ok {
		return n
	}
	return tipo
}

// dataBR writes a YYYY-MM-DD date as dd/mm/aaaa (anything else as is).
func dataBR(s string) string {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.Format("02/01/2006")
	}
	return s
}

// mesBR writes a YYYY-MM month as mm/aaaa.
func mesBR(s string) string {
	if t, err := time.Parse("2006-01", s); err == nil {
		return t.Format("01/2006")
	}
	return s
}

// marca marks a treated punch in the day's row by its origin.
var marca = map[string]string{OrigemIncluida: "*", OrigemPreAssinalada: "°"}

// tratamentosDoDia lists a day's treatments with their reasons: adjusted,
// disregarded and included punches, the pre-assigned break, abonos.
func tratamentosDoDia(d Dia) []string {
	var out []string
	for _, x := range d.Desconsideradas {
		if in, ok := incluida(d, x.RegistroID); ok {
			out = append(out, fmt.Sprintf("%s: marcação das %s desconsiderada; incluída às %s. Motivo: %s", dataBR(d.Data), x.Horario, in, x.Motivo))
		} else {
			out = append(out, fmt.Sprintf("%s: marcação das %s desconsiderada. Motivo: %s", dataBR(d.Data), x.Horario, x.Motivo))
		}
	}
	for _, m := range d.MarcacoesTratadas {
		switch {
		case m.Origem == OrigemPreAssinalada:
			out = append(out, fmt.Sprintf("%s: %s às %s pré-assinalada", dataBR(d.Data), m.Tipo, m.Horario))
		case m.Origem == OrigemIncluida && !desconsiderou(d, m.RegistroID):
			out = append(out, fmt.Sprintf("%s: marcação incluída às %s. Motivo: %s", dataBR(d.Data), m.Horario, deref(m.Motivo)))
		}
	}
	for _, a := range d.Abonos {
		faixa := "dia inteiro"
		if a.Inicio != nil && a.Fim != nil {
			faixa = *a.Inicio + " a " + *a.Fim
		}
		out = append(out, fmt.Sprintf("%s: abono (%s), %s. Motivo: %s", dataBR(d.Data), a.Tipo, faixa, a.Motivo))
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
func dsrPerdidos(ds []apuracao.DSR) string {
	var out []string
	for _, d := range ds {
		if d.Perdido {
			faltas := make([]string, len(d.Faltas))
			for i, f := range d.Faltas {
				faltas[i] = dataBR(f)
			}
			out = append(out, dataBR(d.Data)+" (faltas: "+strings.Join(faltas, ", ")+")")
		}
	}
	if len(out) == 0 {
		return "nenhum"
	}
	return strings.Join(out, "; ")
}

// bancoHoras writes the hour bank's balance and the month's movements,
// when the company's bank is on.
func bancoHoras(p *documento.PDF, b apuracao.Saldo) {
	if !b.Ativo || b.Periodo == nil {
		return
	}
	p.Section("Banco de horas")
	p.Field("Saldo em "+dataBR(b.Ate), horas(b.SaldoMinutos)+" (período de compensação "+dataBR(b.Periodo.Inicio)+" a "+
		dataBR(b.Periodo.Fim)+")")
	var rows [][]string
	for _, m := range b.Movimentos {
		rows = append(rows, []string{dataBR(m.Data), m.Tipo, horas(m.Minutos), horas(m.ExcedenteMinutos), horas(m.SaldoMinutos), m.Motivo})
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
