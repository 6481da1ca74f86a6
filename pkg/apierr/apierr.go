// Package apierr is the API's error answer: the {"message","code"} JSON
// with its HTTP status. The services' code returns domain errors
// (pkg/domainerr); As turns them into answers, with the one mapping from a
// domain kind to a status. The HTTP server's error handler
// (pkg/httpserver) is the one place that writes them.
package apierr

import (
	"fmt"
	"net/http"

	"github.com/ponto/ponto/pkg/domainerr"
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
	// Esperada is the sequence a 409 evento_fora_de_ordem asks for next
	// (timekeeping's POST /internal/eventos).
	Esperada int64 `json:"esperada,omitempty"`
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

// statuses is the one mapping from a domain error's kind to the status
// of its answer.
var statuses = map[domainerr.Kind]int{
	domainerr.KindInvalid:         http.StatusBadRequest,
	domainerr.KindUnauthenticated: http.StatusUnauthorized,
	domainerr.KindForbidden:       http.StatusForbidden,
	domainerr.KindNotFound:        http.StatusNotFound,
	domainerr.KindConflict:        http.StatusConflict,
	domainerr.KindTooLarge:        http.StatusRequestEntityTooLarge,
	domainerr.KindUnsupported:     http.StatusUnsupportedMediaType,
	domainerr.KindUnavailable:     http.StatusServiceUnavailable,
	domainerr.KindBadDependency:   http.StatusBadGateway,
}

// FromDomain is the answer to the domain error d; one without a known
// kind is an internal error.
func FromDomain(d *domainerr.Error) *Error {
	status, ok := statuses[d.Kind]
	if !ok {
		return Internal(d)
	}
	return &Error{Status: status, Code: d.Code, Message: d.Message, Fields: d.Fields, Err: d.Err}
}

// As reports whether err is or wraps an *Error or a *domainerr.Error and
// returns the answer it makes. The outermost one counts: a domain error
// that wraps a peer's answer (its cause) answers as itself.
func As(err error) (*Error, bool) {
	for err != nil {
		switch e := err.(type) {
		case *Error:
			return e, true
		case *domainerr.Error:
			return FromDomain(e), true
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if a, ok := As(inner); ok {
					return a, true
				}
			}
			return nil, false
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		default:
			return nil, false
		}
	}
	return nil, false
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

// The constructors below serve the HTTP plumbing of pkg (the server, the
// token verifier, the rate limits, the peers' client); the services'
// code builds domain errors instead. Each answers as its domain
// counterpart, so a code and its message are written once.

// Invalid is a 400 for a request whose fields fail validation. fields maps
// each offending field to what is wrong with it.
func Invalid(fields map[string]string) *Error { return FromDomain(domainerr.Invalid(fields)) }

// BadRequest is a 400 for malformed input.
func BadRequest(code, message string) *Error { return FromDomain(domainerr.Malformed(code, message)) }

// Unauthorized is a 401: no token, or a token that does not verify.
func Unauthorized(message string) *Error {
	return FromDomain(domainerr.Unauthenticated("nao_autenticado", message))
}

// Forbidden is a 403: the caller is known but its role may not do this.
func Forbidden(message string) *Error {
	return FromDomain(domainerr.Forbidden("acesso_negado", message))
}

// NotFound is a 404: unknown, or another tenant's (never told apart).
func NotFound(message string) *Error { return FromDomain(domainerr.NotFound(message)) }

// Conflict is a 409: a duplicate or a state that forbids the change.
func Conflict(code, message string) *Error { return FromDomain(domainerr.Conflict(code, message)) }

// TooLarge is a 413: the body (or file) exceeds its limit.
func TooLarge(message string) *Error { return FromDomain(domainerr.TooLarge(message)) }

// UnsupportedMediaType is a 415: the content is not of an accepted type.
func UnsupportedMediaType(message string) *Error { return FromDomain(domainerr.Unsupported(message)) }

// TooManyRequests is a 429 that tells the client when to come back.
func TooManyRequests(retryAfterSeconds int) *Error {
	e := New(http.StatusTooManyRequests, "limite_excedido", "muitas requisições; tente novamente mais tarde")
	e.RetryAfter = retryAfterSeconds
	return e
}

// Unavailable is a 503: a dependency this service needs is down.
func Unavailable(dependency string, cause error) *Error {
	return FromDomain(domainerr.Unavailable(dependency, cause))
}

// BadGateway is a 502: a dependency answered, but not as it should.
func BadGateway(dependency string, cause error) *Error {
	return FromDomain(domainerr.BadDependency(dependency, cause))
}

// Internal is a 500 whose cause is logged but never shown.
func Internal(cause error) *Error {
	e := New(http.StatusInternalServerError, "erro_interno", "erro interno")
	e.Err = cause
	return e
}
