package employee

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"

	"github.com/ponto/ponto/pkg/domainerr"
)

// CacheSize bounds the clock-in cache. An entry is at most about 4 KiB
// (the record rendered as PublicJSON is less), so a full cache holds under
// 75 MiB, within a pod's 256 MiB; entries leave after their TTL, so it only fills when that
// many employees punch within one TTL on one replica (at 30 s, over 600
// punches a second). Past that the least recently used are dropped.
const CacheSize = 20_000

// Cached answers Funcionario from memory for up to a TTL after one
// successful call to the employee service. It serves the clock-in only:
// every punch needs the employee, and a record rarely changes.
//
// Staleness: a change made in the employee service (deactivation, new name
// or CPF) reaches clock-ins at most one TTL later. Within that window a
// deactivated employee's punch is still recorded, and the AFD type-5
// alteration record for a new name or CPF is written with the first punch
// after the entry expires. Routes that must see the current record (the
// absence, receipt, timesheet and report) call Client directly.
//
// Only successes are kept: a 404 or a failure is asked again on the next
// punch. Misses are fetched in batches: one call at a time asks for every
// employee missed while the previous call was out (Client.Funcionarios),
// so concurrent misses for one employee make one call, and a burst of
// first punches (a shift starting) costs one request per batch rather than
// one per punch.
type Cached struct {
	client  *Client
	entries *expirable.LRU[cacheKey, Funcionario] // nil: cache disabled

	mu       sync.Mutex
	waiting  map[int64][]waiter // by employee id, not yet asked for
	fetching bool
}

// cacheKey names a record by its company and id, so a token of another
// company never finds it (Client answers it 404).
type cacheKey struct{ empresaID, id int64 }

// waiter is a miss waiting for the next fetch.
type waiter struct {
	ctx       context.Context
	empresaID int64
	answer    chan fetched // buffered: the fetch never waits for it
}

type fetched struct {
	f   Funcionario
	err error
}

// fetchTimeout bounds one batched call; it outlives the requests waiting
// on it, which may give up earlier.
const fetchTimeout = 10 * time.Second

// NewCached puts a cache of at most size records, each kept for ttl, in
// front of client; a ttl of zero (or less) disables it, every call going to
// the employee service.
func NewCached(client *Client, ttl time.Duration, size int) *Cached {
	c := &Cached{client: client, waiting: map[int64][]waiter{}}
	if ttl > 0 {
		c.entries = expirable.NewLRU[cacheKey, Funcionario](size, nil, ttl)
	}
	return c
}

// Funcionario is Client.Funcionario through the cache. A cached record
// has its PublicJSON rendered and no login-code hash, and is shared with
// other callers.
func (c *Cached) Funcionario(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	if c.entries == nil {
		return c.client.Funcionario(ctx, empresaID, id)
	}
	if f, ok := c.entries.Get(cacheKey{empresaID, id}); ok {
		return f, nil
	}
	w := waiter{ctx: ctx, empresaID: empresaID, answer: make(chan fetched, 1)}
	c.mu.Lock()
	c.waiting[id] = append(c.waiting[id], w)
	start := !c.fetching
	c.fetching = true
	c.mu.Unlock()
	if start {
		go c.fetch()
	}
	select {
	case r := <-w.answer:
		return r.f, r.err
	case <-ctx.Done():
		// The fetch goes on for the others, and keeps what it gets.
		return Funcionario{}, domainerr.Unavailable("employee", ctx.Err())
	}
}

// fetch asks for the waiting employees, MaxFuncionarios at a time, until
// none is waiting.
func (c *Cached) fetch() {
	for {
		c.mu.Lock()
		if len(c.waiting) == 0 {
			c.fetching = false
			c.mu.Unlock()
			return
		}
		batch := make(map[int64][]waiter, min(len(c.waiting), MaxFuncionarios))
		for id, ws := range c.waiting {
			if len(batch) == MaxFuncionarios {
				break
			}
			batch[id] = ws
			delete(c.waiting, id)
		}
		c.mu.Unlock()
		c.answer(batch)
	}
}

// answer fetches batch's employees and answers their waiters: a waiter
// whose company is the record's gets it (and the cache keeps it), another
// company's or an unknown employee is a 404, a failure goes to all.
func (c *Cached) answer(batch map[int64][]waiter) {
	ids := make([]int64, 0, len(batch))
	var first context.Context
	for id, ws := range batch {
		// One whose record came into the cache since it missed (the
		// previous fetch) is answered from there.
		if f, ok := c.served(id, ws); ok {
			c.answerAll(ws, f)
			continue
		}
		ids = append(ids, id)
		first = ws[0].ctx
	}
	if len(ids) == 0 {
		return
	}
	// The call runs without the cancellation of the requests waiting (one
	// leaving would fail the others) but with a trace of one of them.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(first), fetchTimeout)
	defer cancel()
	found, err := c.client.Funcionarios(ctx, ids)
	for _, id := range ids {
		f, ok := found[id]
		ferr := err
		if ferr == nil && ok {
			f, ferr = f.rendered()
		}
		for _, w := range batch[id] {
			switch {
			case ferr != nil:
				w.answer <- fetched{err: ferr}
			case !ok || f.EmpresaID != w.empresaID:
				w.answer <- fetched{err: errFuncionarioNotFound}
			default:
				c.entries.Add(cacheKey{f.EmpresaID, id}, f)
				w.answer <- fetched{f: f}
			}
		}
	}
}

// served finds a cached record of employee id for every waiter in ws.
func (c *Cached) served(id int64, ws []waiter) (Funcionario, bool) {
	var f Funcionario
	for _, w := range ws {
		g, ok := c.entries.Get(cacheKey{w.empresaID, id})
		if !ok {
			return Funcionario{}, false
		}
		f = g
	}
	return f, true
}

func (c *Cached) answerAll(ws []waiter, f Funcionario) {
	for _, w := range ws {
		w.answer <- fetched{f: f}
	}
}
