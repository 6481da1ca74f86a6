package empresas

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/page"
)

// subscriptionStatuses are Stripe's subscription statuses, the values the
// status filter accepts.
var subscriptionStatuses = []string{
	"trialing", "active", "past_due", "canceled", "unpaid", "incomplete", "incomplete_expired", "paused",
}

// list is GET /admin/empresas (role admin): companies with their
// subscription status, paginated (?pagina, ?tamanho), optionally filtered
// by ?status (a Stripe subscription status) and ?bloqueada (true/false).
func (s *Service) list(c *fiber.Ctx) error {
	p, err := page.FromQuery(c)
	if err != nil {
		return err
	}
	f, err := filterFromQuery(c)
	if err != nil {
		return err
	}
	list, total, err := s.Store.List(c.UserContext(), f, p.Limit(), p.Offset())
	if err != nil {
		return err
	}
	views := make([]adminView, len(list))
	for i, e := range list {
		views[i] = newAdminView(e)
	}
	return c.JSON(page.NewResult(views, p, total))
}

func filterFromQuery(c *fiber.Ctx) (Filter, error) {
	var f Filter
	fields := map[string]string{}
	if st := c.Query("status"); st != "" {
		if slices.Contains(subscriptionStatuses, st) {
			f.Status = &st
		} else {
			fields["status"] = "status de assinatura desconhecido"
		}
	}
	if b := c.Query("bloqueada"); b != "" {
		v, err := strconv.ParseBool(b)
		if err != nil || (b != "true" && b != "false") {
			fields["bloqueada"] = "deve ser true ou false"
		} else {
			f.Bloqueada = &v
		}
	}
	if len(fields) > 0 {
		return Filter{}, domainerr.Invalid(fields)
	}
	return f, nil
}

// bloquear is PUT /admin/empresas/{empresaId}/bloquear (role admin). The
// block is committed first, so that from then on auth refuses logins;
// then auth revokes the refresh tokens of the company and its employees.
// If auth cannot be reached, the block is undone and the answer is 503:
// never blocked-but-still-logged-in. Both steps are idempotent, so the
// admin simply retries.
func (s *Service) bloquear(c *fiber.Ctx) error {
	id, err := empresaIDParam(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	e, before, err := s.setBloqueada(ctx, id, true)
	if err != nil {
		return err
	}
	if err := s.Auth.RevokeEmpresa(ctx, id); err != nil {
		if !before {
			s.undoBlock(ctx, id)
		}
		return err
	}
	s.Log.InfoContext(ctx, "empresa bloqueada", "empresa_id", id)
	return c.JSON(newAdminView(e))
}

// undoBlock reverts a block whose revocation failed. If even that fails
// the company stays blocked: the safe side, logged for the admin.
func (s *Service) undoBlock(ctx context.Context, id int64) {
	if _, _, err := s.Store.SetBloqueada(context.WithoutCancel(ctx), id, false); err != nil {
		s.Log.ErrorContext(ctx, "bloqueio mantido sem revogação dos tokens: repita o bloqueio", "empresa_id", id, "err", err.Error())
	}
}

// desbloquear is PUT /admin/empresas/{empresaId}/desbloquear (role admin).
// Tokens revoked at the block stay revoked: users log in again.
func (s *Service) desbloquear(c *fiber.Ctx) error {
	id, err := empresaIDParam(c)
	if err != nil {
		return err
	}
	e, _, err := s.setBloqueada(c.UserContext(), id, false)
	if err != nil {
		return err
	}
	s.Log.InfoContext(c.UserContext(), "empresa desbloqueada", "empresa_id", id)
	return c.JSON(newAdminView(e))
}

func (s *Service) setBloqueada(ctx context.Context, id int64, v bool) (Empresa, bool, error) {
	e, before, err := s.Store.SetBloqueada(ctx, id, v)
	if errors.Is(err, errNotFound) {
		return Empresa{}, false, domainerr.NotFound("empresa não encontrada")
	}
	return e, before, err
}

// empresaIDParam reads the {empresaId} path segment: a positive integer.
func empresaIDParam(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("empresaId"), 10, 64)
	if err != nil || id <= 0 {
		return 0, domainerr.InvalidField("empresaId", "deve ser um inteiro positivo")
	}
	return id, nil
}
