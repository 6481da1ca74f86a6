// Package auth calls the auth service's internal API (see
// docs/internal-api.md): when an employee is deactivated, auth revokes his
// refresh tokens.
package auth

import (
	"context"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// Client revokes through auth's internal API:
// POST /internal/tokens/revogar {"funcionarioId": N} → 204.
type Client struct{ client *svcclient.Client }

// New calls auth at baseURL (AUTH_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{client: svcclient.New(baseURL, opts...)}
}

// RevokeFuncionario asks auth to revoke the employee's refresh tokens. A
// refusal from auth (a 4xx) is our bug or a broken deployment, not the
// client's: it becomes a 502 rather than passing auth's 4xx through.
func (a *Client) RevokeFuncionario(ctx context.Context, funcionarioID int64) error {
	err := a.client.PostJSON(ctx, "/internal/tokens/revogar", map[string]int64{"funcionarioId": funcionarioID}, nil)
	if err == nil {
		return nil
	}
	if e, ok := apierr.As(err); ok && e.Status >= 500 {
		return e
	}
	return domainerr.BadDependency("auth", err)
}
