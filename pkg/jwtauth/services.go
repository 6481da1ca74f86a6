package jwtauth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
)

// Service tokens: auth signs them, with its usual keys, for a service that
// proved who it is with its SERVICE_SECRET (POST /internal/servicos/token);
// the service sends one on every call to a peer's internal API, and each
// internal route names the services it lets in (Verifier.Services). Their
// audience is not the API's: a service token opens no public route, and a
// user's token no internal one.
const (
	RoleServico      = "servico"
	AudienceInternal = "ponto-internal"
	// ServiceTokenTTL is a service token's life: short, since a stolen one
	// cannot be revoked, and refreshed by its holder before it ends.
	ServiceTokenTTL = 10 * time.Minute
)

// ErrNotService means a token on an internal route is not a service's.
var ErrNotService = errors.New("jwtauth: not a service token")

const msgServiceForbidden = "serviço não autorizado nesta rota"

// Services authenticates the calling service from its bearer service
// token and lets through only the services named: a missing or invalid
// token is a 401, another service a 403. Handlers read the caller's name
// with ServiceName.
func (v *Verifier) Services(names ...string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		header := c.Request().Header.Peek(fiber.HeaderAuthorization)
		token, ok := bearerToken(header)
		if !ok {
			return unauthorized(c, apierr.Unauthorized(msgMissingToken))
		}
		claims, err := v.verifyService(c.UserContext(), token)
		if err != nil {
			return unauthorized(c, apierr.Unauthorized(msgInvalidToken).Wrap(err))
		}
		if !slices.Contains(names, claims.Subject) {
			return apierr.Forbidden(msgServiceForbidden).Wrap(fmt.Errorf("service %q", claims.Subject))
		}
		c.Locals(claimsKey{}, claims)
		return c.Next()
	}
}

// ServiceName is the name of the service calling an internal route
// behind Services ("" elsewhere).
func ServiceName(c *fiber.Ctx) string {
	claims, ok := FromContext(c)
	if !ok || claims.Role != RoleServico {
		return ""
	}
	return claims.Subject
}

// VerifyService checks a service token (audience AudienceInternal, role
// RoleServico) and returns its claims.
func (v *Verifier) VerifyService(ctx context.Context, token string) (*Claims, error) {
	return v.verifyService(ctx, []byte(token))
}

func (v *Verifier) verifyService(ctx context.Context, token []byte) (*Claims, error) {
	key := sha256.Sum256(token)
	if claims, ok := v.services.get(key, v.now()); ok {
		return claims, nil
	}
	claims, err := v.verifyWith(ctx, v.internal, string(token))
	if err != nil {
		return nil, err
	}
	if claims.Role != RoleServico {
		return nil, ErrNotService
	}
	v.services.put(key, claims, v.now())
	return claims, nil
}
