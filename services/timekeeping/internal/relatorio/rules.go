// Package relatorio is the department report
// (GET /registropontos/departamento/{departamento}): per employee and day
// the effective punches, worked, expected, overtime and late minutes,
// absences and pending adjustments, with totals per employee and for the
// department; JSON (paginated over employees) or CSV.
//
// PostgreSQL computes it (query.go): the pairing of punches, the sums and
// the calendar. Go only gathers the inputs (the department's employees and
// their schedules, from the employee service) and renders the rows.
package relatorio

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/employee"
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
		return q, apierr.Invalid(map[string]string{"departamento": "nome de departamento inválido (1 a 100 caracteres)"})
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
		return q, apierr.Invalid(map[string]string{"formato": "use json ou csv"})
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

// pageOf returns the employees the answer lists.
func (q query) pageOf(all []employee.Funcionario) []employee.Funcionario {
	if !q.paginated {
		return all
	}
	from := min(q.page.Offset(), len(all))
	to := min(from+q.page.Limit(), len(all))
	return all[from:to]
}

// schedule is the part of a work schedule the report needs for one
// weekday: the SQL's entrada and expected minutes, and the four marks
// (entrada, lunch out, lunch back, saída, minutes after local midnight)
// the tolerance of art. 58 §1 compares punches with.
type schedule struct {
	dia, entrada, previstos int32
	marcas                  [4]int
}

// schedulesOf turns a work schedule into its working days: entry i is
// weekday i (0 Monday); expected minutes are the shift minus lunch.
func schedulesOf(e employee.Escala) ([]schedule, error) {
	out := make([]schedule, 0, len(e.Horarios))
	for i, h := range e.Horarios {
		entrada, ok := validate.ClockTime(h.Entrada)
		if !ok || i > 6 {
			return nil, apierr.BadGateway("employee", errBadSchedule)
		}
		out = append(out, schedule{dia: int32(i), entrada: int32(entrada),
			previstos: int32(h.Saida - (h.RetornoAlmoco - h.SaidaAlmoco)),
			marcas:    [4]int{entrada, entrada + h.SaidaAlmoco, entrada + h.RetornoAlmoco, entrada + h.Saida}})
	}
	return out, nil
}

// params builds the SQL parameters for funcs, whose schedules are in
// escalas (by schedule id).
func params(empresaID int64, q query, zone string, funcs []employee.Funcionario, escalas map[int64][]schedule) Params {
	return NewParams(empresaID, q.inicio, q.ate, zone, funcs, escalas)
}

// NewParams builds the SQL parameters for funcs over [inicio, fim], whose
// schedules are in escalas (by schedule id).
func NewParams(empresaID int64, inicio, fim time.Time, zone string, funcs []employee.Funcionario,
	escalas map[int64][]schedule) Params {
	p := Params{EmpresaID: empresaID, Inicio: inicio, Fim: fim, Zone: zone,
		Funcionarios: make([]int64, 0, len(funcs)), programadas: map[int64]*[7][]int{}}
	for _, f := range funcs {
		p.Funcionarios = append(p.Funcionarios, f.ID)
		week := &[7][]int{}
		p.programadas[f.ID] = week
		for _, s := range escalas[f.EscalaTrabalhoID] {
			week[s.dia] = s.marcas[:]
			p.EscalaFuncionario = append(p.EscalaFuncionario, f.ID)
			p.EscalaDia = append(p.EscalaDia, s.dia)
			p.EscalaEntrada = append(p.EscalaEntrada, s.entrada)
			p.EscalaPrevistos = append(p.EscalaPrevistos, s.previstos)
		}
	}
	return p
}

// ParamsFor builds the parameters of one employee f on schedule e over
// [inicio, fim] (the timesheet).
func ParamsFor(empresaID int64, inicio, fim time.Time, zone string, f employee.Funcionario, e employee.Escala) (Params, error) {
	s, err := schedulesOf(e)
	if err != nil {
		return Params{}, err
	}
	return NewParams(empresaID, inicio, fim, zone, []employee.Funcionario{f}, map[int64][]schedule{f.EscalaTrabalhoID: s}), nil
}
