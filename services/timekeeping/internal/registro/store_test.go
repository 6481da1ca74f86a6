package registro

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/services/timekeeping/internal/clock"
)

// steppingClock returns its instants one after the other, the last one
// from then on.
type steppingClock struct {
	mu    sync.Mutex
	times []time.Time
}

func (c *steppingClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.times[0]
	if len(c.times) > 1 {
		c.times = c.times[1:]
	}
	return t
}

func newStore(t *testing.T, times ...time.Time) *Store {
	t.Helper()
	zone, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, os.DirFS("../../migrations"))
	return NewStore(db, clock.New(zone, (&steppingClock{times: times}).now))
}

func punch(empresaID, funcionarioID int64) Punch {
	return Punch{EmpresaID: empresaID, FuncionarioID: funcionarioID, CPF: "123.456.789-09", Nome: "Ana",
		Localizacao: "-23.5, -46.6"}
}

// The first batch counts the workday of the moment it is sent; when the
// lock comes after midnight, the punch belongs to the new day, counted
// again under the lock.
func TestClockInAcrossMidnightCountsTheNewWorkday(t *testing.T) {
	sp := func(d, h, m, s int) time.Time { return time.Date(2024, 3, d, h, m, s, 0, time.FixedZone("", -3*3600)) }
	s := newStore(t,
		sp(4, 8, 0, 0), sp(4, 8, 0, 0), // an entrada on the 4th (batch, stamp)
		sp(4, 23, 59, 59), sp(5, 0, 0, 1)) // batch sent on the 4th, stamped on the 5th
	ctx := t.Context()
	first, _, _, err := s.ClockIn(ctx, punch(1, 10))
	if err != nil || first.Tipo != TipoEntrada {
		t.Fatalf("first punch: %+v, %v", first, err)
	}
	r, earlier, replayed, err := s.ClockIn(ctx, punch(1, 10))
	if err != nil || replayed {
		t.Fatal(err, replayed)
	}
	if got := r.Jornada.Format(time.DateOnly); got != "2024-03-05" || r.Tipo != TipoEntrada || len(earlier) != 0 {
		t.Fatalf("after midnight: workday %s, tipo %q, %d earlier punches; want 2024-03-05, entrada, none",
			got, r.Tipo, len(earlier))
	}
	// NSR 1 is the employee's type-5 inclusion, then the two punches.
	if *first.NSR != 2 || *r.NSR != 3 {
		t.Fatalf("NSRs %d and %d, want 2 and 3", *first.NSR, *r.NSR)
	}
}

// A punch waiting for its company's turn gives up with its request.
func TestClockInWaitingForTheCompanyEndsWithTheRequest(t *testing.T) {
	s := newStore(t, time.Date(2024, 3, 4, 11, 0, 0, 0, time.UTC))
	q, _ := s.chains.LoadOrStore(int64(1), make(chan struct{}, 1))
	q.(chan struct{}) <- struct{}{} // another punch of company 1 is being recorded
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, _, _, err := s.ClockIn(ctx, punch(1, 10)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the request's deadline", err)
	}
	// Another company is not held up.
	if _, _, _, err := s.ClockIn(t.Context(), punch(2, 20)); err != nil {
		t.Fatal(err)
	}
	<-q.(chan struct{})
	if _, _, _, err := s.ClockIn(t.Context(), punch(1, 10)); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow(t.Context(), `SELECT count(*) FROM registros_ponto WHERE empresa_id = 1`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("company 1 has %d punches (%v), want 1", n, err)
	}
}
