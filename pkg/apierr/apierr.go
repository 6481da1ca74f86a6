// Package apierr holds the typed errors that handlers return. The HTTP
// server's error handler is the one place that turns them into the
// {"message","code"} JSON answer with the right status.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is an error meant for the API client: a pt-BR message, a stable
// machine code and, for validation, the offending fields.
type Error struct {
	Status  int               `json:"-"`
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
	// Empresas are the choices of a 409 that asks the client which
	// employer it means (an e-mail shared by several employments).
	Empresas []Choice `json:"empresas,omitempty"`
	// Err is the cause, kept for logs; it never reaches the client.
	Err error `json:"-"`
	// RetryAfter, in seconds, is sent as the Retry-After header when set.
	RetryAfter int `json:"-"`
}

// Choice is one option the client may pick: an id and its name only.
type Choice struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// As reports whether err is or wraps an *Error and returns it.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// New builds an error with any status.
func New(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// Wrap returns a copy of e carrying cause for the logs.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// Invalid is a 400 for a request whose fields fail validation. fields maps
// each offending field to what is wrong with it.
func Invalid(fields map[string]string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "validacao", Message: "dados inválidos", Fields: fields}
}

// BadRequest is a 400 for malformed input.
func BadRequest(code, message string) *Error { return New(http.StatusBadRequest, code, message) }

// Unauthorized is a 401: no token, or a token that does not verify.
func Unauthorized(message string) *Error {
	return New(http.StatusUnauthorized, "nao_autenticado", message)
}

// Forbidden is a 403: the caller is known but its role may not do this.
func Forbidden(message string) *Error { return New(http.StatusForbidden, "acesso_negado", message) }

// NotFound is a 404: unknown, or another tenant's (never told apart).
func NotFound(message string) *Error { return New(http.StatusNotFound, "nao_encontrado", message) }

// Conflict is a 409: a duplicate or a state that forbids the change.
func Conflict(code, message string) *Error { return New(http.StatusConflict, code, message) }

// TooLarge is a 413: the body (or file) exceeds its limit.
func TooLarge(message string) *Error {
	return New(http.StatusRequestEntityTooLarge, "grande_demais", message)
}

// UnsupportedMediaType is a 415: the content is not of an accepted type.
func UnsupportedMediaType(message string) *Error {
	return New(http.StatusUnsupportedMediaType, "tipo_nao_suportado", message)
}

// TooManyRequests is a 429 that tells the client when to come back.
func TooManyRequests(retryAfterSeconds int) *Error {
	e := New(http.StatusTooManyRequests, "limite_excedido", "muitas requisições; tente novamente mais tarde")
	e.RetryAfter = retryAfterSeconds
	return e
}

// Unavailable is a 503: a dependency this service needs is down.
func Unavailable(dependency string, cause error) *Error {
	e := New(http.StatusServiceUnavailable, "dependencia_indisponivel", "serviço temporariamente indisponível")
	e.Err = fmt.Errorf("%s: %w", dependency, cause)
	return e
}

// BadGateway is a 502: a dependency answered, but not as it should.
func BadGateway(dependency string, cause error) *Error {
	e := New(http.StatusBadGateway, "falha_dependencia", "falha ao comunicar com um serviço externo")
	e.Err = fmt.Errorf("%s: %w", dependency, cause)
	return e
}

// Internal is a 500 whose cause is logged but never shown.
func Internal(cause error) *Error {
	e := New(http.StatusInternalServerError, "erro_interno", "erro interno")
	e.Err = cause
	return e
}
