package floor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/tools/bench/load"
)

// ReportSourceDir holds the report's package, relative to the
// repository.
const ReportSourceDir = "services/timekeeping/internal/relatorio"

// ReportSQL is the report's SQL as Store.Report runs it: the settings of
// its transaction, then its queries in order, each with the parameters it
// gets (the listed employees or all of the department).
type ReportSQL struct {
	Settings string `json:"settings"`
	Steps    []Step `json:"consultas"`
}

// Step is one query of the report.
type Step struct {
	// Name is the constant the SQL is held in, e.g. daysSQL.
	Name string `json:"nome"`
	SQL  string `json:"-"`
	// All is true when it runs with all of the department's employees
	// (Report's second Params), false with the listed page (the first).
	All bool `json:"todos"`
}

// LoadReportSQL reads, from the report package's source, what
// Store.Report runs: the SET LOCAL of its transaction and, in order, each
// call that passes one of the file's SQL constants with one of Report's
// Params, the constants evaluated from the literals they are built of.
//
// The tools module cannot import the package (it is internal to
// timekeeping), and a copy would drift from it; reading the source means
// the floor times the SQL the service runs today, and fails loudly when
// the code changes shape beyond what this understands.
func LoadReportSQL(dir string) (ReportSQL, error) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		return ReportSQL{}, err
	}
	e := evaluator{decls: map[string]ast.Expr{}}
	var report *ast.FuncDecl
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
							for i, n := range vs.Names {
								e.decls[n.Name] = vs.Values[i]
							}
						}
					}
				case *ast.FuncDecl:
					if d.Name.Name == "Report" && d.Recv != nil {
						report = d
					}
				}
			}
		}
	}
	if report == nil {
		return ReportSQL{}, fmt.Errorf("%s: Store.Report not found", dir)
	}
	out := ReportSQL{Settings: setLocal(report)}
	if out.Settings == "" {
		return out, fmt.Errorf("%s: SET LOCAL of Report not found", dir)
	}
	params := paramsNames(report)
	if len(params) != 2 {
		return out, fmt.Errorf("%s: Report should take two Params (listed, all), takes %d", dir, len(params))
	}
	ast.Inspect(report.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var step Step
		var p string
		for _, a := range call.Args {
			id, ok := a.(*ast.Ident)
			if !ok {
				continue
			}
			if _, isDecl := e.decls[id.Name]; isDecl && step.SQL == "" {
				if sql, err := e.eval(id, 0); err == nil && strings.Contains(sql, "SELECT") {
					step.Name, step.SQL = id.Name, sql
				}
			}
			if id.Name == params[0] || id.Name == params[1] {
				p = id.Name
			}
		}
		if step.SQL != "" && p != "" {
			step.All = p == params[1]
			out.Steps = append(out.Steps, step)
		}
		return true
	})
	if len(out.Steps) == 0 {
		return out, fmt.Errorf("%s: no query found in Report", dir)
	}
	return out, nil
}

// paramsNames are the names of fn's parameters of type Params, in order.
func paramsNames(fn *ast.FuncDecl) []string {
	var out []string
	for _, f := range fn.Type.Params.List {
		if id, ok := f.Type.(*ast.Ident); ok && id.Name == "Params" {
			for _, n := range f.Names {
				out = append(out, n.Name)
			}
		}
	}
	return out
}

// setLocal finds the SET LOCAL statement Report runs in its transaction.
func setLocal(fn *ast.FuncDecl) string {
	var found string
	ast.Inspect(fn, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && strings.HasPrefix(s, "SET LOCAL") {
				found = s
			}
		}
		return found == ""
	})
	return found
}

// evaluator computes the string constant expressions of one file:
// literals, names of other constants, +, and strings.Replace(All).
type evaluator struct{ decls map[string]ast.Expr }

func (e evaluator) eval(x ast.Expr, depth int) (string, error) {
	if depth > 20 {
		return "", errors.New("expression too deep")
	}
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", fmt.Errorf("literal %s is not a string", x.Value)
		}
		return strconv.Unquote(x.Value)
	case *ast.Ident:
		d, ok := e.decls[x.Name]
		if !ok {
			return "", fmt.Errorf("%s is not a top-level constant of the file", x.Name)
		}
		return e.eval(d, depth+1)
	case *ast.ParenExpr:
		return e.eval(x.X, depth+1)
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", fmt.Errorf("operator %s", x.Op)
		}
		a, err := e.eval(x.X, depth+1)
		if err != nil {
			return "", err
		}
		b, err := e.eval(x.Y, depth+1)
		return a + b, err
	case *ast.CallExpr:
		return e.call(x, depth)
	}
	return "", fmt.Errorf("unsupported expression %T", x)
}

func (e evaluator) call(x *ast.CallExpr, depth int) (string, error) {
	sel, ok := x.Fun.(*ast.SelectorExpr)
	pkg, _ := sel.X.(*ast.Ident)
	if !ok || pkg == nil || pkg.Name != "strings" || (sel.Sel.Name != "Replace" && sel.Sel.Name != "ReplaceAll") {
		return "", errors.New("only strings.Replace and strings.ReplaceAll calls are understood")
	}
	var args []string
	for _, a := range x.Args[:3] {
		s, err := e.eval(a, depth+1)
		if err != nil {
			return "", err
		}
		args = append(args, s)
	}
	n := -1
	if sel.Sel.Name == "Replace" {
		lit, ok := x.Args[3].(*ast.BasicLit)
		if !ok {
			return "", errors.New("strings.Replace count must be a literal")
		}
		n, _ = strconv.Atoi(lit.Value)
	}
	return strings.Replace(args[0], args[1], args[2], n), nil
}

