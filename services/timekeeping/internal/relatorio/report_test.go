package relatorio

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/page"
	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// The synthetic department: employees 1..n on one schedule (08:00 to
// 17:00 with an hour of lunch, Monday to Friday) over 30 days in São
// Paulo, with the punches seedPunches writes.
var (
	testInicio = time.Date(2026, 10, 22, 0, 0, 0, 0, time.UTC)
	testFim    = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	testEscala = employee.Escala{ID: 1, Horarios: []employee.Horario{
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
		{Entrada: "08:00", SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540},
	}}
)

const testZone = "America/Sao_Paulo"

// seedPunches gives employees 1..n of company 1, from the day before the
// period to its end, four punches a weekday around the schedule (some
// days without the saída: incomplete; some without any punch), two on
// some Saturdays (overtime), a few outside the work places, with
// fractions of a second; an adjustment on every ajusteCada-th punch,
// cycling through pending, approved and rejected, and two approved ones
// that move employee 2's punches of 2026-11-05 to the dates before and
// after; absences on one day; two holidays, one named like a formula.
func seedPunches(tb testing.TB, db *pgxpool.Pool, n, ajusteCada int) {
	tb.Helper()
	ctx := context.Background()
	for _, st := range []struct {
		sql string
		arg []any
	}{
		{`INSERT INTO registros_ponto (empresa_id, funcionario_id, jornada, horario_registro, tipo, localizacao, nsr, hash, cpf,
	fuso_minutos, coletor, fora_do_local)
SELECT 1, f, d::date,
	(d::date + make_interval(mins => (ARRAY[480, 720, 780, 1020, 540, 660])[k]
		+ (f * 7 + k * 3 + extract(doy FROM d)::int) % 15 - 7, secs => (f * k) % 60 + (f + k) % 4 * 0.333333))
		AT TIME ZONE 'America/Sao_Paulo',
	(ARRAY['entrada', 'almoço', 'retorno almoço', 'saída', 'entrada', 'almoço'])[k], '0,0',
	row_number() OVER (ORDER BY d, f, k), repeat('a', 64), lpad(f::text, 12, '0'), -180, '01', (f + k) % 50 = 0
FROM generate_series(1, $1::int) f,
	generate_series('2026-10-21'::date, '2026-11-20'::date, interval '1 day') d,
	generate_series(1, 6) k
WHERE (extract(isodow FROM d) < 6 AND k <= 4 AND NOT (k = 4 AND (f + extract(doy FROM d)::int) % 23 = 0)
		AND (f * 3 + extract(doy FROM d)::int) % 31 <> 0)
	OR (extract(isodow FROM d) = 6 AND k >= 5 AND f % 3 = 0)`, []any{n}},
		{`INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status, data_solicitar, motivo, solicitado_em, decidido_em)
SELECT id, 1, funcionario_id, s, horario_registro + interval '10 minutes 30 seconds', 'motivo', now(),
	CASE WHEN s <> 'ajuste solicitado' THEN now() END
FROM (SELECT id, funcionario_id, horario_registro, (ARRAY['ajuste solicitado', 'ajuste aprovado pela empresa',
		'ajuste reprovado pela empresa'])[1 + (id / $1::int) % 3] AS s
	FROM registros_ponto WHERE id % $1::int = 0) a`, []any{ajusteCada}},
		{`INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status, data_solicitar, motivo, solicitado_em, decidido_em)
SELECT id, 1, funcionario_id, 'ajuste aprovado pela empresa',
	horario_registro + CASE tipo WHEN 'entrada' THEN interval '-10 hours' ELSE interval '9 hours 59 minutes 59.9 seconds' END,
	'motivo', now(), now()
FROM registros_ponto WHERE funcionario_id = 2 AND jornada = '2026-11-05' AND tipo IN ('entrada', 'saída')
ON CONFLICT (registro_id) DO UPDATE SET status = excluded.status, data_solicitar = excluded.data_solicitar,
	decidido_em = excluded.decidido_em`, nil},
		{`INSERT INTO faltas (empresa_id, funcionario_id, data, inicio_dia, registrado_em)
SELECT 1, f, '2026-11-03', '2026-11-03 03:00Z', now() FROM generate_series(1, $1::int, 4) f`, []any{n}},
		{`INSERT INTO feriados (empresa_id, data, nome, criado_em)
VALUES (1, '2026-11-02', 'Finados', now()), (1, '2026-11-20', '=Consciência Negra', now())`, nil},
		{`ANALYZE`, nil},
	} {
		if _, err := db.Exec(ctx, st.sql, st.arg...); err != nil {
			tb.Fatal(err)
		}
	}
}

