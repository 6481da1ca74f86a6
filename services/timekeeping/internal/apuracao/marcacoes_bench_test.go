package apuracao

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/reportsql"
)

// BenchmarkReadMarcacoes reads the punches of 1,000 employees × 30 days
// (the bench's report) both ways: decoded from PostgreSQL's binary rows
// (readMarcacoes) and scanned by pgx (scanMarcacoes). cpu-ms/op is this
// process's CPU, the cost the decoding is meant to save.
func BenchmarkReadMarcacoes(b *testing.B) {
	db, c := seeded(b, 1000, 97)
	p := newParams(c.EmpresaID, c.Inicio, c.Fim, c.Funcionarios, c.Escalas)
	i := slices.IndexFunc(reportsql.Statements, func(st reportsql.Statement) bool { return st.Name == "marcacoes" })
	st := reportsql.Statements[i]
	args := st.Args(reportsql.Params{EmpresaID: p.EmpresaID, Inicio: p.Inicio, Fim: p.Fim, Funcionarios: p.Funcionarios})
	for _, x := range []struct {
		name string
		read func(pgx.Rows, Registro) error
	}{
		{"binary", readMarcacoes},
		{"scan", scanMarcacoes},
	} {
		b.Run(x.name, func(b *testing.B) {
			cpu0 := cpuTime()
			var n int
			for b.Loop() {
				f := newFatos(p)
				rows, err := db.Query(context.Background(), st.SQL, args...)
				if err == nil {
					err = readAll(rows, f, x.read)
				}
				if err != nil {
					b.Fatal(err)
				}
				n = len(f.marcas.ms)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(n), "punches")
		})
	}
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
