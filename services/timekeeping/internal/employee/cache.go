package employee

import (
	"context"
	"strconv"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"github.com/ponto/ponto/pkg/apierr"
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
// punch. Concurrent misses for one employee share a single call.
type Cached struct {
	client  *Client
	entries *expirable.LRU[cacheKey, Funcionario] // nil: cache disabled
	calls   singleflight.Group
}

// cacheKey names a record by the company asked for and the employee, so a
// token of another company never finds it (Client answers it 404).
type cacheKey struct{ empresaID, id int64 }

// NewCached puts a cache of at most size records, each kept for ttl, in
// front of client; a ttl of zero (or less) disables it, every call going to
// the employee service.
func NewCached(client *Client, ttl time.Duration, size int) *Cached {
	c := &Cached{client: client}
	if ttl > 0 {
		c.entries = expirable.NewLRU[cacheKey, Funcionario](size, nil, ttl)
	}
	return c
}

// Funcionario is Client.Funcionario through the cache. A cached record
// has no Raw, only its PublicJSON, and is shared with other callers.
func (c *Cached) Funcionario(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	if c.entries == nil {
		return c.client.Funcionario(ctx, empresaID, id)
	}
	key := cacheKey{empresaID, id}
	if f, ok := c.entries.Get(key); ok {
		return f, nil
	}
	// One call per employee at a time. It runs on the context of the caller
	// that started it, less its cancellation (that client disconnecting
	// would fail every waiter) but with its deadline and trace; each waiter
	// still stops at its own.
	call := strconv.FormatInt(empresaID, 10) + "/" + strconv.FormatInt(id, 10)
	ch := c.calls.DoChan(call, func() (any, error) {
		// A caller that missed just as the previous call was storing its
		// answer finds it here instead of calling again.
		if f, ok := c.entries.Get(key); ok {
			return f, nil
		}
		fetch, cancel := detach(ctx)
		defer cancel()
		f, err := c.client.Funcionario(fetch, empresaID, id)
		if err == nil {
			f, err = f.rendered()
		}
		if err != nil {
			return nil, err
		}
		c.entries.Add(key, f)
		return f, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return Funcionario{}, r.Err
		}
		return r.Val.(Funcionario), nil
	case <-ctx.Done():
		return Funcionario{}, apierr.Unavailable("employee", ctx.Err())
	}
}

// detach is ctx without its cancellation but with its deadline, and the
// cancel function that releases the deadline's timer.
func detach(ctx context.Context) (context.Context, context.CancelFunc) {
	d := context.WithoutCancel(ctx)
	if deadline, ok := ctx.Deadline(); ok {
		return context.WithDeadline(d, deadline)
	}
	return context.WithCancel(d)
}
