package request

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/fuso"
)

// Handlers are what the handlers of a feature on employees' records
// hold: the feature's store S, the workdays (the employees' records and
// zones) and the clock. Such a feature declares its own on it,
// type Handlers request.Handlers[*Store], and routes.go fills it.
type Handlers[S any] struct {
	Store    S
	Workdays fuso.Workdays
	Clock    *clock.Clock
}

// Entry is a company's entry on a day of one of its employees (an abono,
// a bank movement): the caller, the employee's id, the entry T checked
// from the body, and the employee's zone.
type Entry[T any] struct {
	Caller *jwtauth.Claims
	ID     int64
	Body   T
	Zone   *time.Location
	// Funcionario is the employee's record.
	Funcionario employee.Funcionario
}

// ReadEntry reads an Entry: the caller and the {funcionarioId} with the
// JSON body decoded into dst (OnEmployee), the body checked by check
// into T (a 400 with what it finds), then the employee's zone from
// workdays (404 when he is not the company's employee).
func ReadEntry[T any](c *fiber.Ctx, workdays fuso.Workdays, dst any, check func(v validate.Errors) T) (Entry[T], error) {
	caller, id, err := OnEmployee(c, dst)
	if err != nil {
		return Entry[T]{}, err
	}
	v := validate.Errors{}
	body := check(v)
	if err := v.Err(); err != nil {
		return Entry[T]{}, err
	}
	f, zone, err := workdays.Funcionario(c.UserContext(), caller.EmpresaID, id)
	if err != nil {
		return Entry[T]{}, err
	}
	return Entry[T]{Caller: caller, ID: id, Body: body, Zone: zone, Funcionario: f}, nil
}
