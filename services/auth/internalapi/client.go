package internalapi

import (
	"context"

	"github.com/ponto/ponto/pkg/svcclient"
)

// Client calls auth's internal API. Failures are *apierr.Error values
// from svcclient (a 503 when auth is down).
type Client struct{ c *svcclient.Client }

// New returns a client for auth's internal base URL (AUTH_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{c: svcclient.New(baseURL, opts...)}
}

// RevokeEmpresa revokes every token of the company and of its employees:
// POST /internal/tokens/revogar {"empresaId": N} → 204. Revoking twice is
// harmless, so a failed call may be made again.
func (c *Client) RevokeEmpresa(ctx context.Context, empresaID int64) error {
	return c.c.PostJSON(ctx, "/internal/tokens/revogar", Revogar{EmpresaID: &empresaID}, nil)
}

// RevokeFuncionario revokes every token of the employee:
// POST /internal/tokens/revogar {"funcionarioId": N} → 204.
func (c *Client) RevokeFuncionario(ctx context.Context, funcionarioID int64) error {
	return c.c.PostJSON(ctx, "/internal/tokens/revogar", Revogar{FuncionarioID: &funcionarioID}, nil)
}
