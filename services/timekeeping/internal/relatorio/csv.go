package relatorio

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
)

// csvHeader names the columns. Minutes are integers; falta is sim/não on a
// day and the number of absences on a total row; alertas lists a day's
// alert codes and counts them on a total row; afastamento is a day's leave
// kind, and on a total row the leave days by kind ("ferias=10 | doenca=3").
var csvHeader = []string{"funcionarioId", "nome", "cpf", "data", "marcacoes", "minutosTrabalhados",
	"minutosPrevistos", "minutosExtras", "minutosAtraso", "saldoMinutos", "falta", "ajustesPendentes", "incompleto",
	"minutosExtras50", "minutosExtras100", "minutosNoturnos", "minutosNoturnosReduzidos", "feriado", "alertas",
	"minutosIntervaloSuprimido", "minutosInterjornada", "faltaMarcada", "afastamento"}

// utf8BOM makes spreadsheet programs read the accents right.
const utf8BOM = "\uFEFF"

// streamCSV answers the department's CSV for Brazilian spreadsheets:
// UTF-8 with a BOM, ";" between fields, CRLF line ends, one row per
// employee and day, then a TOTAL row per employee and a final row for the
// department. The body is computed one employee at a time as the client
// reads it (csvStream): a department's rows never exist at once. Nothing
// after the read of the facts can fail but the client's connection.
func streamCSV(c *fiber.Ctx, r Relatorio, s *csvStream) error {
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="relatorio-`+fileName(r.Departamento.Nome)+
		"-"+r.Inicio+"-"+r.Fim+`.csv"`)
	c.Response().SetBodyStream(s, -1)
	return nil
}

// csvWriter appends the CSV's rows to out, as encoding/csv writes them
// with ";" and CRLF (appendCell), without a string per number.
type csvWriter struct {
	out  []byte
	text []byte // a day's punches, reused
}

// newCSVWriter starts the CSV: the BOM and the header.
func newCSVWriter() *csvWriter {
	cw := &csvWriter{out: []byte(utf8BOM)}
	for i, h := range csvHeader {
		cw.sep(i)
		cw.out = appendCell(cw.out, h)
	}
	cw.end()
	return cw
}

// sep separates field i from the one before.
func (cw *csvWriter) sep(i int) {
	if i > 0 {
		cw.out = append(cw.out, ';')
	}
}

func (cw *csvWriter) end() { cw.out = append(cw.out, '\r', '\n') }

// cells appends text fields, the first one after a separator unless first.
func (cw *csvWriter) cells(first bool, fields ...string) {
	for i, f := range fields {
		if i > 0 || !first {
			cw.out = append(cw.out, ';')
		}
		cw.out = appendCell(cw.out, f)
	}
}

// ints appends numbers, each after a separator.
func (cw *csvWriter) ints(ns ...int) {
	for _, n := range ns {
		cw.out = strconv.AppendInt(append(cw.out, ';'), int64(n), 10)
	}
}

// employee writes f's day rows and his TOTAL row.
func (cw *csvWriter) employee(f Funcionario, days []apuracao.Dia, t apuracao.Totais) {
	id, nome, cpf := strconv.FormatInt(f.ID, 10), cell(f.Nome), cell(f.CPF)
	for i := range days {
		d := &days[i]
		cw.text = d.Marcacoes.AppendText(cw.text[:0])
		cw.cells(true, id, nome, cpf, d.Data)
		cw.out = appendCell(append(cw.out, ';'), cw.text)
		cw.ints(d.MinutosTrabalhados, d.MinutosPrevistos, d.MinutosExtras, d.MinutosAtraso, d.SaldoMinutos)
		cw.cells(false, yesNo(d.Falta))
		cw.ints(d.AjustesPendentes)
		cw.cells(false, yesNo(d.Incompleto))
		cw.ints(d.MinutosExtras50, d.MinutosExtras100, d.MinutosNoturnos, d.MinutosNoturnosReduzidos)
		cw.cells(false, cell(deref(d.Feriado)))
		cw.text = cw.text[:0]
		for j, a := range d.Alertas {
			if j > 0 {
				cw.text = append(cw.text, " | "...)
			}
			cw.text = append(cw.text, a...)
		}
		cw.out = appendCell(append(cw.out, ';'), cw.text)
		cw.ints(d.MinutosIntervaloSuprimido, d.MinutosInterjornada)
		cw.cells(false, yesNo(d.FaltaMarcada), afastamentoTipo(d.Afastamento))
		cw.end()
	}
	cw.total(id, nome, cpf, "TOTAL", t)
}

// total writes a TOTAL row.
func (cw *csvWriter) total(id, nome, cpf, data string, t apuracao.Totais) {
	cw.cells(true, id, nome, cpf, data, "")
	cw.ints(t.MinutosTrabalhados, t.MinutosPrevistos, t.MinutosExtras, t.MinutosAtraso, t.SaldoMinutos, t.Faltas,
		t.AjustesPendentes)
	cw.cells(false, "")
	cw.ints(t.MinutosExtras50, t.MinutosExtras100, t.MinutosNoturnos, t.MinutosNoturnosReduzidos)
	cw.cells(false, "")
	cw.ints(t.Alertas, t.MinutosIntervaloSuprimido, t.MinutosInterjornada)
	cw.cells(false, "", diasAfastamento(t.DiasAfastamento))
	cw.end()
}

