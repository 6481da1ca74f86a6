package relatorio

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao/apuracaotest"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// The synthetic department of apuracaotest: employees 1..n over 30 days.
var (
	testInicio = apuracaotest.Inicio
	testFim    = apuracaotest.Fim
)

const testZone = apuracaotest.Zone

// testReport is the department report of funcs over the test period as
// the handler assembles it (every employee listed).
type testReport struct {
	apuracao *apuracao.Apuracao
	funcs    []employee.Funcionario
	escalas  map[int64]*core.Escala
}

func newTestReport(tb testing.TB, n, ajusteCada int) testReport {
	tb.Helper()
	db := dbtest.New(tb, os.DirFS("../../migrations"))
	apuracaotest.Seed(tb, db, n, ajusteCada)
	escalas, err := apuracao.EscalasOf(map[int64]employee.Escala{apuracaotest.Escala.ID: apuracaotest.Escala})
	if err != nil {
		tb.Fatal(err)
	}
	return testReport{apuracao: apuracao.New(apuracao.NewStore(db)), funcs: apuracaotest.Funcionarios(n), escalas: escalas}
}

// consulta asks for every employee over the test period as the CSV does,
// the first listed ones detailed.
func (r testReport) consulta(listed int) apuracao.Consulta {
	return apuracao.Consulta{EmpresaID: 1, Funcionarios: r.funcs, Escalas: r.escalas, Inicio: testInicio, Fim: testFim,
		Detalhe: func(i int) bool { return i < listed }}
}

// resultado computes c.
func (r testReport) resultado(tb testing.TB, c apuracao.Consulta) *apuracao.Resultado {
	tb.Helper()
	res, err := r.apuracao.Apurar(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return res
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

// relatorio is the answer of the first listed employees of res, with the
// totals over all.
func (r testReport) relatorio(res *apuracao.Resultado, nome string, listed int) Relatorio {
	totals, itens := department(res, 0, listed)
	return Relatorio{
		Departamento: Departamento{ID: 7, Nome: nome},
		Inicio:       testInicio.Format(time.DateOnly),
		Fim:          testFim.Format(time.DateOnly),
		FusoHorario:  testZone,
		Totais:       totals,
		Result:       page.NewResult(itens, page.Page{Number: 1, Size: listed}, len(r.funcs)),
	}
}

// The CSV is compared byte for byte with testdata/relatorio.csv, written
// by the version of writeCSV that decoded each day's punches from the
// JSON column: the punches' text, the quoting, the protection against
// formulas and the totals must not change.
func TestCSVGolden(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	got, err := renderCSV(r.relatorio(r.resultado(t, r.consulta(8)), "=Operações", 8))
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
	got, err := json.Marshal(r.relatorio(r.resultado(t, r.consulta(3)), "Operações", 3))
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
		r.writeCSV(b, r.resultado(b, r.consulta(len(r.funcs))))
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkRenderCSV is the Go side of the CSV without the read: the
// facts of 1,000 employees × 30 days, read once, through the rules and
// into the CSV.
func BenchmarkRenderCSV(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	c := r.consulta(len(r.funcs))
	res := r.resultado(b, c)
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		r.writeCSV(b, res)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// writeCSV streams the CSV of res, every employee listed, as the handler
// answers it.
func (r testReport) writeCSV(tb testing.TB, res *apuracao.Resultado) {
	tb.Helper()
	if _, err := io.Copy(io.Discard, newCSVStream(Relatorio{}, res, 0, len(r.funcs))); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkReportJSON is the JSON answer for the same department: the
// read, every employee's days and rest days, its first page of 20
// employees with their punches and the totals over all 1,000, encoded as
// the handler answers.
func BenchmarkReportJSON(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	c := r.consulta(20)
	c.DSR = true
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		totals, itens := department(r.resultado(b, c), 0, 20)
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
