package svcclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
)

// TokenSource hands out the bearer token a service sends on every call to
// a peer's internal API (WithTokens).
type TokenSource interface {
	Token(ctx context.Context) (string, error)
}

// WithTokens makes every request carry "Authorization: Bearer" and a
// token of ts: the service token that proves to the peer which service
// calls (jwtauth.Verifier.Services).
func WithTokens(ts TokenSource) Option { return func(o *options) { o.tokens = ts } }

// Identity is how a service proves itself to its peers: its secret, which
// auth (at AUTH_INTERNAL_URL) trades for a short-lived service token.
type Identity struct {
	Secret string `conf:"env:SERVICE_SECRET,mask,help:this service's secret; auth trades it for the service tokens its peers' internal routes require"`
}

// TokenPath is auth's route that trades a service's secret for a token.
const TokenPath = "/internal/servicos/token"

// TokenRequest and TokenAnswer are the bodies of TokenPath.
type TokenRequest struct {
	Servico string `json:"servico"`
	Segredo string `json:"segredo"`
}

type TokenAnswer struct {
	Token    string `json:"token"`
	ExpiraEm string `json:"expiraEm"` // RFC 3339, UTC
}

// refreshBefore is how long before its expiry a cached token is replaced,
// so that no call carries one that ends on the way.
const refreshBefore = 2 * time.Minute

// NewTokenSource asks auth (its internal API at authURL) for service's tokens with its secret, keeps
// the current one and asks again shortly before it expires. It refuses
// an empty secret here, when the service wires its peers, and not at
// configuration time: the migrate command needs none.
func NewTokenSource(service string, id Identity, authURL URL, opts ...Option) (*Tokens, error) {
	if id.Secret == "" {
		return nil, errors.New("svcclient: SERVICE_SECRET is required to call the peers' internal APIs")
	}
	if err := authURL.Validate(); err != nil {
		return nil, fmt.Errorf("AUTH_INTERNAL_URL %w", err)
	}
	return &Tokens{service: service, secret: id.Secret, auth: New(string(authURL), opts...), now: time.Now}, nil
}

// Tokens is the TokenSource NewTokenSource makes. Safe for concurrent use.
type Tokens struct {
	service, secret string
	auth            *Client
	now             func() time.Time

	mu      sync.Mutex
	token   string
	expires time.Time
}

// Token answers the cached token, or a new one when it is close to its
// expiry. Concurrent callers wait for one request to auth.
func (t *Tokens) Token(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token != "" && t.now().Before(t.expires.Add(-refreshBefore)) {
		return t.token, nil
	}
	var a TokenAnswer
	if err := t.auth.PostJSON(ctx, TokenPath, TokenRequest{Servico: t.service, Segredo: t.secret}, &a); err != nil {
		return "", err
	}
	exp, err := time.Parse(time.RFC3339, a.ExpiraEm)
	if a.Token == "" || err != nil {
		return "", apierr.BadGateway("auth", fmt.Errorf("service token answer without token or expiraEm: %v", err))
	}
	t.token, t.expires = a.Token, exp
	return t.token, nil
}
