package httpserver

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
)

// handleError is the one place where an error returned by a handler, a
// middleware or the HTTP server itself becomes the {"message","code"} JSON
// answer. Causes are logged, never sent.
func (s *Server) handleError(c *fiber.Ctx, err error) error {
	e := translate(err)
	if e.Status >= http.StatusInternalServerError {
		s.log.ErrorContext(c.UserContext(), "request failed",
			"status", e.Status, "code", e.Code, "err", err.Error(), "request_id", RequestID(c))
	} else if e.Err != nil {
		s.log.DebugContext(c.UserContext(), "request refused",
			"status", e.Status, "code", e.Code, "err", e.Err.Error(), "request_id", RequestID(c))
	}
	if e.RetryAfter > 0 {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(e.RetryAfter))
	}
	return c.Status(e.Status).JSON(e)
}

// fiberErrors maps the errors Fiber and fasthttp raise themselves (no route,
// body too large, bad content type...) to the project's codes and pt-BR
// messages.
var fiberErrors = map[int]*apierr.Error{
	fiber.StatusBadRequest:                  apierr.BadRequest("requisicao_invalida", "requisição inválida"),
	fiber.StatusNotFound:                    apierr.NotFound("rota não encontrada"),
	fiber.StatusMethodNotAllowed:            apierr.New(http.StatusMethodNotAllowed, "metodo_nao_permitido", "método não permitido"),
	fiber.StatusRequestTimeout:              apierr.New(http.StatusRequestTimeout, "tempo_esgotado", "tempo de requisição esgotado"),
	fiber.StatusRequestEntityTooLarge:       apierr.TooLarge("corpo da requisição grande demais"),
	fiber.StatusUnsupportedMediaType:        apierr.UnsupportedMediaType("tipo de conteúdo não suportado"),
	fiber.StatusUnprocessableEntity:         apierr.UnsupportedMediaType("tipo de conteúdo não suportado"),
	fiber.StatusRequestHeaderFieldsTooLarge: apierr.New(http.StatusRequestHeaderFieldsTooLarge, "cabecalho_grande_demais", "cabeçalhos grandes demais"),
}

func translate(err error) *apierr.Error {
	if e, ok := apierr.As(err); ok {
		return e
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		if e, ok := fiberErrors[fe.Code]; ok {
			return e.Wrap(err)
		}
		if fe.Code >= 400 && fe.Code < 500 {
			return apierr.New(fe.Code, "requisicao_invalida", "requisição inválida").Wrap(err)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return apierr.Unavailable("deadline", err)
	}
	return apierr.Internal(err)
}
