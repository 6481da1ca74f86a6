package empresas

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
)

// errBloqueada is the 403 a blocked company gets, here and (through the
// internal API) at login.
var errBloqueada = domainerr.Forbidden("empresa_bloqueada", "empresa bloqueada; entre em contato com o suporte")

// me is GET /empresas/me (role empresa): the caller's own company, found
// by the token's empresaId only, so no other tenant can be reached.
func (s *Service) me(c *fiber.Ctx) error {
	claims, _ := jwtauth.FromContext(c) // RequireRole guarantees them
	e, err := s.Store.ByID(c.UserContext(), claims.EmpresaID)
	if errors.Is(err, errNotFound) {
		return domainerr.NotFound("empresa não encontrada")
	}
	if err != nil {
		return err
	}
	if e.Bloqueada {
		return errBloqueada
	}
	return c.JSON(newMeView(e))
}
