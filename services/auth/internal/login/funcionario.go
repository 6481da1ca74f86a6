package login

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/mail"
	"github.com/ponto/ponto/pkg/ratelimit"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/auth/internal/accounts"
	"github.com/ponto/ponto/services/auth/internal/clients/employee"
	"github.com/ponto/ponto/services/auth/internal/codes"
	"github.com/ponto/ponto/services/auth/internal/tokens"
)

// errBadCode is the one 401 of POST /auth/login/funcionario: wrong,
// expired, used or exhausted code, unknown or inactive employee.
var errBadCode = domainerr.Unauthenticated("codigo_invalido", "e-mail ou código inválido ou expirado")

type codeRequest struct {
	Email string `json:"email"`
	// EmpresaID picks one employment of an e-mail that several share;
	// without it the code serves any of them.
	EmpresaID *int64 `json:"empresaId"`
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
	errs.RequiredEmail(in.Email, "email")
	checkEmpresaID(errs, in.EmpresaID)
	if err := errs.Err(); err != nil {
		return err
	}
	email := accounts.NormalizeEmail(in.Email)
	hourly := ratelimit.Check{Name: "codigo:email-hora", Limit: ratelimit.PerHour(h.Limits.CodesPerHour), Key: ratelimit.EmailKey(email)}
	if err := h.limit(c, "codigo", email, hourly); err != nil {
		return err
	}
	log := h.Log.With("request_id", httpserver.RequestID(c))
	h.bg.run(c.UserContext(), "send-code", func(ctx context.Context) { h.sendCode(ctx, log, in.Email, in.EmpresaID) })
	return c.Status(http.StatusAccepted).JSON(fiber.Map{
		"message": "se o e-mail pertencer a um funcionário ativo, um código de acesso será enviado",
	})
}

// sendCode runs in the background: every outcome is logged, none reaches
// the client. Employees are logged by id, not by e-mail.
func (h *Handlers) sendCode(ctx context.Context, log *slog.Logger, typed string, empresaID *int64) {
	may, err := h.employments(ctx, typed, empresaID)
	if err != nil {
		log.ErrorContext(ctx, "login code: employee lookup failed; no code sent", "err", err)
		return
	}
	if len(may) == 0 {
		log.InfoContext(ctx, "login code: no employee with this e-mail, or employee inactive or company blocked; no code sent")
		return
	}
	// One employment: the code is its own. Several: the code proves the
	// e-mail, and the login names the employer (or hears which ones).
	f, fid := may[0], int64(0)
	if len(may) == 1 {
		fid = f.ID
	}
	issued, err := h.Codes.Issue(ctx, accounts.NormalizeEmail(typed), fid)
	if err != nil {
		log.ErrorContext(ctx, "login code: store failed; no code sent", "funcionarioId", f.ID, "err", err)
		return
	}
	// Best effort: the employee record only shows the hash; the login
	// checks Redis, so a failure here must not keep the code from going out.
	for _, f := range may {
		if err := h.Employees.SetCodeVerify(ctx, f.ID, issued.Hash); err != nil {
			log.WarnContext(ctx, "login code: employee service did not record codeVerify", "funcionarioId", f.ID, "err", err)
		}
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
	// EmpresaID picks the employer when the e-mail has several.
	EmpresaID *int64 `json:"empresaId"`
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
	errs.RequiredEmail(in.Email, "email")
	if errs.Required(in.CodeVerify, "codeVerify") {
		errs.Check(validate.Digits(in.CodeVerify, codes.Digits, codes.Digits), "codeVerify", "deve ter 6 dígitos")
	}
	checkEmpresaID(errs, in.EmpresaID)
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
		return err
	}
	// The code is proven: only now may the answer tell the employers
	// apart, so someone without it learns nothing.
	may, err := h.employments(ctx, in.Email, in.EmpresaID)
	if err != nil {
		return err
	}
	if fid != 0 {
		may = slices.DeleteFunc(may, func(f employee.Funcionario) bool { return f.ID != fid })
	}
	switch {
	case len(may) == 0:
		return errBadCode
	case len(may) > 1:
		return h.whichEmployer(ctx, may)
	}
	f := may[0]
	// Only now is the code used up, atomically: of two logins racing with
	// it, one gets through.
	if err := h.Codes.Consume(ctx, email, in.CodeVerify); errors.Is(err, codes.ErrInvalid) {
		return errBadCode
	} else if err != nil {
		return err
	}
	return h.answer(c, tokens.Funcionario(f.EmpresaID, f.ID), employee.Profile(f))
}

// employments are the e-mail's employments that may log in (the employee
// active, the company not blocked), only the one of empresaID if given.
func (h *Handlers) employments(ctx context.Context, email string, empresaID *int64) ([]employee.Funcionario, error) {
	all, err := h.Employees.Employments(ctx, email)
	if err != nil {
		return nil, err
	}
	var may []employee.Funcionario
	for _, f := range all {
		if empresaID != nil && f.EmpresaID != *empresaID {
			continue
		}
		ok, err := h.Gate.EmployeeMayLogIn(ctx, f)
		if err != nil {
			return nil, err
		}
		if ok {
			may = append(may, f)
		}
	}
	return may, nil
}

// whichEmployer is the 409 of a proven code whose e-mail several active
// employments share: the employers by name, to send again with empresaId.
// The code is not used up.
func (h *Handlers) whichEmployer(ctx context.Context, may []employee.Funcionario) error {
	e := apierr.Conflict("empresa_ambigua", "este e-mail pertence a mais de uma empresa; escolha uma e informe empresaId")
	for _, f := range may {
		c, _, err := h.Companies.Get(ctx, f.EmpresaID)
		if err != nil {
			return err
		}
		e.Empresas = append(e.Empresas, apierr.Choice{ID: f.EmpresaID, Nome: c.Nome})
	}
	return e
}

func checkEmpresaID(errs validate.Errors, id *int64) {
	if id != nil {
		errs.Check(*id > 0, "empresaId", "deve ser um número positivo")
	}
}
