package httpserver

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/jwtauth"
)

// CallerAndID reads a request about one resource: the verified caller
// (jwtauth.Caller) and the path value name as an id (PathID).
func CallerAndID(c *fiber.Ctx, name string) (caller *jwtauth.Claims, id int64, err error) {
	if caller, err = jwtauth.Caller(c); err != nil {
		return nil, 0, err
	}
	if id, err = PathID(c, name); err != nil {
		return nil, 0, err
	}
	return caller, id, nil
}

// PathID reads the path value name as a positive integer (a database id);
// anything else is a 400 naming it.
func PathID(c *fiber.Ctx, name string) (int64, error) {
	n, err := strconv.ParseInt(c.Params(name), 10, 64)
	if err != nil || n < 1 {
		return 0, apierr.Invalid(map[string]string{name: "deve ser um inteiro positivo"})
	}
	return n, nil
}
