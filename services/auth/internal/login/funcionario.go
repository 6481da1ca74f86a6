package login

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/auth/internal/accounts"
	"github.com/ponto/ponto/services/auth/internal/codes"
	"github.com/ponto/ponto/services/auth/internal/mail"
	"github.com/ponto/ponto/services/auth/internal/ratelimit"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

// errBadCode is the one 401 of POST /auth/login/funcionario: wrong,
// expired, used or exhausted code, unknown or inactive employee.
var errBadCode = apierr.New(http.StatusUnauthorized, "codigo_invalido", "e-mail ou código inválido ou expirado")

type codeRequest struct {
	Email string `json:"email"`
}

// requestCode: POST /auth/login/funcionario/codigo {"email"} → 202 always
// (unless the input is malformed or the client is rate-limited): whether
// the e-mail belongs to an active employee is never told, not even by the
// answer's timing, since the work happens after answering.
func (h *Handlers) requestCode(c *fiber.Ctx) error {
	var in codeRequest
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	errs := validate.Errors{}
	if errs.Required(in.Email, "email") {
		errs.Check(validate.Email(in.Email), "email", "e-mail inválido")
	}
	if err := errs.Err(); err != nil {
		return err
	}
	email := accounts.NormalizeEmail(in.Email)
	hourly := ratelimit.Check{
		Rule: ratelimit.Rule{Name: "codigo:email-hora", Limit: h.Limits.CodesPerHour, Window: time.Hour},
		Key:  ratelimit.EmailKey(email),
	}
	if err := h.limit(c, "codigo", email, hourly); err != nil {
		return err
	}
	log := h.Log.With("request_id", httpserver.RequestID(c))
	h.bg.run(c.UserContext(), "send-code", func(ctx context.Context) { h.sendCode(ctx, log, in.Email) })
	return c.Status(http.StatusAccepted).JSON(fiber.Map{
		"message": "se o e-mail pertencer a um funcionário ativo, um código de acesso será enviado",
	})
}

// sendCode runs in the background: every outcome is logged, none reaches
// the client. Employees are logged by id, not by e-mail.
func (h *Handlers) sendCode(ctx context.Context, log *slog.Logger, typed string) {
	f, found, err := h.Employees.ByEmail(ctx, typed)
	if err != nil {
		log.ErrorContext(ctx, "login code: employee lookup failed; no code sent", "err", err)
		return
	}
	if !found {
		log.InfoContext(ctx, "login code: no employee with this e-mail; no code sent")
		return
	}
	ok, err := h.Gate.EmployeeMayLogIn(ctx, f)
	if err != nil {
		log.ErrorContext(ctx, "login code: company lookup failed; no code sent", "funcionarioId", f.ID, "err", err)
		return
	}
	if !ok {
		log.InfoContext(ctx, "login code: employee inactive or company blocked; no code sent", "funcionarioId", f.ID)
		return
	}
	issued, err := h.Codes.Issue(ctx, accounts.NormalizeEmail(typed), f.ID)
	if err != nil {
		log.ErrorContext(ctx, "login code: store failed; no code sent", "funcionarioId", f.ID, "err", err)
		return
	}
	// Best effort: the employee record only shows the hash; the login
	// checks Redis, so a failure here must not keep the code from going out.
	if err := h.Employees.SetCodeVerify(ctx, f.ID, issued.Hash); err != nil {
		log.WarnContext(ctx, "login code: employee service did not record codeVerify", "funcionarioId", f.ID, "err", err)
	}
	to := f.Email
	if to == "" {
		to = typed
	}
	msg := mail.Message{To: to, Subject: codes.Subject, Body: codes.Body(f.Nome, issued.Code, h.Codes.TTL)}
	if err := h.Mail.Send(ctx, msg); err != nil {
		log.ErrorContext(ctx, "login code: e-mail not sent", "funcionarioId", f.ID, "err", err)
		return
	}
	log.InfoContext(ctx, "login code sent", "funcionarioId", f.ID)
}

type codeLogin struct {
	Email      string `json:"email"`
	CodeVerify string `json:"codeVerify"`
}

// loginFuncionario: POST /auth/login/funcionario {"email","codeVerify"} →
// 200 {token, refreshToken, user: the employee's profile}; 401 for every
// kind of failure.
func (h *Handlers) loginFuncionario(c *fiber.Ctx) error {
	var in codeLogin
	if err := httpserver.DecodeJSON(c, &in); err != nil {
		return err
	}
	errs := validate.Errors{}
	if errs.Required(in.Email, "email") {
		errs.Check(validate.Email(in.Email), "email", "e-mail inválido")
	}
	if errs.Required(in.CodeVerify, "codeVerify") {
		errs.Check(validate.Digits(in.CodeVerify, codes.Digits, codes.Digits), "codeVerify", "deve ter 6 dígitos")
	}
	if err := errs.Err(); err != nil {
		return err
	}
	email := accounts.NormalizeEmail(in.Email)
	if err := h.limit(c, "funcionario", email); err != nil {
		return err
	}
	ctx := c.UserContext()

	// The code first: it costs no call to another service, and a wrong
	// one spends a try whatever the e-mail.
	fid, err := h.Codes.Check(ctx, email, in.CodeVerify)
	if errors.Is(err, codes.ErrInvalid) {
		return errBadCode
	}
	if err != nil {
		return apierr.Unavailable("redis", err)
	}
	f, found, err := h.Employees.ByEmail(ctx, in.Email)
	if err != nil {
		return err
	}
	if !found || f.ID != fid {
		return errBadCode
	}
	ok, err := h.Gate.EmployeeMayLogIn(ctx, f)
	if err != nil {
		return err
	}
	if !ok {
		return errBadCode
	}
	// Only now is the code used up, atomically: of two logins racing with
	// it, one gets through.
	if err := h.Codes.Consume(ctx, email, in.CodeVerify); errors.Is(err, codes.ErrInvalid) {
		return errBadCode
	} else if err != nil {
		return apierr.Unavailable("redis", err)
	}
	return h.answer(c, tokens.Funcionario(f.EmpresaID, f.ID), f.Profile)
}
