package changefeed

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/database/dbtest"
	"github.com/ponto/ponto/pkg/logging/logtest"
	"github.com/ponto/ponto/pkg/redisclient/redistest"
)

// changesTable is the table the relay drains, as the employee service's
// migration creates it (its triggers, which fill it, are tested there).
const changesTable = `-- +goose Up
CREATE TABLE funcionarios_alterados (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     bigint NOT NULL,
    funcionario_id bigint
);
INSERT INTO table_access (table_name, access) VALUES ('funcionarios_alterados', 'read_write');
-- +goose Down
DROP TABLE funcionarios_alterados;
`

func newDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return dbtest.New(t, fstest.MapFS{"00001_changes.sql": {Data: []byte(changesTable)}})
}

// change records what the triggers record for an employee changed
// (funcionario 0: a schedule of the company changed).
func change(t *testing.T, db *pgxpool.Pool, empresa, funcionario int64) {
	t.Helper()
	exec(t, db, fmt.Sprintf(`INSERT INTO funcionarios_alterados (empresa_id, funcionario_id)
		VALUES (%d, NULLIF(%d, 0))`, empresa, funcionario))
}

func exec(t *testing.T, db *pgxpool.Pool, sql string) {
	t.Helper()
	if _, err := db.Exec(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func pending(t *testing.T, db *pgxpool.Pool) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT empresa_id || ':' || COALESCE(funcionario_id, 0) FROM funcionarios_alterados ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func quiet() *slog.Logger { return slog.New(slog.NewJSONHandler(&logtest.Buffer{}, nil)) }

// recorder is a cache as a Watcher sees it: the changes it was told.
type recorder struct {
	mu      sync.Mutex
	changes []Change
}

func (r *recorder) forget(cs ...Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, cs...)
}

// take returns the changes told since the last take, as "empresa:funcionario".
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, c := range r.changes {
		out = append(out, member(c.EmpresaID, c.FuncionarioID))
	}
	r.changes = nil
	slices.Sort(out)
	return out
}

func watcher(rdb *redis.Client, prefix string) (*Watcher, *recorder) {
	w, r := NewWatcher(rdb, prefix, quiet()), &recorder{}
	w.Follow(r.forget)
	return w, r
}

func read(t *testing.T, w *Watcher) {
	t.Helper()
	if err := w.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// The relay publishes what the triggers recorded once, and every watcher
// reads it.
func TestChangesReachEveryWatcher(t *testing.T) {
	ctx := context.Background()
	db, rdb, prefix := newDB(t), redistest.New(t), redistest.Prefix(t)
	relay := NewRelay(db, rdb, prefix, quiet())
	a, ra := watcher(rdb, prefix)
	b, rb := watcher(rdb, prefix)
	read(t, a)
	read(t, b)
	if got := ra.take(); !slices.Equal(got, []string{"0:0"}) {
		t.Fatalf("a first read forgets everything, got %v", got)
	}
	rb.take()

	change(t, db, 7, 1)
	change(t, db, 7, 0)
	change(t, db, 7, 3)

	before := time.Now()
	n, err := relay.Pass(ctx)
	if err != nil || n != 3 {
		t.Fatalf("pass: %d, %v", n, err)
	}
	if got := pending(t, db); len(got) != 0 {
		t.Fatalf("left after the pass: %v", got)
	}
	read(t, a)
	read(t, b)
	want := []string{"7:0", "7:1", "7:3"}
	for name, r := range map[string]*recorder{"a": ra, "b": rb} {
		r.mu.Lock()
		for _, c := range r.changes {
			if c.At.Before(before.Add(-time.Second)) || c.At.After(time.Now().Add(time.Second)) {
				t.Errorf("%s: change %v at %v, published after %v", name, c, c.At, before)
			}
		}
		r.mu.Unlock()
		if got := r.take(); !slices.Equal(got, want) {
			t.Errorf("%s read %v, want %v", name, got, want)
		}
		if w := map[string]*Watcher{"a": a, "b": b}[name]; !w.Current(30 * time.Second) {
			t.Errorf("%s is not current after reading a drained relay's heartbeat", name)
		}
	}
	// A later change is told alone: the earlier ones, still within the
	// read's overlap, were told already.
	change(t, db, 8, 4)
	if _, err := relay.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	read(t, a)
	if got := ra.take(); !slices.Equal(got, []string{"8:4"}) {
		t.Errorf("a read %v, want 8:4 alone", got)
	}
	// The same employee changed again is told again.
	change(t, db, 8, 4)
	time.Sleep(2 * time.Millisecond) // a later score
	if _, err := relay.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	read(t, a)
	if got := ra.take(); !slices.Equal(got, []string{"8:4"}) {
		t.Errorf("a read %v after a second change, want 8:4", got)
	}
}

// Current needs both a recent read and a recent heartbeat of a relay that
// drained the table.
func TestCurrentNeedsTheRelayAndTheRead(t *testing.T) {
	ctx := context.Background()
	db, rdb, prefix := newDB(t), redistest.New(t), redistest.Prefix(t)
	w, _ := watcher(rdb, prefix)
	read(t, w)
	if w.Current(30 * time.Second) {
		t.Fatal("current without any relay heartbeat")
	}

	relay := NewRelay(db, rdb, prefix, quiet())
	relay.now = func() time.Time { return time.Now().Add(-time.Minute) } // its last pass was a minute ago
	if _, err := relay.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	read(t, w)
	if w.Current(30 * time.Second) {
		t.Fatal("current with a heartbeat a minute old")
	}
	relay.now = time.Now
	if _, err := relay.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	read(t, w)
	if !w.Current(30 * time.Second) {
		t.Fatal("not current after a fresh heartbeat")
	}
	w.now = func() time.Time { return time.Now().Add(time.Minute) } // no read for a minute
	if w.Current(30 * time.Second) {
		t.Fatal("current a minute after its last read")
	}

	// A watcher whose Redis is gone keeps its last state and reports the
	// failure.
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = dead.Close() })
	lost, _ := watcher(dead, prefix)
	if err := lost.Read(ctx); err == nil || lost.Current(time.Hour) {
		t.Fatalf("read through a dead Redis: err %v, current %v", err, lost.Current(time.Hour))
	}
}

