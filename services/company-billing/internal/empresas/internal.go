package empresas

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/company-billing/internalapi"
)

// The internal API (docs/internal-api.md), on the internal listener only.

// maxLoginField bounds what a caller may make us hash or look up.
const maxLoginField = 1024

var errCredenciais = domainerr.Unauthenticated("credenciais_invalidas", "e-mail ou senha inválidos")

// login is POST /internal/empresas/login, auth's check of a company's
// credentials. An unknown e-mail and a wrong password get the same answer
// after the same bcrypt work (password.Matches with an empty hash), so
// neither the answer nor its timing tells which e-mails exist.
func (s *Service) login(c *fiber.Ctx) error {
	var req internalapi.Login
	if err := httpserver.DecodeJSON(c, &req); err != nil {
		return err
	}
	errs := validate.Errors{}
	if errs.Required(req.Email, "email") {
		errs.Length(req.Email, "email", 1, maxLoginField)
	}
	if errs.Required(req.Password, "password") {
		errs.Length(req.Password, "password", 1, maxLoginField)
	}
	if err := errs.Err(); err != nil {
		return err
	}
	if s.LoginLimit != nil {
		if err := s.LoginLimit(c.UserContext(), req.Email); err != nil {
			return err
		}
	}
	e, err := s.Store.ByEmail(c.UserContext(), req.Email)
	if err != nil && !errors.Is(err, errNotFound) {
		return err
	}
	if !password.Matches(e.PasswordHash, req.Password) || err != nil {
		return errCredenciais
	}
	if e.Bloqueada {
		return errBloqueada
	}
	return c.JSON(newCompanyView(e))
}

// get is GET /internal/empresas/{empresaId}: the company view, blocked
// or not (callers decide), or 404.
func (s *Service) get(c *fiber.Ctx) error {
	id, err := empresaIDParam(c)
	if err != nil {
		return err
	}
	e, err := s.Store.ByID(c.UserContext(), id)
	if errors.Is(err, errNotFound) {
		return domainerr.NotFound("empresa não encontrada")
	}
	if err != nil {
		return err
	}
	return c.JSON(newCompanyView(e))
}
