package folha

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"time"
)

// Cabecalho is what the export says before its lines: whether the period
// is closed (final) and the adjustment requests still pending in it.
type Cabecalho struct {
	Inicio, Fim time.Time
	Fechado     bool
	Pendencias  []Pendencia
}

// Pendencia is an adjustment request awaiting the company's decision: an
// employee's change of a punch (tipo ajuste, id the punch's) or his
// request to include one (tipo inclusao, id the request's).
type Pendencia struct {
	Tipo          string `json:"tipo"`
	ID            int64  `json:"id"`
	FuncionarioID int64  `json:"funcionarioId"`
	Data          string `json:"data"`
}

// Situacao is final for a closed period, provisoria for an open one.
func (c Cabecalho) Situacao() string {
	if c.Fechado {
		return "final"
	}
	return "provisoria"
}

// preambulo writes the lines (each starting "# ") that a provisional
// export or one with pending requests opens with; none for a closed
// period without pending requests, which is ready to import.
func (c Cabecalho) preambulo(b *bytes.Buffer) {
	if !c.Fechado {
		fmt.Fprintf(b, "# PROVISÓRIO: o período de %s a %s não está fechado; os números ainda podem mudar\n",
			c.Inicio.Format(time.DateOnly), c.Fim.Format(time.DateOnly))
	}
	for _, p := range c.Pendencias {
		fmt.Fprintf(b, "# PENDENTE: solicitação de %s %d do funcionário %d em %s\n", p.Tipo, p.ID, p.FuncionarioID, p.Data)
	}
}

// CSVHeader names the CSV's columns.
var CSVHeader = []string{"cpf", "nome", "evento", "codigo", "minutos", "horas", "dias"}

// CSV writes the export as UTF-8 CSV: the preamble, the header, then one
// line per employee and event (Lancamentos), minutos an integer, horas
// H:MM, dias an integer for the events counted in days (else empty).
func CSV(cab Cabecalho, totais []TotaisFuncionario, mapa map[string]string) ([]byte, error) {
	var b bytes.Buffer
	cab.preambulo(&b)
	w := csv.NewWriter(&b)
	if err := w.Write(CSVHeader); err != nil {
		return nil, err
	}
	for i := range totais {
		for _, l := range totais[i].Lancamentos(mapa) {
			dias := ""
			if l.Dias != nil {
				dias = strconv.Itoa(*l.Dias)
			}
			rec := []string{Digitos(l.Funcionario.CPF), l.Funcionario.Nome, l.Evento, l.Codigo, strconv.Itoa(l.Minutos),
				Horas(l.Minutos), dias}
			if err := w.Write(rec); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// Horas is minutes as H:MM.
func Horas(minutos int) string { return fmt.Sprintf("%d:%02d", minutos/60, minutos%60) }

// FixedWidth writes the export in layout l: the preamble, then one line
// per employee and event; competencia is the period's end month.
func FixedWidth(cab Cabecalho, totais []TotaisFuncionario, mapa map[string]string, l Layout) ([]byte, error) {
	if err := l.CheckCodigos(mapa); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	cab.preambulo(&b)
	competencia := cab.Fim.Format("200601")
	for i := range totais {
		for _, x := range totais[i].Lancamentos(mapa) {
			line, err := l.Linha(x, competencia)
			if err != nil {
				return nil, err
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}
