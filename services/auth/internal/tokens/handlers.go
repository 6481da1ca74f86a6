package tokens

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/revocation"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/auth/internalapi"
)

// Gate tells whether the account behind a refresh token may still log in
// (company not blocked, employee still active, admin still configured).
// A refresh re-asks it so that access ends even if a revocation call from
// company-billing or employee was lost.
type Gate interface {
	MayRefresh(ctx context.Context, id Identity) (bool, error)
}

// Handlers serves the refresh, logout and revocation routes.
type Handlers struct {
	Signer  *Signer
	Refresh *RefreshStore
	Gate    Gate
	Log     *slog.Logger
	// RevocationPrefix is the deployment's shared key prefix
	// (redisclient.Config.KeyPrefix), under which revocations live.
	RevocationPrefix string
	// Clock dates the revocations.
	Clock *clock.Clock
}

// errRefreshInvalid is the one 401 of the refresh route: unknown, expired
// and revoked tokens are not told apart.
var errRefreshInvalid = domainerr.Unauthenticated("refresh_token_invalido", "refresh token inválido, expirado ou revogado")

// Routes registers the public routes on the /auth group.
func (h *Handlers) Routes(r fiber.Router) {
	r.Post("/refresh-token", h.refresh)
	r.Post("/logout", h.logout)
}

// InternalRoutes registers the internal API (internal listener only),
// behind callers (the services allowed).
func (h *Handlers) InternalRoutes(r fiber.Router, callers fiber.Handler) {
	r.Post("/internal/tokens/revogar", callers, h.revokeAll)
}

type refreshRequest struct {
	RefreshToken string `json:"refreshToken"`
}

// decodeRefresh answers 400 when refreshToken is missing, empty or not a
// string (DecodeJSON names the field on a type mismatch).
func decodeRefresh(c *fiber.Ctx) (string, error) {
	var in refreshRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return "", err
	}
	errs := validate.Errors{}
	errs.Required(in.RefreshToken, "refreshToken")
	return in.RefreshToken, errs.Err()
}

// refresh: POST /auth/refresh-token {"refreshToken"} → 200
// {"accessToken", "refreshToken"}. The refresh token rotates: the answer
// carries its successor and the one sent stops working; sending it again
// later revokes the session (RFC 9700). The account is re-checked before
// the rotation, so a peer outage (503) leaves the client's token valid.
func (h *Handlers) refresh(c *fiber.Ctx) error {
	token, err := decodeRefresh(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	id, err := h.Refresh.Lookup(ctx, token)
	if err != nil {
		return h.refused(ctx, err)
	}
	ok, err := h.Gate.MayRefresh(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		// The account was blocked, deactivated or removed: this session
		// is dead for good, whatever happened to the revocation call.
		if err := h.Refresh.Revoke(ctx, token); err != nil {
			h.Log.WarnContext(ctx, "tokens: revoke refused refresh token", "err", err)
		}
		return errRefreshInvalid
	}
	access, err := h.Signer.Sign(id)
	if err != nil {
		return err
	}
	next, err := h.Refresh.Rotate(ctx, token)
	if err != nil {
		return h.refused(ctx, err)
	}
	return c.JSON(refreshAnswer{AccessToken: access, RefreshToken: next})
}

// refused is the answer to a refresh token the store does not serve: an
// unknown one is a 401 (a replayed one, either a stolen token or a client
// that lost the successor, is worth an operator's look and is logged);
// any other error is answered as it is.
func (h *Handlers) refused(ctx context.Context, err error) error {
	if !errors.Is(err, ErrUnknownRefresh) {
		return err
	}
	if errors.Is(err, ErrReplayedRefresh) {
		h.Log.WarnContext(ctx, "tokens: rotated refresh token replayed, session revoked")
	}
	return errRefreshInvalid
}

type refreshAnswer struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
}

// logout: POST /auth/logout {"refreshToken"} → 204: the session ends, its
// refresh token and its access tokens (their sid) with it. Possession of
// the refresh token is the authority; an unknown token answers 204 as well, so
// the route tells nothing about which tokens exist.
func (h *Handlers) logout(c *fiber.Ctx) error {
	token, err := decodeRefresh(c)
	if err != nil {
		return err
	}
	// The session's access tokens first, everywhere at once, then the
	// session: a failure leaves the refresh token to log out with again.
	// Only a live session's: made-up tokens must not grow the revocations
	// every service loads.
	live, err := h.Refresh.Live(c.UserContext(), token)
	if err != nil {
		return err
	}
	if sid := SessionOf(token); live && sid != "" {
		if err := revocation.RevokeSession(c.UserContext(), h.Refresh.RDB, h.RevocationPrefix, sid, h.Clock.Now()); err != nil {
			return err
		}
	}
	if err := h.Refresh.Revoke(c.UserContext(), token); err != nil {
		return err
	}
	return c.SendStatus(http.StatusNoContent)
}

// revokeAll: POST /internal/tokens/revogar with exactly one of
// {"empresaId": N} (the company and all its employees, on a block) or
// {"funcionarioId": N} (one employee, on deactivation) → 204. The access
// tokens already issued stop working in every service at once
// (pkg/revocation) and the refresh tokens are deleted.
func (h *Handlers) revokeAll(c *fiber.Ctx) error {
	var in internalapi.Revogar
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	errs := validate.Errors{}
	switch {
	case in.EmpresaID == nil && in.FuncionarioID == nil:
		errs.Check(false, "empresaId", "informe empresaId ou funcionarioId")
	case in.EmpresaID != nil && in.FuncionarioID != nil:
		errs.Check(false, "funcionarioId", "informe apenas um de empresaId e funcionarioId")
	case in.EmpresaID != nil:
		errs.Check(*in.EmpresaID > 0, "empresaId", "deve ser um número positivo")
	default:
		errs.Check(*in.FuncionarioID > 0, "funcionarioId", "deve ser um número positivo")
	}
	if err := errs.Err(); err != nil {
		return err
	}
	ctx := c.UserContext()
	// First the access tokens, everywhere at once; then the refresh
	// tokens, so that no new access token is minted.
	kind, id := revocation.Funcionario, in.FuncionarioID
	if in.EmpresaID != nil {
		kind, id = revocation.Empresa, in.EmpresaID
	}
	if err := revocation.Revoke(ctx, h.Refresh.RDB, h.RevocationPrefix, kind, *id, h.Clock.Now()); err != nil {
		return err
	}
	if in.EmpresaID != nil {
		err := h.Refresh.RevokeEmpresa(ctx, *in.EmpresaID)
		if err != nil {
			return err
		}
		h.Log.InfoContext(ctx, "tokens: revoked every refresh token of a company", "empresaId", *in.EmpresaID)
		return c.SendStatus(http.StatusNoContent)
	}
	// The employee's empresaId is not needed: the subject index holds
	// every token of the employee.
	if err := h.Refresh.RevokeSubject(ctx, Funcionario(0, *in.FuncionarioID).Subject); err != nil {
		return err
	}
	h.Log.InfoContext(ctx, "tokens: revoked every refresh token of an employee", "funcionarioId", *in.FuncionarioID)
	return c.SendStatus(http.StatusNoContent)
}
