// Package auth calls the auth service's internal API (see
// docs/internal-api.md): when a company is blocked, auth revokes the
// refresh tokens of the company and of its employees.
package auth

import (
	"context"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Client calls auth on its internal listener.
type Client struct {
	c *svcclient.Client
}

// New returns a client for auth's internal base URL (AUTH_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// RevogarTokensEmpresa revokes every refresh token of the company and of
// its employees. Revoking twice is harmless, so a failed block can be
// retried. Failures are *apierr.Error (a 503 when auth is down).
func (c *Client) RevogarTokensEmpresa(ctx context.Context, empresaID int64) error {
	return c.c.PostJSON(ctx, "/internal/tokens/revogar", map[string]int64{"empresaId": empresaID}, nil)
}
