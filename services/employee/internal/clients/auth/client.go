// Package auth is the employee service's side of auth's internal API
// (services/auth/internalapi, docs/internal-api.md): when an employee is
// deactivated, auth revokes his tokens.
package auth

import (
	"context"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/svcclient"
	authapi "github.com/ponto/ponto/services/auth/internalapi"
)

// Client revokes through auth's internal API.
type Client struct{ api *authapi.Client }

// New calls auth at baseURL (AUTH_INTERNAL_URL).
func New(baseURL string, opts ...svcclient.Option) *Client {
	return &Client{api: authapi.New(baseURL, opts...)}
}

// RevokeFuncionario asks auth to revoke the employee's tokens. A refusal
// from auth (a 4xx) is our bug or a broken deployment, not the client's:
// it becomes a 502 rather than passing auth's 4xx through.
func (a *Client) RevokeFuncionario(ctx context.Context, funcionarioID int64) error {
	err := a.api.RevokeFuncionario(ctx, funcionarioID)
	if err == nil {
		return nil
	}
	if e, ok := apierr.As(err); ok && e.Status >= 500 {
		return e
	}
	return domainerr.BadDependency("auth", err)
}
