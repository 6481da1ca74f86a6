package funcionario

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// BenchmarkLookup is the clock-in's batched lookup as the employee
// service serves it (the query, the records rendered and encoded), on the
// benchmark's shape of data: 100 companies of 100 employees, two weekly
// schedules each, and a lookup of 13 employees of 13 companies, the size a
// cold shift change makes. Besides the time, it reports this process's
// CPU and PostgreSQL's (the database's backends) per lookup:
//
//	go test -run '^$' -bench Lookup -count 5 ./internal/funcionario/
//
// "juntas" is the schedules in every record (and what the schedules
// apart read from the database until escalasConhecidas); "separadas" the
// schedules apart, none known; "conhecidas" all of them known.
func BenchmarkLookup(b *testing.B) {
	db := dbtest.New(b, os.DirFS("../../migrations"))
	ctx := context.Background()
	seedLookup(b, ctx, db)
	s := NewStore(db)
	rng := rand.New(rand.NewPCG(1, 2))
	batch := func() (ids, known []int64) {
		for i := range 13 {
			empresa := int64(i*7 + rng.IntN(7) + 1)
			ids = append(ids, (empresa-1)*100+int64(rng.IntN(100))+1)
			known = append(known, 2*empresa-1, 2*empresa)
		}
		return ids, known
	}
	for _, c := range []struct {
		name   string
		lookup func(ids, known []int64) (internalapi.Funcionarios, error)
	}{
		{"juntas", func(ids, _ []int64) (internalapi.Funcionarios, error) {
			fs, err := s.ByIDs(ctx, ids)
			return internalapi.Funcionarios{Funcionarios: RenderAllInternal(fs)}, err
		}},
		{"separadas", func(ids, _ []int64) (internalapi.Funcionarios, error) {
			fs, es, err := s.ByIDsApart(ctx, ids, nil)
			return internalapi.Funcionarios{Funcionarios: RenderAllInternal(fs), Escalas: es}, err
		}},
		{"conhecidas", func(ids, known []int64) (internalapi.Funcionarios, error) {
			fs, es, err := s.ByIDsApart(ctx, ids, known)
			return internalapi.Funcionarios{Funcionarios: RenderAllInternal(fs), Escalas: es}, err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			pg, self := backendsCPU(b, db), processCPU()
			for b.Loop() {
				ids, known := batch()
				out, err := c.lookup(ids, known)
				if err == nil && len(out.Funcionarios) != len(ids) {
					err = fmt.Errorf("%d records for %d ids", len(out.Funcionarios), len(ids))
				}
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(out); err != nil {
					b.Fatal(err)
				}
			}
			perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
			b.ReportMetric(perOp(backendsCPU(b, db)-pg), "pg-cpu-µs/op")
			b.ReportMetric(perOp(processCPU()-self), "cpu-µs/op")
		})
	}
}

// seedLookup writes 100 companies' schedules and employees.
func seedLookup(b *testing.B, ctx context.Context, db *pgxpool.Pool) {
	b.Helper()
	day := `{"entrada": "08:00", "saidaAlmoco": 240, "retornoAlmoco": 300, "saida": 540}`
	horarios := "[" + strings.Repeat(day+", ", 4) + day + "]"
	if _, err := db.Exec(ctx, `INSERT INTO escalas_trabalho (empresa_id, nome, horarios, minutos_diarios)
		SELECT (g + 1) / 2, 'Escala ' || g, $1::jsonb, 480 FROM generate_series(1, 200) g`, horarios); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO funcionarios (empresa_id, escala_trabalho_id, nome, cargo, email, cpf,
			telefone, data_nascimento, password_hash)
		SELECT (g - 1) / 100 + 1, 2 * ((g - 1) / 100) + 1 + g % 2, 'Funcionário ' || g, 'Operador',
			'f' || g || '@empresa.com.br', lpad(g::text, 11, '0'), '11999990000', '1990-01-01', 'x'
		FROM generate_series(1, 10000) g`); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
}

// backendsCPU is the CPU time so far of the backends connected to db's
// database.
func backendsCPU(b *testing.B, db *pgxpool.Pool) time.Duration {
	b.Helper()
	rows, _ := db.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	for _, pid := range pids {
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(int(pid)) + "/stat")
		if err != nil {
			continue // not this machine's PostgreSQL: no figure
		}
		f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ 100
	}
	return total
}

// processCPU is this process's CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
