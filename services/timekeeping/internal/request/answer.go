package request

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
)

// Empresa lets only a company's token through (jwtauth.RequireRole).
var Empresa = jwtauth.RequireRole(jwtauth.RoleEmpresa)

// Answer adapts f, which serves a request of the verified caller and
// returns what to answer, into a handler: 200 with f's answer as JSON.
// Without a caller, or when f fails, the error as is, nothing written.
func Answer[T any](f func(c *fiber.Ctx, caller *jwtauth.Claims) (T, error)) fiber.Handler {
	return answer(fiber.StatusOK, f)
}

// Created is Answer with 201 Created.
func Created[T any](f func(c *fiber.Ctx, caller *jwtauth.Claims) (T, error)) fiber.Handler {
	return answer(fiber.StatusCreated, f)
}

func answer[T any](status int, f func(c *fiber.Ctx, caller *jwtauth.Claims) (T, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, err := Caller(c)
		if err != nil {
			return err
		}
		out, err := f(c, caller)
		return reply(c, status, out, err)
	}
}

// reply answers out as JSON with status, or err as is.
func reply[T any](c *fiber.Ctx, status int, out T, err error) error {
	if err != nil {
		return err
	}
	return c.Status(status).JSON(out)
}

// AnswerOn is Answer for a request about one resource: f also takes the
// path parameter param as an id (see On).
func AnswerOn[T any](param string, f func(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (T, error)) fiber.Handler {
	return Answer(func(c *fiber.Ctx, caller *jwtauth.Claims) (T, error) {
		id, err := ID(c, param)
		if err != nil {
			var zero T
			return zero, err
		}
		return f(c, caller, id)
	})
}

// AnswerReasoned is AnswerOn for a company's action on one of its
// resources that a reason justifies (see Reasoned): f also takes the
// motivo.
func AnswerReasoned[T any](param string,
	f func(c *fiber.Ctx, caller *jwtauth.Claims, id int64, motivo string) (T, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, id, motivo, err := Reasoned(c, param)
		if err != nil {
			return err
		}
		out, err := f(c, caller, id, motivo)
		return reply(c, fiber.StatusOK, out, err)
	}
}

// NoContent adapts f, which serves a request of the verified caller and
// answers nothing, into a handler: 204 when f succeeds.
func NoContent(f func(c *fiber.Ctx, caller *jwtauth.Claims) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller, err := Caller(c)
		if err != nil {
			return err
		}
		if err := f(c, caller); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

// Paged reads the page the query asks for (pagina, tamanho) and answers
// it as list gives it: the page's items and how many there are in all.
func Paged[T any](c *fiber.Ctx, list func(p page.Page) ([]T, int, error)) (page.Result[T], error) {
	p, err := page.FromQuery(c)
	if err != nil {
		return page.Result[T]{}, err
	}
	items, total, err := list(p)
	if err != nil {
		return page.Result[T]{}, err
	}
	return page.NewResult(items, p, total), nil
}
