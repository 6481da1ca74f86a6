package api

import (
	"crypto/sha256"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// renewalMemory is how long a renewal's result answers for the refresh
// token it consumed: long enough for the requests a page fires with the
// cookie it had before the renewed one came back.
const renewalMemory = 30 * time.Second

// renewals makes each refresh token renew once in this replica. Auth
// rotates refresh tokens and revokes the whole session when a rotated one
// is sent again, and a browser sends concurrent requests with the same
// cookie; without this, two of them renewing at once would log the user
// out. Calls renewing the same token at the same time share one renewal
// (singleflight), and a call that comes within renewalMemory after it gets
// the same tokens. Failures are not remembered. The zero value is ready.
type renewals struct {
	group singleflight.Group
	mu    sync.Mutex
	done  map[[sha256.Size]byte]renewed // by the consumed token's SHA-256
}

type renewed struct {
	access, refresh string
	at              time.Time
}

// do returns the renewal of token, running renew at most once for it.
func (r *renewals) do(token string, renew func() (renewed, error)) (renewed, error) {
	key := sha256.Sum256([]byte(token))
	if got, ok := r.recall(key); ok {
		return got, nil
	}
	v, err, _ := r.group.Do(string(key[:]), func() (any, error) {
		if got, ok := r.recall(key); ok { // finished between recall and Do
			return got, nil
		}
		got, err := renew()
		if err == nil {
			r.remember(key, got)
		}
		return got, err
	})
	if err != nil {
		return renewed{}, err
	}
	return v.(renewed), nil
}

func (r *renewals) recall(key [sha256.Size]byte) (renewed, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	got, ok := r.done[key]
	if !ok || time.Since(got.at) > renewalMemory {
		return renewed{}, false
	}
	return got, true
}

// remember stores a result and drops the expired ones; the map holds only
// the renewals of the last renewalMemory.
func (r *renewals) remember(key [sha256.Size]byte, got renewed) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done == nil {
		r.done = make(map[[sha256.Size]byte]renewed)
	}
	for k, v := range r.done {
		if time.Since(v.at) > renewalMemory {
			delete(r.done, k)
		}
	}
	got.at = time.Now()
	r.done[key] = got
}
