// Package relatorio is the department report
// (GET /registropontos/departamento/{departamento}): per employee and day
// the effective punches, worked, expected, overtime and late minutes,
// absences and pending adjustments, with totals per employee and for the
// department; JSON (paginated over employees) or CSV.
//
// The workday engine (package apuracao) reads the period's facts once
// and computes each employee's days; the answer is rendered one employee
// at a time (the CSV streamed as it goes).
package relatorio

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Limits of a report.
const (
	maxDays       = 366     // one year, leap or not
	maxCSVRows    = 100_000 // employees x days of one CSV answer
	departamentoM = 100     // characters of a department name
)

// query is a validated report request.
type query struct {
	departamento string
	inicio, fim  time.Time
	// ate is the last day computed: fim, or today when fim is later (days
	// to come have no punches yet and would only show as missing work).
	ate  time.Time
	csv  bool
	page page.Page
	// paginated is false for a CSV without pagina or tamanho, which then
	// covers the whole department.
	paginated bool
}

// readQuery validates the path and the query: departamento (1 to 100
// characters, URL-escaped), inicio and fim (YYYY-MM-DD, default the
// current month, at most a year), formato (json or csv), pagina and
// tamanho.
func readQuery(c *fiber.Ctx, today time.Time) (query, error) {
	var q query
	nome, err := url.PathUnescape(c.Params("departamento"))
	n := utf8.RuneCountInString(nome)
	if err != nil || !utf8.ValidString(nome) || strings.TrimSpace(nome) == "" || n > departamentoM {
		return q, domainerr.InvalidField("departamento", "nome de departamento inválido (1 a 100 caracteres)")
	}
	q.departamento = nome
	if q.inicio, q.fim, err = request.Period(c, today, maxDays); err != nil {
		return q, err
	}
	q.ate = q.fim
	if q.ate.After(today) {
		q.ate = today
	}
	switch f := c.Query("formato", "json"); f {
	case "json":
	case "csv":
		q.csv = true
	default:
		return q, domainerr.InvalidField("formato", "use json ou csv")
	}
	if q.page, err = page.FromQuery(c); err != nil {
		return q, err
	}
	q.paginated = !q.csv || c.Query("pagina") != "" || c.Query("tamanho") != ""
	return q, nil
}

// days is how many dates the report computes (0 when it starts after
// today).
func (q query) days() int {
	if q.ate.Before(q.inicio) {
		return 0
	}
	return request.Days(q.inicio, q.ate)
}

// pageOf returns the range of the n employees that the answer lists.
func (q query) pageOf(n int) (lo, hi int) {
	if !q.paginated {
		return 0, n
	}
	lo = min(q.page.Offset(), n)
	return lo, min(lo+q.page.Limit(), n)
}
