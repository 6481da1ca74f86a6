// Package ratelimit counts requests per client IP and per e-mail in Redis,
// so that every replica of auth shares the same budget, and turns an
// exhausted budget into a 429 with Retry-After.
//
// It is a fixed-window counter in a small Lua script rather than
// github.com/go-redis/redis_rate: that library hard-codes the key prefix
// "rate:", which would put the counters outside the service's key prefix
// (AUTH_REDIS_PREFIX) and outside the per-test prefix tests isolate
// themselves with. A fixed window lets a client spend up to twice the
// limit across a window boundary, which is fine for login throttling.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	shared "github.com/ponto/ponto/pkg/ratelimit"
)

// Rule is one budget: Limit requests per Window.
type Rule struct {
	Name   string // part of the key, e.g. "login:ip"
	Limit  int
	Window time.Duration
}

// Limiter keeps its counters under Prefix + "rl:".
type Limiter struct {
	RDB    *redis.Client
	Prefix string
}

// Check is one rule applied to one client key.
type Check struct {
	Rule Rule
	Key  string
}

// countScript increments the window's counter, starting the window on the
// first hit, and returns the count and the milliseconds left in the window.
var countScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`)

// Allow counts one request against every check and returns a 429
// *apierr.Error when any budget is spent (Retry-After: the longest wait),
// or a 503 when Redis fails: an unlimited login route is worse than an
// unavailable one.
func (l *Limiter) Allow(ctx context.Context, checks ...Check) error {
	var wait time.Duration
	for _, c := range checks {
		key := l.Prefix + "rl:" + c.Rule.Name + ":" + c.Key
		res, err := countScript.Run(ctx, l.RDB, []string{key}, c.Rule.Window.Milliseconds()).Int64Slice()
		if err != nil || len(res) != 2 {
			return domainerr.Unavailable("redis", fmt.Errorf("ratelimit %s: %w", c.Rule.Name, err))
		}
		if res[0] > int64(c.Rule.Limit) {
			wait = max(wait, time.Duration(res[1])*time.Millisecond)
		}
	}
	if wait > 0 {
		return apierr.TooManyRequests(int(math.Ceil(wait.Seconds())))
	}
	return nil
}

// IPKey is the budget key of a client address, as every service counts
// it (pkg/ratelimit.IPKey: IPv6 clients grouped by their /64).
func IPKey(ip string) string { return shared.IPKey(ip) }

// EmailKey is the budget key of an (already normalised) e-mail; it is
// hashed so that Redis holds no address.
func EmailKey(email string) string {
	sum := sha256.Sum256([]byte(email))
	return "email:" + hex.EncodeToString(sum[:16])
}
