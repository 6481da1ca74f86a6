package login

import (
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/auth/internal/accounts"
	"github.com/ponto/ponto/services/auth/internal/clients/companybilling"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

// errBadCredentials is the one 401 of POST /auth/login: unknown e-mail and
// wrong password give the same answer, in about the same time.
var errBadCredentials = domainerr.Unauthenticated("credenciais_invalidas", "e-mail ou senha inválidos")

// errBlocked answers a blocked company whose password was right.
var errBlocked = domainerr.Forbidden("empresa_bloqueada", "empresa bloqueada; entre em contato com o suporte")

type passwordLogin struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// userEmpresa is the company's "user" in the login answer.
type userEmpresa struct {
	ID               int64   `json:"id"`
	Email            string  `json:"email"`
	Nome             string  `json:"nome"`
	RazaoSocial      string  `json:"razaoSocial"`
	Role             string  `json:"role"`
	NomeDoPlano      string  `json:"nomeDoPlano"`
	AssinaturaStatus *string `json:"assinaturaStatus"`
}

// userAdmin is an admin's "user": admins have no numeric id, their e-mail
// is their id.
type userAdmin struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

func decodePasswordLogin(c *fiber.Ctx) (passwordLogin, error) {
	var in passwordLogin
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return in, err
	}
	errs := validate.Errors{}
	errs.RequiredEmail(in.Email, "email")
	if errs.Required(in.Password, "password") {
		errs.Check(len(in.Password) <= password.MaxBytes, "password", "deve ter no máximo 72 bytes")
	}
	return in, errs.Err()
}

// loginEmpresa: POST /auth/login {"email","password"} → 200 {token,
// refreshToken, user}. Admins (configuration) are checked first, then
// company-billing. 401 for bad credentials, 403 for a blocked company.
func (h *Handlers) loginEmpresa(c *fiber.Ctx) error {
	in, err := decodePasswordLogin(c)
	if err != nil {
		return err
	}
	email := accounts.NormalizeEmail(in.Email)
	if err := h.limit(c, "login", email); err != nil {
		return err
	}
	ctx := c.UserContext()

	if isAdmin, ok := h.Admins.Check(email, in.Password); isAdmin {
		if !ok {
			return errBadCredentials
		}
		return h.answer(c, tokens.Admin(email), userAdmin{ID: email, Email: email, Role: jwtauth.RoleAdmin})
	}

	e, err := h.Companies.Login(ctx, in.Email, in.Password)
	switch {
	case errors.Is(err, companybilling.ErrBadCredentials):
		return errBadCredentials
	case err != nil:
		return err // 403 empresa_bloqueada passes on as company-billing sent it; 5xx is a 503
	case e.Bloqueada:
		return errBlocked
	case e.ID <= 0:
		return domainerr.BadDependency("company-billing", errors.New("company view without id"))
	}
	return h.answer(c, tokens.Empresa(e.ID), userEmpresa{
		ID: e.ID, Email: e.Email, Nome: e.Nome, RazaoSocial: e.RazaoSocial,
		Role: e.Role, NomeDoPlano: e.NomeDoPlano, AssinaturaStatus: e.AssinaturaStatus,
	})
}

// answer issues the token pair for id and writes the login answer.
func (h *Handlers) answer(c *fiber.Ctx, id tokens.Identity, user any) error {
	pair, err := h.Issuer.Issue(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(loginAnswer{Token: pair.Access, RefreshToken: pair.Refresh, User: user})
}
