// Package ratelimit enforces the abuse limits every public route shares:
// per client IP on the routes anyone may call (registration, login, the
// JWKS, webhooks) and per access token on the rest. The budgets live in
// Redis, so every replica of every service spends the same ones, and are
// kept by github.com/go-redis/redis_rate (GCRA: a steady rate with a
// burst of the same size). An exhausted budget is a 429 with Retry-After.
//
// redis_rate names its keys "rate:" + key; the Limiter puts its prefix
// (the deployment's, the service's, a test's) in front of that, so every
// budget lives under the prefix its owner cleans up and isolates by.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/gofiber/fiber/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/redis/go-redis/v9"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
)

// Rate is a budget written as "N/unit": "20/min", "600/min", "5/s",
// "100/h". N requests may come at once; after that one every unit/N.
type Rate string

// Limit parses the rate.
func (r Rate) Limit() (redis_rate.Limit, error) {
	n, unit, ok := strings.Cut(strings.TrimSpace(string(r)), "/")
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err != nil || count <= 0 {
		return redis_rate.Limit{}, fmt.Errorf("rate %q: want N/unit, e.g. 20/min", string(r))
	}
	var period time.Duration
	switch strings.TrimSpace(unit) {
	case "s", "sec", "second":
		period = time.Second
	case "m", "min", "minute":
		period = time.Minute
	case "h", "hour":
		period = time.Hour
	default:
		return redis_rate.Limit{}, fmt.Errorf("rate %q: unit must be s, min or h", string(r))
	}
	return redis_rate.Limit{Rate: count, Burst: count, Period: period}, nil
}

// Validate lets config.Validate refuse a bad rate at start-up. An empty
// rate passes: the default fills it, and where none does (a budget left
// out by a test's configuration) the budget is off or refused where it
// is made.
func (r Rate) Validate() error {
	if r == "" {
		return nil
	}
	_, err := r.Limit()
	return err
}

// Config holds the budgets every service applies (RATE_PER_IP,
// RATE_PER_TOKEN). A service with routes of its own to protect (company
// registration) adds its own Rate.
type Config struct {
	// PerIP is each client address's budget on every route that takes no
	// token, per service.
	PerIP Rate `conf:"default:120/min,help:requests per client IP on the routes without a token (N/s, N/min or N/h)"`
	// PerToken is each access token's budget on the routes that need one.
	// A kiosk where 200 employees punch at a shift change uses 200
	// tokens; one token doing a company's whole day of work still fits.
	PerToken Rate `conf:"default:600/min,help:requests per access token on the routes that need one (N/s, N/min or N/h)"`
	// FailedAuth is each client address's budget of requests refused for
	// their token (missing, forged, expired) on the routes that need one:
	// past it a 429 instead of a 401, so that guessing costs time.
	FailedAuth Rate `conf:"default:60/min,help:requests refused for their token per client IP before a 429 (N/s, N/min or N/h)"`
}

// Limiter checks budgets in Redis under its prefix.
type Limiter struct {
	rl  *redis_rate.Limiter
	log *slog.Logger
	// owed are the tokens whose first request on this replica went
	// through without asking Redis, owing it (PerToken).
	owed *owed
}

// New keeps the budgets in rdb, under keys prefix + "rate:" + ...
func New(rdb *redis.Client, prefix string, log *slog.Logger) *Limiter {
	store := prefixed{budgetStore: pipelined(rdb, log), prefix: prefix}
	return &Limiter{rl: redis_rate.NewLimiter(store), log: log, owed: newOwed()}
}

// budgetStore is what redis_rate asks of its client.
type budgetStore interface {
	redis.Scripter
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// prefixed is a budgetStore that puts prefix in front of every key
// redis_rate names (which it starts with its own "rate:").
type prefixed struct {
	budgetStore
	prefix string
}

func (p prefixed) keys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = p.prefix + k
	}
	return out
}

func (p prefixed) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return p.budgetStore.Eval(ctx, script, p.keys(keys), args...)
}

func (p prefixed) EvalSha(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return p.budgetStore.EvalSha(ctx, sha1, p.keys(keys), args...)
}