// testFuncionarios names employees 1..n, the first ones as a spreadsheet
// could misread them.
func testFuncionarios(n int) []employee.Funcionario {
	names := []string{"Ana Lima", "=Bruno", "+55 Carla", "-Davi", `@Eva; "Evinha"`, "Fábio Conceição"}
	out := make([]employee.Funcionario, n)
	for i := range out {
		id := int64(i + 1)
		nome := "Funcionário " + strconv.Itoa(i+1)
		if i < len(names) {
			nome = names[i]
		}
		out[i] = employee.Funcionario{Funcionario: employeeapi.Funcionario{ID: id, EmpresaID: 1,
			EscalaTrabalhoID: testEscala.ID, Nome: nome, CPF: strconv.FormatInt(10_000_000_000+id, 10), Ativo: true}}
	}
	return out
}

// testReport is the department report of funcs over the test period as
// the handler assembles it (every employee listed).
type testReport struct {
	store   *Store
	funcs   []employee.Funcionario
	escalas map[int64]*core.Escala
	p       Params
}

func newTestReport(tb testing.TB, n, ajusteCada int) testReport {
	tb.Helper()
	db := dbtest.New(tb, os.DirFS("../../migrations"))
	seedPunches(tb, db, n, ajusteCada)
	s, err := escalasOf(map[int64]employee.Escala{testEscala.ID: testEscala})
	if err != nil {
		tb.Fatal(err)
	}
	funcs, escalas := testFuncionarios(n), s
	return testReport{store: NewStore(db), funcs: funcs, escalas: escalas,
		p: NewParams(1, testInicio, testFim, funcs, escalas)}
}

// days runs the report's SQL for the CSV (all employees listed).
func (r testReport) days(tb testing.TB) []Dia {
	tb.Helper()
	days, err := r.store.Days(context.Background(), r.p)
	if err != nil {
		tb.Fatal(err)
	}
	return days
}

// items groups the day rows (ordered as listed) under their employees,
// as the handler's department does one employee at a time.
func items(listed []employee.Funcionario, days []Dia, dsr map[int64][]DSR, bancos map[int64]any) []Item {
	out := make([]Item, 0, len(listed))
	i := 0
	for _, f := range listed {
		start := i
		for i < len(days) && days[i].FuncionarioID == f.ID {
			i++
		}
		out = append(out, item(f, days[start:i:i], dsr[f.ID], bancos[f.ID]))
	}
	return out
}

// renderCSV is the CSV of a report already computed, as csvStream
// writes it.
func renderCSV(r Relatorio) ([]byte, error) {
	cw := newCSVWriter()
	for _, it := range r.Itens {
		cw.employee(it.Funcionario, it.Dias, it.Totais)
	}
	cw.department(r)
	return cw.out, nil
}

