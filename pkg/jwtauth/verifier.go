package jwtauth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/MicahParks/keyfunc/v3"
	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"
)

const (
	// DefaultRefreshInterval is how often the JWKS is refetched when Config
	// leaves it zero. New keys are picked up sooner through the unknown-kid
	// refetch; the periodic refresh is what drops revoked keys.
	DefaultRefreshInterval = 5 * time.Minute
	// DefaultHTTPTimeout bounds each JWKS request when Config leaves it zero.
	// NewVerifier waits for the first fetch, so this also bounds start-up.
	DefaultHTTPTimeout = 5 * time.Second

	// Leeway tolerates clock skew between auth and this service.
	Leeway = 30 * time.Second

	// unknownKIDRefreshEvery limits refetches triggered by unknown kids, so
	// tokens with random kids cannot turn every request into a call to auth.
	unknownKIDRefreshEvery = 30 * time.Second
	// unknownKIDWaitMax is how long a request may wait for the limiter. When
	// the next refetch is not due within it the lookup fails at once instead
	// of holding the request. In jwkset v0.11.0 this deadline also bounds
	// the refetch itself, hence not lower.
	unknownKIDWaitMax = 500 * time.Millisecond
)

// ErrMissingKID means the token header has no kid. Such tokens are
// rejected rather than tried against every key.
var ErrMissingKID = errors.New("jwtauth: token header has no kid")

// Config locates auth's keys and names the expected issuer and audience.
type Config struct {
	// JWKSURL is auth's GET /.well-known/jwks.json.
	JWKSURL  string `conf:"env:JWT_JWKS_URL,default:http://127.0.0.1:8081/.well-known/jwks.json"`
	Issuer   string `conf:"default:ponto-auth"`
	Audience string `conf:"default:ponto-api"`
	// RefreshInterval defaults to DefaultRefreshInterval.
	RefreshInterval time.Duration `conf:"default:5m"`
	// HTTPTimeout defaults to DefaultHTTPTimeout.
	HTTPTimeout time.Duration `conf:"default:5s"`
}

// Verifier checks access tokens. It is safe for concurrent use.
type Verifier struct {
	// keyfunc is per call so key lookups (and the refetch they may trigger)
	// honour the request's context.
	keyfunc func(ctx context.Context) jwt.Keyfunc
	parser  *jwt.Parser
	// verified skips the signature check of a token seen recently (see
	// cache.go); now is its clock.
	verified *verifiedCache
	now      func() time.Time
	// internal and services are parser and cache of the service tokens
	// (services.go).
	internal *jwt.Parser
	services *verifiedCache
	// keys are the JWKS keys in the form the EdDSA check takes (eddsa.go).
	keys expandedKeys
	// guards run on every verified request (AddGuards).
	guards []Guard
	// onRefused runs on every refused token (OnRefused).
	onRefused func(c *fiber.Ctx) error
	// hasKeys tells whether the JWKS has been fetched (nil: fixed keys).
	hasKeys func(context.Context) bool
}

// NewVerifier builds a Verifier backed by auth's JWKS. It fetches the keys
// once, but a failed fetch is not an error: services must be able to start
// before auth does. The keys are fetched again when a token arrives with a
// kid not yet known (at most every unknownKIDRefreshEvery), and, until a
// fetch succeeds, in the background (awaitKeys), so that a service started
// before auth does not refuse every token for that long once auth is up.
// ctx ends the background fetches.
func NewVerifier(ctx context.Context, cfg Config) (*Verifier, error) {
	if cfg.JWKSURL == "" || cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("jwtauth: JWKSURL, Issuer and Audience are required")
	}
	first, err := newRemote(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var cur atomic.Pointer[remote]
	cur.Store(first)
	if !first.hasKeys(ctx) {
		go awaitKeys(ctx, cfg, &cur)
	}
	v := newVerifier(func(ctx context.Context) jwt.Keyfunc { return cur.Load().kf.KeyfuncCtx(ctx) },
		cfg.Issuer, cfg.Audience)
	v.hasKeys = func(ctx context.Context) bool { return cur.Load().hasKeys(ctx) }
	return v, nil
}

// ErrNoKeys is Ready's answer while the verifier has no key of auth's.
var ErrNoKeys = errors.New("jwtauth: auth's signing keys not fetched yet")

// Ready is a readiness check: nil once the verifier holds auth's keys. A
// restarted replica that took traffic before would refuse every valid
// token with a 401 (which a client reads as "logged out") until its first
// JWKS fetch.
func (v *Verifier) Ready(ctx context.Context) error {
	if v.hasKeys != nil && !v.hasKeys(ctx) {
		return ErrNoKeys
	}
	return nil
}

// remote is one JWKS client: its keys, its refresh goroutine's cancel.
type remote struct {
	kf     keyfunc.Keyfunc
	cancel context.CancelFunc
}

