package httpserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/redis/go-redis/v9"

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
	// Errors raised by the server itself (a body too large, a bad
	// request line) skip the middleware chain: set the headers here too.
	defer setSecureHeaders(c)
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
		// A handler that filed a failure as internal cannot know that
		// the dependency behind it was down; the client should hear so.
		if e.Status == http.StatusInternalServerError && dependencyDown(err) {
			return apierr.Unavailable("dependency", err)
		}
		if e.Status == http.StatusInternalServerError && dataError(err) {
			return errBadData.Wrap(err)
		}
		return e
	}
	if dependencyDown(err) {
		return apierr.Unavailable("dependency", err)
	}
	if dataError(err) {
		return errBadData.Wrap(err)
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

// errBadData answers a value PostgreSQL refused as data.
var errBadData = apierr.BadRequest("dado_invalido", "dados inválidos")

// dataError recognises PostgreSQL's data-exception class (22: a NUL byte
// in text, a value out of range, a bad date...). Input validation should
// have refused such a value; when one slips through, it is still the
// client's bad input, a 400, not a server failure.
func dataError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22")
}

// dependencyDown recognises, in an error a handler passed up unclassified,
// a dependency that could not be reached or went away mid-request: network
// errors (PostgreSQL, Redis, MinIO, peers), a connection closed under the
// query, PostgreSQL's connection-exception (08), insufficient-resources
// (53, e.g. too many connections) and operator-intervention (57, e.g.
// shutting down) classes, and Redis out of service (redisDown). Stores
// return these errors as the drivers give them, wrapped: this is the one
// place that tells an outage from a bug.
func dependencyDown(err error) bool {
	var ne net.Error
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	switch {
	case errors.As(err, &ne), errors.As(err, &ce):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET):
		return true
	case errors.As(err, &pe):
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "53") || strings.HasPrefix(pe.Code, "57")
	case redisDown(err):
		return true
	}
	return pgconn.SafeToRetry(err)
}

// redisDown recognises a Redis that cannot serve now: its client closed
// or out of connections, or a server loading its data, read-only, out of
// memory, busy with a script or without its master. Other Redis replies
// (a wrong type, an unknown script) are bugs, not outages.
func redisDown(err error) bool {
	switch {
	case errors.Is(err, redis.ErrClosed), errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrPoolExhausted):
		return true
	}
	return redis.IsLoadingError(err) || redis.IsReadOnlyError(err) || redis.IsOOMError(err) ||
		redis.IsMasterDownError(err) || redis.IsMaxClientsError(err) || redis.IsTryAgainError(err) ||
		redis.IsClusterDownError(err) || redis.HasErrorPrefix(err, "BUSY ")
}
