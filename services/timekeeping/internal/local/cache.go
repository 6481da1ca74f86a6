package local

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"
)

// cacheSize bounds the companies whose places are kept. A company has a
// few places (at most maxLocais, about 200 bytes each), and only companies
// punching within one TTL stay in.
const cacheSize = 10_000

// placesCache keeps each company's active places for a TTL, so that a
// punch does not query them every time. Create and Remove forget the
// company in this replica at once; other replicas keep their copy until it
// expires, so a place added or removed there counts for their punches at
// most one TTL later.
//
// The cached slices are shared by concurrent punches: read them, never
// change them (Verificar only reads).
type placesCache struct {
	entries *expirable.LRU[int64, []Local]
	loads   singleflight.Group

	// mu orders storing a loaded list against forgetting the company:
	// a list read before a change is never stored after it (epoch moved).
	mu    sync.Mutex
	epoch uint64
}

func newPlacesCache(ttl time.Duration) *placesCache {
	return &placesCache{entries: expirable.NewLRU[int64, []Local](cacheSize, nil, ttl)}
}

// get returns company empresaID's places from the cache, or from load
// (once for all concurrent misses of the company).
func (c *placesCache) get(ctx context.Context, empresaID int64,
	load func(context.Context, int64) ([]Local, error)) ([]Local, error) {
	if ls, ok := c.entries.Get(empresaID); ok {
		return ls, nil
	}
	// The shared load runs on the context of the punch that started it,
	// less its cancellation (that client leaving would fail every waiter)
	// but with its deadline; each waiter still stops at its own.
	ch := c.loads.DoChan(strconv.FormatInt(empresaID, 10), func() (any, error) {
		if ls, ok := c.entries.Get(empresaID); ok {
			return ls, nil
		}
		c.mu.Lock()
		epoch := c.epoch
		c.mu.Unlock()
		shared, cancel := detach(ctx)
		defer cancel()
		ls, err := load(shared, empresaID)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.epoch == epoch {
			c.entries.Add(empresaID, ls)
		}
		c.mu.Unlock()
		return ls, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.([]Local), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forget drops company empresaID's entry after its places changed. A load
// already under way may have read them before the change: it is left to
// its waiters but neither stored nor joined by later punches.
func (c *placesCache) forget(empresaID int64) {
	c.mu.Lock()
	c.epoch++
	c.entries.Remove(empresaID)
	c.mu.Unlock()
	c.loads.Forget(strconv.FormatInt(empresaID, 10))
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