// Day is one working day of an employee's schedule, as relatorio's
// params build it: weekday (0 Monday), scheduled start in minutes after
// midnight, expected minutes.
type Day struct{ Dia, Entrada, Previstos int32 }

// Staff is one employee of the department with his schedule.
type Staff struct {
	ID    int64
	Sched []Day
}

// LoadDepartment reads the department's employees from the employee
// database, ordered as the by-name route orders them (name, id), each
// with his schedule turned into Days as relatorio.schedulesOf does.
func LoadDepartment(ctx context.Context, db *pgxpool.Pool, empresaID int64, nome string) ([]Staff, error) {
	rows, _ := db.Query(ctx, `SELECT f.id, e.horarios FROM funcionarios f
		JOIN escalas_trabalho e ON e.id = f.escala_trabalho_id
		JOIN departamentos d ON d.id = f.departamento_id
		WHERE f.empresa_id = $1 AND lower(d.nome) = lower($2) ORDER BY f.nome, f.id`, empresaID, nome)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Staff, error) {
		var s Staff
		var raw []byte
		if err := row.Scan(&s.ID, &raw); err != nil {
			return s, err
		}
		var hs []struct {
			Entrada                           string
			SaidaAlmoco, RetornoAlmoco, Saida int32
		}
		if err := json.Unmarshal(raw, &hs); err != nil {
			return s, err
		}
		for i, h := range hs {
			t, err := time.Parse("15:04", h.Entrada)
			if err != nil {
				return s, err
			}
			s.Sched = append(s.Sched, Day{Dia: int32(i), Entrada: int32(t.Hour()*60 + t.Minute()),
				Previstos: h.Saida - (h.RetornoAlmoco - h.SaidaAlmoco)})
		}
		return s, nil
	})
}

// ReportParams are the report SQL's nine parameters.
type ReportParams struct {
	EmpresaID         int64
	Inicio, Fim       time.Time
	Zone              string
	Funcionarios      []int64
	EscalaFuncionario []int64
	EscalaDia         []int32
	EscalaEntrada     []int32
	EscalaPrevistos   []int32
}

// Params builds the parameters for staff, as relatorio.params does.
func Params(empresaID int64, inicio, fim time.Time, zone string, staff []Staff) ReportParams {
	p := ReportParams{EmpresaID: empresaID, Inicio: inicio, Fim: fim, Zone: zone}
	for _, s := range staff {
		p.Funcionarios = append(p.Funcionarios, s.ID)
		for _, d := range s.Sched {
			p.EscalaFuncionario = append(p.EscalaFuncionario, s.ID)
			p.EscalaDia = append(p.EscalaDia, d.Dia)
			p.EscalaEntrada = append(p.EscalaEntrada, d.Entrada)
			p.EscalaPrevistos = append(p.EscalaPrevistos, d.Previstos)
		}
	}
	return p
}

func (p ReportParams) args() []any {
	return []any{p.EmpresaID, p.Inicio, p.Fim, p.Zone, p.Funcionarios,
		p.EscalaFuncionario, p.EscalaDia, p.EscalaEntrada, p.EscalaPrevistos}
}

// TimeReport runs the report's SQL as Report does (one read-only
// repeatable-read transaction: the settings, the listed employees' rows,
// the totals over all) back to back on one connection for d, at least
// three times, and returns the latencies. Rows are read raw: the floor is
// PostgreSQL's work and the transfer, not decoding.
func TimeReport(ctx context.Context, db *pgxpool.Pool, q ReportSQL, listed, all ReportParams, d time.Duration) (load.Result, int64, error) {
	h := hdrhistogram.New(1, int64(2*time.Minute/time.Microsecond), 3)
	var rowsRead int64
	start := time.Now()
	for n := 0; n < 3 || time.Since(start) < d; n++ {
		t0 := time.Now()
		rows, err := runReport(ctx, db, q, listed, all)
		if err != nil {
			return load.Result{}, 0, err
		}
		_ = h.RecordValue(max(time.Since(t0).Microseconds(), 1))
		rowsRead = rows
	}
	elapsed := time.Since(start)
	return load.Result{
		Ops: h.TotalCount(), Seconds: elapsed.Seconds(), RPS: float64(h.TotalCount()) / elapsed.Seconds(),
		MeanMs: h.Mean() / 1000, P50Ms: ms(h.ValueAtQuantile(50)), P90Ms: ms(h.ValueAtQuantile(90)),
		P99Ms: ms(h.ValueAtQuantile(99)), MaxMs: ms(h.Max()),
	}, rowsRead, nil
}

func runReport(ctx context.Context, db *pgxpool.Pool, q ReportSQL, listed, all ReportParams) (int64, error) {
	var n int64
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, db, opts, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.Settings); err != nil {
			return err
		}
		ranListed := false
		for _, st := range q.Steps {
			p := listed
			if st.All {
				// Report skips the department-wide query when the page
				// already lists the whole department.
				if ranListed && len(all.Funcionarios) == len(listed.Funcionarios) {
					continue
				}
				p = all
			}
			rows, err := tx.Query(ctx, st.SQL, p.args()...)
			if err != nil {
				return err
			}
			for rows.Next() {
				_ = rows.RawValues()
				n++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("%s: %w", st.Name, err)
			}
			ranListed = ranListed || !st.All
		}
		return nil
	})
	return n, err
}

func ms(us int64) float64 { return float64(us) / 1000 }
