package jwtauth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// Clients send the same access token with every request for its whole
// life (15 minutes), and checking its Ed25519 signature is the largest
// single cost of an authenticated request: about 15% of timekeeping's CPU
// under the clock-in benchmark (docs/performance.md). So a token whose
// signature and claims checked out is remembered for a short while and
// accepted again without redoing the check.
const (
	// verifiedTTL bounds how long a verified token is taken on trust. A key
	// removed from auth's JWKS stops verifying new requests only at the
	// next periodic refresh (DefaultRefreshInterval) anyway; this adds at
	// most one minute to that.
	verifiedTTL = time.Minute
	// verifiedMax bounds the memory: about 150 bytes per token.
	verifiedMax = 100_000
)

// verifiedCache maps SHA-256(token) to its claims. The hash, not the
// token, is the key: the token string may alias the request buffer, and
// a fixed-size key keeps the memory per entry small.
type verifiedCache struct {
	mu      sync.RWMutex
	entries map[[sha256.Size]byte]verifiedEntry
}

type verifiedEntry struct {
	claims Claims
	// until is the earlier of the cache TTL and the token's expiry (with
	// the same leeway the parser grants).
	until time.Time
}

func newVerifiedCache() *verifiedCache {
	return &verifiedCache{entries: map[[sha256.Size]byte]verifiedEntry{}}
}

// get returns a copy of the claims of a token verified less than
// verifiedTTL ago and not expired.
func (c *verifiedCache) get(key [sha256.Size]byte, now time.Time) (*Claims, bool) {
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	claims := e.claims
	return &claims, true
}

func (c *verifiedCache) put(key [sha256.Size]byte, claims *Claims, now time.Time) {
	until := now.Add(verifiedTTL)
	if claims.ExpiresAt != nil {
		if exp := claims.ExpiresAt.Add(Leeway); exp.Before(until) {
			until = exp
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= verifiedMax {
		c.prune(now)
	}
	c.entries[key] = verifiedEntry{claims: *claims, until: until}
}

// prune drops the stale entries, or everything if none is stale (a flood
// of distinct valid tokens: they are simply verified again).
func (c *verifiedCache) prune(now time.Time) {
	for k, e := range c.entries {
		if !now.Before(e.until) {
			delete(c.entries, k)
		}
	}
	if len(c.entries) >= verifiedMax {
		clear(c.entries)
	}
}
