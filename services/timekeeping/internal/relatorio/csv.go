package relatorio

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
)

// csvHeader names the columns. Minutes are integers; falta is sim/não on a
// day and the number of absences on a total row; alertas lists a day's
// alert codes and counts them on a total row.
var csvHeader = []string{"funcionarioId", "nome", "cpf", "data", "marcacoes", "minutosTrabalhados",
	"minutosPrevistos", "minutosExtras", "minutosAtraso", "saldoMinutos", "falta", "ajustesPendentes", "incompleto",
	"minutosExtras50", "minutosExtras100", "minutosNoturnos", "minutosNoturnosReduzidos", "feriado", "alertas"}

// utf8BOM makes spreadsheet programs read the accents right.
const utf8BOM = "\uFEFF"

// writeCSV answers r as text/csv for Brazilian spreadsheets: UTF-8 with a
// BOM, ";" between fields, CRLF line ends, one row per employee and day,
// then a TOTAL row per employee and a final row for the department.
func writeCSV(c *fiber.Ctx, r Relatorio) error {
	body, err := renderCSV(r)
	if err != nil {
		return apierr.Internal(err)
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="relatorio-`+fileName(r.Departamento.Nome)+
		"-"+r.Inicio+"-"+r.Fim+`.csv"`)
	return c.Send(body)
}

// renderCSV is the body of writeCSV's answer.
func renderCSV(r Relatorio) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(utf8BOM)
	w := csv.NewWriter(&buf)
	w.Comma = ';'
	w.UseCRLF = true
	_ = w.Write(csvHeader)
	// One record and one buffer for the punches serve every day row: the
	// writer copies them out before the next.
	row := make([]string, 0, len(csvHeader))
	var text []byte
	for _, it := range r.Itens {
		f := it.Funcionario
		id, nome, cpf := strconv.FormatInt(f.ID, 10), cell(f.Nome), cell(f.CPF)
		for i := range it.Dias {
			d := &it.Dias[i]
			text = d.Marcacoes.appendText(text[:0])
			_ = w.Write(append(row[:0], id, nome, cpf, d.Data, string(text),
				itoa(d.MinutosTrabalhados), itoa(d.MinutosPrevistos), itoa(d.MinutosExtras), itoa(d.MinutosAtraso),
				itoa(d.SaldoMinutos), yesNo(d.Falta), itoa(d.AjustesPendentes), yesNo(d.Incompleto),
				itoa(d.MinutosExtras50), itoa(d.MinutosExtras100), itoa(d.MinutosNoturnos), itoa(d.MinutosNoturnosReduzidos),
				cell(deref(d.Feriado)), strings.Join(d.Alertas, " | ")))
		}
		_ = w.Write(totalRow(id, nome, cpf, "TOTAL", it.Totais))
	}
	_ = w.Write(totalRow("", "TOTAL DO DEPARTAMENTO "+cell(r.Departamento.Nome), "", r.Inicio+" a "+r.Fim, r.Totais))
	w.Flush()
	return buf.Bytes(), w.Error()
}

func totalRow(id, nome, cpf, data string, t Totais) []string {
	return []string{id, nome, cpf, data, "", itoa(t.MinutosTrabalhados), itoa(t.MinutosPrevistos),
		itoa(t.MinutosExtras), itoa(t.MinutosAtraso), itoa(t.SaldoMinutos), itoa(t.Faltas), itoa(t.AjustesPendentes), "",
		itoa(t.MinutosExtras50), itoa(t.MinutosExtras100), itoa(t.MinutosNoturnos), itoa(t.MinutosNoturnosReduzidos),
		"", itoa(t.Alertas)}
}

// cell keeps a text from being read as a formula by a spreadsheet.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// unaccent spells the accented letters of Portuguese without accents.
var unaccent = strings.NewReplacer("á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "ê", "e",
	"í", "i", "ó", "o", "ô", "o", "õ", "o", "ú", "u", "ü", "u", "ç", "c")

// fileName keeps ASCII letters, digits and dashes of a department name.
func fileName(s string) string {
	var b strings.Builder
	for _, r := range unaccent.Replace(strings.ToLower(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '_':
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "departamento"
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func yesNo(b bool) string {
	if b {
		return "sim"
	}
	return "não"
}
