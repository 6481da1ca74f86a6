package jwtauth

import (
	"bytes"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
)

// claimsKey is the c.Locals key; an unexported type cannot collide with
// other packages' keys.
type claimsKey struct{}

// Messages shown to clients. They never say why a token failed: that would
// help whoever is forging them. The cause goes to the logs via Err.
const (
	msgMissingToken = "token ausente"
	msgInvalidToken = "token inválido"
	msgForbidden    = "acesso não permitido para este perfil"
)

// Middleware authenticates the request from "Authorization: Bearer <token>",
// runs the guards (AddGuards) and stores the claims for FromContext.
// Failures are 401 *apierr.Error; a guard answers its own.
func (v *Verifier) Middleware() fiber.Handler {
	return func(c *fiber.Ctx) error {
		// A view of the request's buffer, not c.Get's copy (the server is
		// Immutable): valid while the request is served, and verifyBytes
		// keeps nothing of it.
		header := c.Request().Header.Peek(fiber.HeaderAuthorization)
		if len(bytes.TrimSpace(header)) == 0 {
			return v.refused(c, apierr.Unauthorized(msgMissingToken))
		}
		token, ok := bearerToken(header)
		if !ok {
			return v.refused(c, apierr.Unauthorized(msgInvalidToken))
		}
		claims, err := v.verifyBytes(c.UserContext(), token)
		if err != nil {
			return v.refused(c, apierr.Unauthorized(msgInvalidToken).Wrap(err))
		}
		for _, guard := range v.guards {
			if err := guard(c, claims); err != nil {
				if ae, ok := apierr.As(err); ok && ae.Status == fiber.StatusUnauthorized {
					c.Set(fiber.HeaderWWWAuthenticate, "Bearer") // e.g. a session logged out of
				}
				return err
			}
		}
		c.Locals(claimsKey{}, claims)
		return c.Next()
	}
}

// Guard is a check every verified request passes after its signature and
// claims: a rate limit, a revocation. Its error is the answer.
type Guard func(c *fiber.Ctx, claims *Claims) error

// AddGuards makes Middleware run guards, in order, on every verified
// request. Call it while wiring, before serving.
func (v *Verifier) AddGuards(guards ...Guard) { v.guards = append(v.guards, guards...) }

// OnRefused makes Middleware call fn on every request it refuses for its
// token (missing or invalid); fn's error, such as a 429 once the caller's
// budget of failures is spent, is the answer instead of the 401. Call it
// while wiring, before serving.
func (v *Verifier) OnRefused(fn func(c *fiber.Ctx) error) { v.onRefused = fn }

func (v *Verifier) refused(c *fiber.Ctx, err *apierr.Error) error {
	if v.onRefused != nil {
		if limited := v.onRefused(c); limited != nil {
			return limited
		}
	}
	return unauthorized(c, err)
}

// unauthorized sets the RFC 6750 challenge header; the shared error handler
// writes the body and keeps headers already set.
func unauthorized(c *fiber.Ctx, err *apierr.Error) error {
	c.Set(fiber.HeaderWWWAuthenticate, "Bearer")
	return err
}

// bearerToken extracts the token from an Authorization header. The scheme
// is case-insensitive (RFC 7235); the token must be a single word.
func bearerToken(header []byte) ([]byte, bool) {
	scheme, token, ok := bytes.Cut(bytes.TrimSpace(header), []byte(" "))
	if !ok || !bytes.EqualFold(scheme, []byte("Bearer")) {
		return nil, false
	}
	token = bytes.TrimSpace(token)
	if len(token) == 0 || bytes.ContainsAny(token, " \t") {
		return nil, false
	}
	return token, true
}

// FromContext returns the claims stored by Middleware.
func FromContext(c *fiber.Ctx) (*Claims, bool) {
	claims, ok := c.Locals(claimsKey{}).(*Claims)
	return claims, ok && claims != nil
}

// Caller returns the claims stored by Middleware, for handlers mounted
// behind it. Missing claims are a wiring bug: the answer is 401 rather
// than a request run unauthenticated.
func Caller(c *fiber.Ctx) (*Claims, error) {
	claims, ok := FromContext(c)
	if !ok {
		return nil, apierr.Unauthorized(msgMissingToken)
	}
	return claims, nil
}

// RequireRole lets through only callers whose role is one of roles. It must
// run after Middleware: without claims it answers 401, with another role
// 403.
func RequireRole(roles ...string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		claims, ok := FromContext(c)
		if !ok {
			return unauthorized(c, apierr.Unauthorized(msgMissingToken))
		}
		if !slices.Contains(roles, claims.Role) {
			return apierr.Forbidden(msgForbidden)
		}
		return c.Next()
	}
}
