package relatorio

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/reportsql"
)

// BenchmarkReadMarcacoes reads the punches of 1,000 employees × 30 days
// (the bench's report) both ways: decoded from PostgreSQL's binary rows
// (readMarcacoes) and scanned by pgx (scanMarcacoes). cpu-ms/op is this
// process's CPU, the cost the decoding is meant to save.
func BenchmarkReadMarcacoes(b *testing.B) {
	r := newTestReport(b, benchEmployees, 97)
	i := slices.IndexFunc(reportsql.Statements, func(st reportsql.Statement) bool { return st.Name == "marcacoes" })
	st := reportsql.Statements[i]
	for _, c := range []struct {
		name string
		read func(*Fatos, pgx.Rows) error
	}{
		{"binary", (*Fatos).readMarcacoes},
		{"scan", (*Fatos).scanMarcacoes},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := cpuTime()
			var n int
			for b.Loop() {
				f := newFatos(r.p)
				rows, err := r.store.db.Query(context.Background(), st.SQL, st.Args(r.p.Params)...)
				if err == nil {
					err = readAll(rows, func(rows pgx.Rows) error { return c.read(f, rows) })
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
