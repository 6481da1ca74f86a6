// Package changefeed tells every timekeeping replica which employee
// records changed in the employee service, so that the clock-in's cache
// of employees may keep a record for hours instead of seconds: the same
// people punch at every shift change, hours apart.
//
// The employee service's database records every change that alters what
// timekeeping caches, in the same transaction as the change, through
// triggers of its own migration (funcionarios_alterados: an employee
// updated or deleted, his row; a work schedule updated or deleted, the
// whole company, funcionario_id NULL, as its employees carry it). A Relay in the employee service moves those rows into a Redis
// sorted set (member "empresa:funcionario", funcionario 0 for the whole
// company; score: when the relay published it, in Unix milliseconds) and
// deletes them, one replica at a time, and after every pass that left
// nothing behind it stamps the set's heartbeat with the pass's start.
//
// A Watcher in each timekeeping replica reads the set's recent changes
// every second and hands each to its cache (Forget). It is Current while
// both its own reads and the relay's heartbeat are recent: only then may
// the cache serve a record older than its short TTL. So a change reaches
// every replica within about a second and a half, a dead relay or an
// unreachable Redis brings the cache back to its short TTL, and nothing
// relies on a message arriving: the set is read again, with an overlap.
package changefeed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/clock"
)

const (
	// Retention is how long the set keeps a change. A Watcher that could
	// not read the set for longer forgets every record.
	Retention = time.Hour
	// Overlap is how far back each read of a Watcher starts before the
	// previous read began: the relays' clocks may be a little apart from
	// the Watcher's, and a change published during a read may carry an
	// earlier score.
	Overlap = 15 * time.Second
	// batch bounds the rows one relay pass publishes.
	batch = 1000
	// lockKey is the transaction advisory lock that lets one relay at a
	// time publish ("chfd").
	lockKey = 0x63686664
)

// Change is one change of the employee service: FuncionarioID 0 stands for
// every employee of the company, EmpresaID 0 for every record (the feed
// lost track). At is when the relay published it, on the relay's clock,
// or, for every record, when the Watcher's read began, on its own.
type Change struct {
	EmpresaID, FuncionarioID int64
	At                       time.Time
}

func key(prefix string) string       { return prefix + "employee-changes" }
func heartbeat(prefix string) string { return prefix + "employee-changes:relay" }

func member(empresaID, funcionarioID int64) string {
	return strconv.FormatInt(empresaID, 10) + ":" + strconv.FormatInt(funcionarioID, 10)
}

func parseMember(s string) (empresaID, funcionarioID int64, ok bool) {
	e, f, found := strings.Cut(s, ":")
	var err1, err2 error
	empresaID, err1 = strconv.ParseInt(e, 10, 64)
	funcionarioID, err2 = strconv.ParseInt(f, 10, 64)
	return empresaID, funcionarioID, found && err1 == nil && err2 == nil && empresaID > 0 && funcionarioID >= 0
}

// Relay publishes the employee service's changes.
type Relay struct {
	db     *pgxpool.Pool
	rdb    redis.Cmdable
	prefix string
	log    *slog.Logger
	now    func() time.Time
}

// NewRelay returns the relay of the changes in db, published on rdb under
// the deployment's key prefix.
func NewRelay(db *pgxpool.Pool, rdb redis.Cmdable, prefix string, log *slog.Logger) *Relay {
	return &Relay{db: db, rdb: rdb, prefix: prefix, log: log.With("component", "changefeed"), now: time.Now}
}

// Start runs a pass every interval until ctx ends. A failure is logged
// when passes start failing and when they work again, not at every pass.
func (r *Relay) Start(ctx context.Context, interval time.Duration) {
	failing := false
	go clock.Every(ctx, interval, func() {
		_, err := r.Pass(ctx)
		switch {
		case err != nil && !failing && ctx.Err() == nil:
			r.log.WarnContext(ctx, "publishing employee changes failed; the clock-in caches fall back to their short TTL until it works again", "err", err.Error())
			failing = true
		case err == nil && failing:
			r.log.InfoContext(ctx, "publishing employee changes works again")
			failing = false
		}
	})
}

