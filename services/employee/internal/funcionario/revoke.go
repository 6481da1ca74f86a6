package funcionario

import (
	"context"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/svcclient"
)

// Revoker ends every session of an employee.
type Revoker interface {
	RevokeFuncionario(ctx context.Context, funcionarioID int64) error
}

// AuthRevoker revokes through auth's internal API:
// POST /internal/tokens/revogar {"funcionarioId": N} → 204.
type AuthRevoker struct{ client *svcclient.Client }

// NewAuthRevoker calls auth at baseURL (AUTH_INTERNAL_URL).
func NewAuthRevoker(baseURL string, opts ...svcclient.Option) *AuthRevoker {
	return &AuthRevoker{client: svcclient.New(baseURL, opts...)}
}

// RevokeFuncionario asks auth to revoke the employee's refresh tokens. A
// refusal from auth (a 4xx) is our bug or a broken deployment, not the
// client's: it becomes a 502 rather than passing auth's 4xx through.
func (a *AuthRevoker) RevokeFuncionario(ctx context.Context, funcionarioID int64) error {
	err := a.client.PostJSON(ctx, "/internal/tokens/revogar", map[string]int64{"funcionarioId": funcionarioID}, nil)
	if err == nil {
		return nil
	}
	if e, ok := apierr.As(err); ok && e.Status >= 500 {
		return e
	}
	return apierr.BadGateway("auth", err)
}
