package apuracao

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/internal/apuracao/apuracaotest"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// seeded is apuracaotest's department of n employees in a new database,
// and the question of all of them over its period, detailed.
func seeded(tb testing.TB, n, ajusteCada int) (*pgxpool.Pool, Consulta) {
	tb.Helper()
	db := dbtest.New(tb, os.DirFS("../../migrations"))
	apuracaotest.Seed(tb, db, n, ajusteCada)
	escalas, err := EscalasOf(map[int64]employee.Escala{apuracaotest.Escala.ID: apuracaotest.Escala})
	if err != nil {
		tb.Fatal(err)
	}
	return db, Consulta{EmpresaID: 1, Funcionarios: apuracaotest.Funcionarios(n), Escalas: escalas,
		Inicio: apuracaotest.Inicio, Fim: apuracaotest.Fim, Detalhe: func(int) bool { return true }, DSR: true}
}

// todos computes c on db.
func todos(tb testing.TB, db *pgxpool.Pool, c Consulta) []Apurado {
	tb.Helper()
	r, err := New(NewStore(db)).Apurar(context.Background(), c)
	if err != nil {
		tb.Fatal(err)
	}
	return r.Todos()
}

// The punches read the same on a pool set to the simple protocol, whose
// rows come as text (scanned), as in PostgreSQL's binary format (decoded
// from the wire).
func TestFatosWithTheSimpleProtocol(t *testing.T) {
	t.Parallel()
	db, c := seeded(t, 8, 11)
	cfg := db.Config()
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	simple, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer simple.Close()
	want, got := todos(t, db, c), todos(t, simple, c)
	days := 0
	for i := range want {
		days += len(want[i].Dias)
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("employee %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if len(got) != 8 || days < 8*20 {
		t.Fatalf("%d employees, %d days", len(got), days)
	}
}
