package relatorio

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// The punches read the same on a pool set to the simple protocol, whose
// rows come as text (scanned), as in PostgreSQL's binary format (decoded
// from the wire).
func TestFatosWithTheSimpleProtocol(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	cfg := r.store.db.Config()
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	simple, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer simple.Close()
	want := r.days(t)
	got, err := NewStore(simple).Days(context.Background(), r.p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) < 8*20 {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// The streamed CSV, computed one employee at a time and read in small
// pieces, is the golden file byte for byte.
func TestCSVStreamGolden(t *testing.T) {
	t.Parallel()
	r := newTestReport(t, 8, 11)
	s := newCSVStream(Relatorio{Departamento: Departamento{ID: 7, Nome: "=Operações"}, Inicio: testInicio.Format(time.DateOnly),
		Fim: testFim.Format(time.DateOnly)}, r.fatos(t), r.funcs, 0, len(r.funcs))
	var got []byte
	buf := make([]byte, 7)
	for {
		n, err := s.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wantGolden(t, "relatorio.csv", got, []byte("\r\n"))
}

// A failure while computing the streamed CSV ends it with an error, so
// that the server breaks the connection rather than end a short answer.
func TestCSVStreamFailure(t *testing.T) {
	s := newCSVStream(Relatorio{}, nil, make([]employee.Funcionario, 1), 0, 1) // no facts: computing fails
	_, err := io.ReadAll(s)
	if err == nil || err == io.EOF {
		t.Fatalf("err %v, want the failure", err)
	}
}