func (p prefixed) EvalRO(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
	return p.budgetStore.EvalRO(ctx, script, p.keys(keys), args...)
}

func (p prefixed) EvalShaRO(ctx context.Context, sha1 string, keys []string, args ...any) *redis.Cmd {
	return p.budgetStore.EvalShaRO(ctx, sha1, p.keys(keys), args...)
}

func (p prefixed) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	return p.budgetStore.Del(ctx, p.keys(keys)...)
}

// pipelined is rdb's automatic pipeline (go-redis' AutoPipeline, one per
// client, closed with it): the budget checks of concurrent requests reach
// Redis together, in one write and one read, instead of a round trip
// each. Each check still waits for its own answer, so a budget is spent
// exactly as before; under a shift change's load the round trips' system
// calls were a quarter of a clock-in's CPU. A client whose pipeline
// cannot be made is used as it is.
func pipelined(rdb *redis.Client, log *slog.Logger) budgetStore {
	ap, err := rdb.AutoPipeline()
	if err != nil {
		log.Warn("ratelimit: no automatic pipeline, one round trip per check", "err", err.Error())
		return rdb
	}
	return ap
}

// Failure decides what a request gets when Redis cannot be asked.
type Failure int

const (
	// FailOpen lets the request through (logged): an outage of Redis must
	// not stop the clock-in.
	FailOpen Failure = iota
	// FailClosed answers 503: for routes where an unlimited caller costs
	// money or helps guessing (registration creates Stripe objects).
	FailClosed
)

// Allow spends one request of key's budget: nil, a 429 *apierr.Error with
// Retry-After, or, when Redis fails, nil or a 503 as onFailure says.
func (l *Limiter) Allow(ctx context.Context, key string, limit redis_rate.Limit, onFailure Failure) error {
	return l.allowN(ctx, key, limit, 1, onFailure)
}

func (l *Limiter) allowN(ctx context.Context, key string, limit redis_rate.Limit, n int, onFailure Failure) error {
	wait, err := l.spend(ctx, key, limit, n, onFailure)
	if err != nil || wait == 0 {
		return err
	}
	return tooMany(wait)
}

// spend spends n of key's budget: how long to wait when it is exhausted
// (0: allowed), or the failure's answer when Redis cannot be asked.
func (l *Limiter) spend(ctx context.Context, key string, limit redis_rate.Limit, n int, onFailure Failure) (time.Duration, error) {
	res, err := l.rl.AllowN(ctx, key, limit, n)
	if err != nil {
		if onFailure == FailClosed {
			return 0, apierr.Unavailable("redis", fmt.Errorf("ratelimit %s: %w", key, err))
		}
		l.log.WarnContext(ctx, "ratelimit: redis unavailable, request let through", "err", err.Error())
		return 0, nil
	}
	if res.Allowed > 0 {
		return 0, nil
	}
	return max(res.RetryAfter, time.Second), nil
}

func tooMany(wait time.Duration) error {
	return apierr.TooManyRequests(int(math.Ceil(wait.Seconds())))
}

// Check is one budget applied to one key, e.g. a login route's per-e-mail
// budget and the e-mail's key.
type Check struct {
	Name  string // the budget's name, part of the key: "login:email"
	Limit redis_rate.Limit
	Key   string // whose budget: IPKey(...), EmailKey(...)
}

// Limit is a budget (redis_rate's), so that its users need not import it.
type Limit = redis_rate.Limit

// PerMinute and PerHour are budgets of n requests at once, then one every
// minute/n or hour/n.
func PerMinute(n int) redis_rate.Limit { return redis_rate.PerMinute(n) }
func PerHour(n int) redis_rate.Limit   { return redis_rate.PerHour(n) }

// AllowAll spends one request of every check's budget (an exhausted one
// is not spent further): nil, a 429 whose Retry-After is the longest
// wait, or, when Redis fails, nil or a 503 as onFailure says.
func (l *Limiter) AllowAll(ctx context.Context, onFailure Failure, checks ...Check) error {
	var wait time.Duration
	for _, c := range checks {
		w, err := l.spend(ctx, c.Name+":"+c.Key, c.Limit, 1, onFailure)
		if err != nil {
			return err
		}
		wait = max(wait, w)
	}
	if wait > 0 {
		return tooMany(wait)
	}
	return nil
}