// Pass publishes up to one batch of changes and returns how many rows it
// took; 0 with no error also when another replica holds the turn. The
// rows are deleted in the transaction that read them, committed only
// after Redis took the changes, so a failure keeps them for the next pass.
func (r *Relay) Pass(ctx context.Context) (n int, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tx, err := r.db.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("changefeed: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var turn bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, int64(lockKey)).Scan(&turn); err != nil {
		return 0, fmt.Errorf("changefeed: lock: %w", err)
	}
	if !turn {
		return 0, nil
	}
	start := r.now()
	rows, _ := tx.Query(ctx, `SELECT id, empresa_id, COALESCE(funcionario_id, 0) FROM funcionarios_alterados ORDER BY id LIMIT $1`, batch)
	var ids []int64
	members := map[string]bool{}
	var id, empresaID, funcionarioID int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &empresaID, &funcionarioID}, func() error {
		ids = append(ids, id)
		members[member(empresaID, funcionarioID)] = true
		return nil
	}); err != nil {
		return 0, fmt.Errorf("changefeed: read: %w", err)
	}
	if err := r.publish(ctx, members, start, len(ids) < batch); err != nil {
		return 0, err
	}
	if len(ids) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM funcionarios_alterados WHERE id = ANY($1)`, ids); err != nil {
			return 0, fmt.Errorf("changefeed: delete: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("changefeed: commit: %w", err)
	}
	return len(ids), nil
}

// publish adds members to the set at the time of publishing, drops what
// is past Retention and, when the pass drained the table, stamps the
// heartbeat with the pass's start: every change committed before it is
// in the set.
func (r *Relay) publish(ctx context.Context, members map[string]bool, start time.Time, drained bool) error {
	at := r.now()
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if len(members) > 0 {
			zs := make([]redis.Z, 0, len(members))
			for m := range members {
				zs = append(zs, redis.Z{Score: float64(at.UnixMilli()), Member: m})
			}
			p.ZAdd(ctx, key(r.prefix), zs...)
			p.ZRemRangeByScore(ctx, key(r.prefix), "-inf", "("+strconv.FormatInt(at.Add(-Retention).UnixMilli(), 10))
		}
		if drained {
			p.Set(ctx, heartbeat(r.prefix), start.UnixMilli(), Retention)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("changefeed: publish: %w", err)
	}
	return nil
}

// Watcher follows the changes for one replica's cache.
type Watcher struct {
	rdb    *redis.Client
	prefix string
	log    *slog.Logger
	forget func(...Change)
	now    func() time.Time

	mu sync.Mutex
	// read is when the last successful read began; relay is the relay's
	// last heartbeat it saw (zero: none).
	read, relay time.Time
	// told are the changes handed to forget that the next read may see
	// again (member: score), so that each is told once.
	told map[string]float64
}

// NewWatcher returns a watcher of the changes under prefix; Follow gives
// it the cache to tell before it starts.
func NewWatcher(rdb *redis.Client, prefix string, log *slog.Logger) *Watcher {
	return &Watcher{rdb: rdb, prefix: prefix, log: log.With("component", "changefeed"),
		forget: func(...Change) {}, now: time.Now, told: map[string]float64{}}
}

// Follow has the watcher hand the changes of each read to forget (a
// cache's Forget), each change once. It must be called before Start or
// Read.
func (w *Watcher) Follow(forget func(...Change)) { w.forget = forget }

// Start reads the changes every interval until ctx ends.
func (w *Watcher) Start(ctx context.Context, interval time.Duration) {
	go clock.Every(ctx, interval, func() {
		if err := w.Read(ctx); err != nil && ctx.Err() == nil {
			w.log.DebugContext(ctx, "reading employee changes failed", "err", err.Error())
		}
	})
}

// Read reads the changes since the previous read (less Overlap) and the
// relay's heartbeat, and hands those it has not told yet to forget, at
// once. After a first read, or a gap longer than the set keeps changes,
// it forgets everything: what changed meanwhile cannot be known.
func (w *Watcher) Read(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := w.now()
	w.mu.Lock()
	last := w.read
	w.mu.Unlock()
	since := last.Add(-Overlap)
	var zs *redis.ZSliceCmd
	var hb *redis.StringCmd
	_, err := w.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		zs = p.ZRangeByScoreWithScores(ctx, key(w.prefix), &redis.ZRangeBy{Min: strconv.FormatInt(since.UnixMilli(), 10), Max: "+inf"})
		hb = p.Get(ctx, heartbeat(w.prefix))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("changefeed: read: %w", err)
	}
	var relay time.Time
	if ms, err := hb.Int64(); err == nil {
		relay = time.UnixMilli(ms)
	}
	var changes []Change
	if last.IsZero() || start.Sub(last) > Retention-Overlap {
		changes = append(changes, Change{At: start})
	}
	w.mu.Lock()
	for m, score := range w.told { // out of the next read's reach
		if score < float64(start.Add(-Overlap).UnixMilli()) {
			delete(w.told, m)
		}
	}
	for _, z := range zs.Val() {
		m, _ := z.Member.(string)
		e, f, ok := parseMember(m)
		if !ok || w.told[m] == z.Score {
			continue
		}
		w.told[m] = z.Score
		changes = append(changes, Change{EmpresaID: e, FuncionarioID: f, At: time.UnixMilli(int64(z.Score))})
	}
	w.mu.Unlock()
	// Forgotten before the read counts for Current.
	if len(changes) > 0 {
		w.forget(changes...)
	}
	w.mu.Lock()
	w.read, w.relay = start, relay
	w.mu.Unlock()
	return nil
}

// Current reports whether every change made more than within ago is
// known: the last read and the relay's last heartbeat it saw are both
// that recent.
func (w *Watcher) Current(within time.Duration) bool {
	if w == nil {
		return false
	}
	now := w.now()
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.read.IsZero() && !w.relay.IsZero() && now.Sub(w.read) <= within && now.Sub(w.relay) <= within
}
