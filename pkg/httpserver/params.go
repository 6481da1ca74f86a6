package httpserver

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
)

// PathID reads the path value name as a positive integer (a database id);
// anything else is a 400 naming it.
func PathID(c *fiber.Ctx, name string) (int64, error) {
	n, err := strconv.ParseInt(c.Params(name), 10, 64)
	if err != nil || n < 1 {
		return 0, apierr.Invalid(map[string]string{name: "deve ser um inteiro positivo"})
	}
	return n, nil
}