// EmailKey is the budget key of an (already normalised) e-mail; it is
// hashed so that Redis holds no address.
func EmailKey(email string) string {
	sum := sha256.Sum256([]byte(email))
	return "email:" + hex.EncodeToString(sum[:16])
}

// PerIP limits each client address (httpserver.ClientIP) on the routes it
// is mounted on; name separates the budgets of different route sets.
func (l *Limiter) PerIP(name string, rate Rate, onFailure Failure) (fiber.Handler, error) {
	limit, err := rate.Limit()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return func(c *fiber.Ctx) error {
		if err := l.Allow(c.UserContext(), name+":"+IPKey(httpserver.ClientIP(c)), limit, onFailure); err != nil {
			return err
		}
		return c.Next()
	}, nil
}

// PerToken is a jwtauth.Guard limiting each access token. A token is named
// by its subject, role and issue time: nothing secret goes to Redis.
//
// A token's first request on a replica is let through without asking
// Redis, and charged with the token's next request there (two at once):
// a token fresh from a login, as at a shift change, often makes one
// request, and its first can never exceed a budget of at least one.
// The price is a request per token and replica that is never charged
// when the token makes no other there (or only after owedFor), which no
// budget of this package's size notices.
func (l *Limiter) PerToken(rate Rate) (jwtauth.Guard, error) {
	limit, err := rate.Limit()
	if err != nil {
		return nil, fmt.Errorf("per token: %w", err)
	}
	return func(c *fiber.Ctx, claims *jwtauth.Claims) error {
		var iat int64
		if claims.IssuedAt != nil {
			iat = claims.IssuedAt.Unix()
		}
		key := "tok:" + claims.Role + ":" + claims.Subject + ":" + strconv.FormatInt(iat, 10)
		n := l.owed.take(key)
		if n == 0 {
			return nil
		}
		return l.allowN(c.UserContext(), key, limit, n, FailOpen)
	}, nil
}

const (
	// owedSize bounds the tokens remembered per replica (about 100 bytes
	// each); owedFor is how long one is remembered, an access token's
	// life (15 minutes by default) or so.
	owedSize = 100_000
	owedFor  = 15 * time.Minute
)

// owed remembers which tokens a replica has seen, and whether the first
// request of each is still to be charged.
type owed struct {
	mu   sync.Mutex
	seen *expirable.LRU[string, bool] // true: the first request is owed
}

func newOwed() *owed {
	return &owed{seen: expirable.NewLRU[string, bool](owedSize, nil, owedFor)}
}

// take is how many requests of key to charge now: 0 for its first (owed
// from then on), 2 for the next (its own and the owed one), then 1.
func (o *owed) take(key string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	pending, ok := o.seen.Get(key)
	switch {
	case !ok:
		o.seen.Add(key, true)
		return 0
	case pending:
		o.seen.Add(key, false)
		return 2
	}
	return 1
}

// IPKey is the budget key of a client address. IPv6 clients are grouped by
// their /64, which one subscriber usually gets whole: counting single
// addresses would let a client rotate through billions of them.
func IPKey(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return "ip:" + ip
	}
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return "ip:" + p.String()
	}
	return "ip:" + addr.String()
}

// GuardTokens makes the verifier limit each access token to cfg.PerToken,
// and each address's refused tokens to cfg.FailedAuth (when set).
func (l *Limiter) GuardTokens(v *jwtauth.Verifier, cfg Config) error {
	guard, err := l.PerToken(cfg.PerToken)
	if err != nil {
		return err
	}
	v.AddGuards(guard)
	if cfg.FailedAuth == "" {
		return nil
	}
	failed, err := cfg.FailedAuth.Limit()
	if err != nil {
		return fmt.Errorf("failed auth: %w", err)
	}
	v.OnRefused(func(c *fiber.Ctx) error {
		return l.Allow(c.UserContext(), "authfail:"+IPKey(httpserver.ClientIP(c)), failed, FailOpen)
	})
	return nil
}