// newRemote fetches auth's JWKS once (a failure leaves it empty) and keeps
// it refreshed until ctx ends.
func newRemote(ctx context.Context, cfg Config) (*remote, error) {
	refresh := cfg.RefreshInterval
	if refresh <= 0 {
		refresh = DefaultRefreshInterval
	}
	timeout := cfg.HTTPTimeout
	if timeout <= 0 {
		timeout = DefaultHTTPTimeout
	}
	ctx, cancel := context.WithCancel(ctx)
	noErrorOnFirstFetch := true
	client, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{cfg.JWKSURL}, keyfunc.Override{
		HTTPTimeout:               timeout,
		NoErrorReturnFirstHTTPReq: &noErrorOnFirstFetch,
		RefreshInterval:           refresh,
		RefreshUnknownKID:         rate.NewLimiter(rate.Every(unknownKIDRefreshEvery), 1),
		RateLimitWaitMax:          unknownKIDWaitMax,
		RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
			return func(ctx context.Context, err error) {
				// A warning: cached keys keep working and the next refresh
				// may succeed.
				slog.WarnContext(ctx, "jwtauth: JWKS fetch failed", "url", u, "error", err)
			}
		},
	})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("jwtauth: JWKS client: %w", err)
	}
	// The default keyfunc ignores the JWK "use"; rebuild it over the same
	// storage so only signing keys can verify tokens.
	kf, err := keyfunc.New(keyfunc.Options{
		Ctx:          ctx,
		Storage:      client.Storage(),
		UseWhitelist: []jwkset.USE{jwkset.UseSig},
	})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("jwtauth: keyfunc: %w", err)
	}
	return &remote{kf: kf, cancel: cancel}, nil
}

func (r *remote) hasKeys(ctx context.Context) bool {
	keys, err := r.kf.Storage().KeyReadAll(ctx)
	return err == nil && len(keys) > 0
}

// Start-up fetches: the first retry after firstRetry, doubling up to
// unknownKIDRefreshEvery.
const firstRetry = time.Second

// awaitKeys fetches auth's JWKS again, with a growing pause, until a fetch
// brings keys, and then puts that client in place of the empty one. It
// stops early when the current client got keys by itself (an unknown-kid
// refetch) or ctx ends.
func awaitKeys(ctx context.Context, cfg Config, cur *atomic.Pointer[remote]) {
	wait := firstRetry
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if cur.Load().hasKeys(ctx) {
			return
		}
		next, err := newRemote(ctx, cfg)
		if err == nil && next.hasKeys(ctx) {
			cur.Swap(next).cancel()
			return
		}
		if err == nil {
			next.cancel()
		}
		wait = min(2*wait, unknownKIDRefreshEvery)
	}
}

// NewVerifierFromKeyfunc builds a Verifier over a fixed key lookup, for
// tests or static keys. All other checks (EdDSA only, kid, iss, aud, exp,
// role) are the same as NewVerifier's.
func NewVerifierFromKeyfunc(kf jwt.Keyfunc, issuer, audience string) *Verifier {
	return newVerifier(func(context.Context) jwt.Keyfunc { return kf }, issuer, audience)
}

func newVerifier(keyfunc func(context.Context) jwt.Keyfunc, issuer, audience string) *Verifier {
	return &Verifier{
		keyfunc:  keyfunc,
		parser:   newParser(issuer, audience),
		verified: newVerifiedCache(),
		now:      time.Now,
		internal: newParser(issuer, AudienceInternal),
		services: newVerifiedCache(),
	}
}

func newParser(issuer, audience string) *jwt.Parser {
	return jwt.NewParser(
		// Pinning the algorithm shuts out "none" and HMAC-with-public-key
		// tricks before any key is looked up.
		jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithAudience(audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(Leeway),
		// One encoding per token: base64url with non-zero padding bits is
		// another spelling of the same signature, and refused.
		jwt.WithStrictDecoding(),
	)
}

// Verify checks the token's signature and claims and returns the claims.
// Errors wrap the golang-jwt sentinels (jwt.ErrTokenExpired, ...),
// ErrMissingKID, ErrUnknownRole or ErrTenantClaims; they are meant for logs,
// not for the client.
//
// A token verified less than a minute ago is accepted again without its
// signature check, until it expires (cache.go).
func (v *Verifier) Verify(ctx context.Context, token string) (*Claims, error) {
	return v.verifyBytes(ctx, []byte(token))
}

// verifyBytes is Verify of a token that may be a view of the request's
// own buffer (Middleware): the cache keeps its hash alone, and the token is
// copied only to be parsed, on a miss. So the token a request carries on
// every call costs no copy (docs/performance.md).
func (v *Verifier) verifyBytes(ctx context.Context, token []byte) (*Claims, error) {
	key := sha256.Sum256(token)
	if claims, ok := v.verified.get(key, v.now()); ok {
		return claims, nil
	}
	claims, err := v.verifyWith(ctx, v.parser, string(token))
	if err != nil {
		return nil, err
	}
	if claims.Role == RoleServico {
		return nil, ErrNotService // never a user's, whatever its audience
	}
	v.verified.put(key, claims, v.now())
	return claims, nil
}

func (v *Verifier) verifyWith(ctx context.Context, parser *jwt.Parser, token string) (*Claims, error) {
	lookup := v.keyfunc(ctx)
	claims := &Claims{}
	_, err := parser.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		// Without a kid, keyfunc would try every key in the set; auth always
		// sets one, so its absence means the token is not auth's.
		if kid, _ := t.Header["kid"].(string); kid == "" {
			return nil, ErrMissingKID
		}
		key, err := lookup(t)
		if err != nil {
			return nil, err
		}
		return v.keys.expand(key)
	})
	if err != nil {
		return nil, fmt.Errorf("jwtauth: %w", err)
	}
	return claims, nil
}