// reportRows reads the rows of listed's employees and of all's.
func reportRows(tb testing.TB, s *Store, listed, all Params) (days, facts []Dia) {
	tb.Helper()
	days, err := s.Days(context.Background(), listed)
	if err == nil {
		facts, err = s.Days(context.Background(), all)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return days, facts
}

// relatorio applies the rules to days and builds the answer.
func (r testReport) relatorio(days []Dia) Relatorio {
	computeDays(days, r.p)
	return Relatorio{
		Departamento: Departamento{ID: 7, Nome: "=Operações"},
		Inicio:       testInicio.Format(time.DateOnly),
		Fim:          testFim.Format(time.DateOnly),
		FusoHorario:  testZone,
		Totais:       Sum(days),
		Result:       page.NewResult(items(r.funcs, days, nil, nil), page.Page{Number: 1, Size: len(r.funcs)}, len(r.funcs)),
	}
}

// The CSV is compared byte for byte with testdata/relatorio.csv, written
// by the version of writeCSV that decoded each day's punches from the
// JSON column: the punches' text, the quoting, the protection against
// formulas and the totals must not change.
func TestCSVGolden(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	got, err := renderCSV(r.relatorio(r.days(t)))
	if err != nil {
		t.Fatal(err)
	}
	wantGolden(t, "relatorio.csv", got, []byte("\r\n"))
}

// wantGolden compares got with the file name of testdata, showing the
// first of the parts (split at sep) that differs. UPDATE_GOLDEN=1 writes
// got to the file instead, after a deliberate change of the answer.
func wantGolden(t *testing.T, name string, got, sep []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, sep), bytes.Split(want, sep)
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s, part %d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d parts, want %d", name, len(gl), len(wl))
	}
}

// The JSON answer (the first page of three employees, the totals over all
// eight) is compared byte for byte with testdata/relatorio.json,
// written when the punches were scanned into a validated json.RawMessage:
// the JSON report's contract must not move with the CSV's optimisations.
func TestJSONGolden(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	listed := r.funcs[:3]
	pListed := NewParams(1, testInicio, testFim, listed, r.escalas)
	days, facts := reportRows(t, r.store, pListed, r.p)
	computeDays(days, pListed)
	computeDays(facts, r.p)
	got, err := json.Marshal(Relatorio{
		Departamento: Departamento{ID: 7, Nome: "Operações"},
		Inicio:       testInicio.Format(time.DateOnly),
		Fim:          testFim.Format(time.DateOnly),
		FusoHorario:  testZone,
		Totais:       Sum(facts),
		Result:       page.NewResult(items(listed, days, nil, nil), page.Page{Number: 1, Size: 3}, len(r.funcs)),
	})
	if err != nil {
		t.Fatal(err)
	}
	wantGolden(t, "relatorio.json", got, []byte("},"))
}

// benchEmployees and the 30 days of the period are the size of the
// benchmark's CSV workload (tools/cmd/bench, report-csv).
const benchEmployees = 1000

// BenchmarkReportCSV runs the whole CSV report of 1,000 employees × 30
// days against PostgreSQL: the read, the rules and the rendering.
// cpu-ms/op is this process's CPU (the server's is not in it).
func BenchmarkReportCSV(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		r.writeCSV(b, r.fatos(b))
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkRenderCSV is the Go side of the CSV without the read: the
// facts of 1,000 employees × 30 days, read once, through the rules and
// into the CSV.
func BenchmarkRenderCSV(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	f := r.fatos(b)
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		r.writeCSV(b, f)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// fatos reads the facts of every employee over the test period.
func (r testReport) fatos(tb testing.TB) *Fatos {
	tb.Helper()
	f, err := r.store.Fatos(context.Background(), r.p)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// writeCSV streams the CSV of f, every employee listed, as the handler
// answers it.
func (r testReport) writeCSV(tb testing.TB, f *Fatos) {
	tb.Helper()
	if _, err := io.Copy(io.Discard, newCSVStream(Relatorio{}, f, r.funcs, 0, len(r.funcs))); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReportJSON is the JSON answer for the same department: the
// read, every employee's days and rest days, its first page of 20
// employees with their punches and the totals over all 1,000, encoded as
// the handler answers.
func BenchmarkReportJSON(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	q := query{inicio: testInicio, fim: testFim, ate: testFim}
	p := NewParams(1, Antes(testInicio), testFim, r.funcs, r.escalas)
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		f, err := r.store.Fatos(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		totals, itens := department(f, q, r.funcs, 0, 20, nil)
		if _, err := json.Marshal(Relatorio{Totais: totals,
			Result: page.NewResult(itens, page.Page{Number: 1, Size: 20}, len(r.funcs))}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
