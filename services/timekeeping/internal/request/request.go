// Package request reads what a request to the timekeeping service carries:
// the verified caller, numeric path values, dates, periods and small JSON
// bodies.
package request

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/httpserver"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
)

// MaxBody bounds the JSON bodies of this service, which are all a few
// short fields (the server-wide limit is much larger).
const MaxBody = 4 << 10

// Caller returns the verified caller; see jwtauth.Caller.
func Caller(c *fiber.Ctx) (*jwtauth.Claims, error) { return jwtauth.Caller(c) }

// ID reads the path value name as a positive integer; see
// httpserver.PathID.
func ID(c *fiber.Ctx, name string) (int64, error) { return httpserver.PathID(c, name) }

// DecodeJSON bounds the body to MaxBody and decodes it strictly.
func DecodeJSON(c *fiber.Ctx, dst any) error {
	if len(httpserver.Body(c)) > MaxBody {
		return domainerr.TooLarge("corpo da requisição grande demais (máximo 4 KiB)")
	}
	return httpserver.DecodeJSON(c, dst)
}

// SameFuncionario refuses a body whose funcionarioId is not the calling
// employee. It is a 403: nothing of the other employee is looked up or
// revealed, the caller simply may not act for him.
func SameFuncionario(caller *jwtauth.Claims, funcionarioID int64) error {
	if funcionarioID < 1 {
		return domainerr.InvalidField("funcionarioId", "campo obrigatório (inteiro positivo)")
	}
	if !caller.IsFuncionarioSelf(funcionarioID) {
		return domainerr.Forbidden("funcionario_divergente", "funcionarioId não corresponde ao funcionário do token")
	}
	return nil
}

// Earliest is the first date any route accepts: nothing older can be a
// punch of this system, and it keeps date arithmetic sane.
var Earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// invalidDate is the message of a date out of calendar or before
// Earliest.
const invalidDate = "data inválida (use AAAA-MM-DD, a partir de 2000-01-01)"

// Date parses a YYYY-MM-DD civil date named field; out of calendar or
// before Earliest is a 400.
func Date(s, field string) (time.Time, error) {
	v := validate.Errors{}
	d := CheckDate(v, s, field)
	if err := v.Err(); err != nil {
		return time.Time{}, err
	}
	return d, nil
}

// CheckDate checks a YYYY-MM-DD civil date s into v under field: out of
// calendar or before Earliest is invalid. It returns the date.
func CheckDate(v validate.Errors, s, field string) time.Time {
	d, ok := validate.DateISO(s)
	v.Check(ok && !d.Before(Earliest), field, invalidDate)
	return d
}

// RequiredDate is CheckDate of a required field of a body: nil is
// "campo obrigatório".
func RequiredDate(v validate.Errors, s *string, field string) time.Time {
	if s == nil {
		v.Check(false, field, "campo obrigatório")
		return time.Time{}
	}
	return CheckDate(v, *s, field)
}

// Period reads the inicio and fim query dates (YYYY-MM-DD, both included).
// Missing, they default to the month of today; inicio must not pass fim and
// the period spans at most maxDays.
func Period(c *fiber.Ctx, today time.Time, maxDays int) (inicio, fim time.Time, err error) {
	inicio = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	fim = inicio.AddDate(0, 1, -1)
	v := validate.Errors{}
	if s := c.Query("inicio"); s != "" {
		inicio = CheckDate(v, s, "inicio")
	}
	if s := c.Query("fim"); s != "" {
		fim = CheckDate(v, s, "fim")
	}
	if len(v) == 0 {
		v.Check(!fim.Before(inicio), "fim", "deve ser igual ou posterior a inicio")
		v.Check(Days(inicio, fim) <= maxDays, "fim", "o período tem no máximo "+strconv.Itoa(maxDays)+" dias")
	}
	return inicio, fim, v.Err()
}

// Days counts the dates from inicio to fim, both included.
func Days(inicio, fim time.Time) int { return int(fim.Sub(inicio).Hours()/24) + 1 }

// Limits of a treatment's reason (motivo), as for adjustments.
const (
	MotivoMin = 3
	MotivoMax = 500
)

// Motivo checks a reason into v under field: required, 3 to 500
// characters, no surrounding blanks. It returns the reason.
func Motivo(v validate.Errors, s *string, field string) string {
	if s == nil || strings.TrimSpace(*s) == "" {
		v.Check(false, field, "campo obrigatório")
		return ""
	}
	n := utf8.RuneCountInString(*s)
	v.Check(n >= MotivoMin && n <= MotivoMax, field, "deve ter entre 3 e 500 caracteres")
	v.Check(strings.TrimSpace(*s) == *s, field, "não pode começar nem terminar com espaços")
	return *s
}

// On reads a request about one resource: the caller and the path
// parameter param as an id.
func On(c *fiber.Ctx, param string) (*jwtauth.Claims, int64, error) {
	return httpserver.CallerAndID(c, param)
}

// OnEmployee reads a request about one employee: the caller, the
// {funcionarioId} path parameter, and the JSON body decoded into dst.
func OnEmployee(c *fiber.Ctx, dst any) (caller *jwtauth.Claims, id int64, err error) {
	if caller, id, err = On(c, "funcionarioId"); err != nil {
		return nil, 0, err
	}
	if err = DecodeJSON(c, dst); err != nil {
		return nil, 0, err
	}
	return caller, id, nil
}

// Reasoned reads a company's action on one of its resources that a
// reason justifies: the caller, the path parameter param as an id, and
// the body {"motivo"} checked by Motivo. Disregarding a punch, cancelling
// an abono and reopening a period all take this shape.
func Reasoned(c *fiber.Ctx, param string) (caller *jwtauth.Claims, id int64, motivo string, err error) {
	if caller, id, err = On(c, param); err != nil {
		return nil, 0, "", err
	}
	var in struct {
		Motivo *string `json:"motivo" text:"multiline"`
	}
	if err = DecodeJSON(c, &in); err != nil {
		return nil, 0, "", err
	}
	v := validate.Errors{}
	motivo = Motivo(v, in.Motivo, "motivo")
	if err = v.Err(); err != nil {
		return nil, 0, "", err
	}
	return caller, id, motivo, nil
}

// Month reads a YYYY-MM month (from 2000-01) as its first day.
func Month(s, field string) (time.Time, error) {
	m, err := time.Parse("2006-01", s)
	if err != nil || m.Before(Earliest) {
		return time.Time{}, domainerr.InvalidField(field, "mês inválido (use AAAA-MM, a partir de 2000-01)")
	}
	return m, nil
}