// afastamentoTipo is a day's leave kind, empty without one.
func afastamentoTipo(a *apuracao.Afastamento) string {
	if a == nil {
		return ""
	}
	return a.Tipo
}

// diasAfastamento spells leave days by kind, in the kinds' order.
func diasAfastamento(dias map[string]int) string {
	var s []string
	for _, tipo := range core.TiposAfastamento {
		if n := dias[tipo]; n > 0 {
			s = append(s, tipo+"="+strconv.Itoa(n))
		}
	}
	return strings.Join(s, " | ")
}

// department writes the department's row, the last.
func (cw *csvWriter) department(r Relatorio) {
	cw.total("", "TOTAL DO DEPARTAMENTO "+cell(r.Departamento.Nome), "", r.Inicio+" a "+r.Fim, r.Totais)
}

// appendCell appends field as encoding/csv's Writer does with Comma ';'
// and UseCRLF: quoted when it holds ';', a quote or a line break, starts
// with a space or is \., quotes doubled and line breaks as CRLF.
func appendCell[T string | []byte](out []byte, field T) []byte {
	if !needsQuotes(field) {
		return append(out, field...)
	}
	out = append(out, '"')
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '"':
			out = append(out, '"', '"')
		case '\r': // a CR is written with the LF it comes before
		case '\n':
			out = append(out, '\r', '\n')
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

func needsQuotes[T string | []byte](field T) bool {
	n := len(field)
	if n == 0 {
		return false
	}
	if n == 2 && field[0] == '\\' && field[1] == '.' {
		return true
	}
	for i := 0; i < n; i++ {
		if c := field[i]; c == '\n' || c == '\r' || c == '"' || c == ';' {
			return true
		}
	}
	if c := field[0]; c < utf8.RuneSelf {
		return unicode.IsSpace(rune(c))
	}
	var first [utf8.UTFMax]byte
	r, _ := utf8.DecodeRune(first[:copy(first[:], field)])
	return unicode.IsSpace(r)
}

// csvStream is the CSV answer as a reader: each Read computes employees
// (the engine's Resultado.Apurado) until it has rows to give, the department's total
// row after the last. The listed employees (lo to hi) get rows; every
// employee counts in the department's totals.
type csvStream struct {
	r      Relatorio
	res    *apuracao.Resultado
	lo, hi int
	next   int
	done   bool
	w      *csvWriter
	read   int // bytes of w.out already read
}

func newCSVStream(r Relatorio, res *apuracao.Resultado, lo, hi int) *csvStream {
	return &csvStream{r: r, res: res, lo: lo, hi: hi, w: newCSVWriter()}
}

// Read gives the next bytes of the CSV. A panic while computing ends the
// answer with an error, which makes the server drop the connection: the
// client sees a broken answer, never a short one.
func (s *csvStream) Read(p []byte) (n int, err error) {
	defer func() {
		if v := recover(); v != nil {
			n, err = 0, fmt.Errorf("relatorio: csv: %v", v)
		}
	}()
	if s.read == len(s.w.out) {
		s.read, s.w.out = 0, s.w.out[:0]
		for len(s.w.out) == 0 && !s.done {
			s.step()
		}
		if len(s.w.out) == 0 {
			return 0, io.EOF
		}
	}
	n = copy(p, s.w.out[s.read:])
	s.read += n
	return n, nil
}

// csvChunk is about how many bytes WriteTo gathers before each write.
// fasthttp sends (and flushes) every write as one chunk of the answer:
// Read's 4 KiB buffer made it a system call per employee, a thousand for
// a big department's CSV; this makes it a few dozen.
const csvChunk = 64 << 10

// WriteTo writes the rest of the CSV to w, computing employees until
// about csvChunk bytes are ready for each write. fasthttp's chunked answer
// calls it instead of Read (SupportsBodyWriteTo). A panic while computing
// ends it with an error, as in Read.
func (s *csvStream) WriteTo(w io.Writer) (total int64, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("relatorio: csv: %v", v)
		}
	}()
	for {
		for len(s.w.out)-s.read < csvChunk && !s.done {
			s.step()
		}
		if s.read == len(s.w.out) {
			return total, nil
		}
		n, err := w.Write(s.w.out[s.read:])
		total += int64(n)
		if err != nil {
			return total, err
		}
		s.read, s.w.out = 0, s.w.out[:0]
	}
}

// SupportsBodyWriteTo tells fasthttp that WriteTo gives the same bytes as
// Read (fasthttp.BodyWriterTo).
func (s *csvStream) SupportsBodyWriteTo() bool { return true }

// step computes the next employee, writing his rows when he is listed, or
// ends the CSV.
func (s *csvStream) step() {
	if s.next == s.res.Len() {
		s.done = true
		s.w.department(s.r)
		return
	}
	i := s.next
	s.next++
	a := s.res.Apurado(i)
	s.r.Totais.Mais(a.Totais)
	if i >= s.lo && i < s.hi {
		s.w.employee(funcionario(a.Funcionario), a.Dias, a.Totais)
	}
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