// A pass whose publishing fails keeps the rows and stamps no heartbeat;
// a pass while another replica holds the turn does nothing.
func TestRelayLosesNothing(t *testing.T) {
	ctx := context.Background()
	db, rdb, prefix := newDB(t), redistest.New(t), redistest.Prefix(t)
	change(t, db, 7, 2)

	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = dead.Close() })
	if _, err := NewRelay(db, dead, prefix, quiet()).Pass(ctx); err == nil {
		t.Fatal("a pass through a dead Redis succeeded")
	}
	if got := pending(t, db); !slices.Equal(got, []string{"7:2"}) {
		t.Fatalf("after a failed pass: %v", got)
	}

	// Another replica's turn: its transaction holds the lock.
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey)); err != nil {
		t.Fatal(err)
	}
	relay := NewRelay(db, rdb, prefix, quiet())
	if n, err := relay.Pass(ctx); err != nil || n != 0 {
		t.Fatalf("pass during another's turn: %d, %v", n, err)
	}
	w, r := watcher(rdb, prefix)
	read(t, w)
	if w.Current(time.Hour) {
		t.Fatal("current although no relay has drained the table")
	}
	_ = tx.Rollback(ctx)

	if n, err := relay.Pass(ctx); err != nil || n != 1 {
		t.Fatalf("pass after the turn came back: %d, %v", n, err)
	}
	r.take()
	read(t, w)
	if got := r.take(); !slices.Equal(got, []string{"7:2"}) || !w.Current(time.Hour) {
		t.Fatalf("read %v, current %v", got, w.Current(time.Hour))
	}
}

// A watcher that could not read for longer than the set keeps changes
// forgets everything; one within it forgets only what changed.
func TestWatcherAfterAGap(t *testing.T) {
	rdb, prefix := redistest.New(t), redistest.Prefix(t)
	w, r := watcher(rdb, prefix)
	read(t, w)
	r.take()
	read(t, w)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("nothing changed, forgot %v", got)
	}
	w.mu.Lock()
	w.read = time.Now().Add(-Retention)
	w.mu.Unlock()
	read(t, w)
	if got := r.take(); !slices.Equal(got, []string{"0:0"}) {
		t.Fatalf("after a gap of %v, forgot %v", Retention, got)
	}
}
