// Package domainerr holds the errors that the services' code returns: what
// went wrong in the domain's terms (unknown, a conflict, invalid fields, a
// dependency down...), with the pt-BR message and the stable code the
// client reads, but no HTTP status. pkg/apierr maps each Kind to its
// status in one table, so no rule or store chooses one.
package domainerr

import "fmt"

// Kind is what went wrong, as the domain sees it.
type Kind uint8

// The kinds. The zero Kind is no kind: an Error without one is a bug of
// the code that built it and answers as an internal error.
const (
	// KindInvalid: the input breaks a rule or cannot be read; Fields, when
	// set, name each offending field and what is wrong with it.
	KindInvalid Kind = iota + 1
	// KindUnauthenticated: the caller could not be identified (no token,
	// wrong credentials, a code or refresh token that does not verify).
	KindUnauthenticated
	// KindForbidden: the caller is known but may not do this.
	KindForbidden
	// KindNotFound: unknown, or another tenant's (never told apart).
	KindNotFound
	// KindConflict: the current state forbids the change (a duplicate, a
	// closed period, a request already decided).
	KindConflict
	// KindTooLarge: the input exceeds its limit.
	KindTooLarge
	// KindUnsupported: the content is not of an accepted type.
	KindUnsupported
	// KindUnavailable: something the request needs is down or not there
	// now (a dependency unreachable or timed out); the client may retry.
	KindUnavailable
	// KindBadDependency: a dependency answered, but not as it should.
	KindBadDependency
)

// Error is a domain error: a kind, a stable machine code, a pt-BR message
// for the client and, for invalid input, the offending fields.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string]string
	// Err is the cause, kept for the logs; it never reaches the client.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Wrap returns a copy of e carrying cause for the logs.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// New builds an error of any kind with its own code.
func New(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// Invalid refuses input whose fields fail validation; fields maps each
// offending field to what is wrong with it.
func Invalid(fields map[string]string) *Error {
	return &Error{Kind: KindInvalid, Code: "validacao", Message: "dados inválidos", Fields: fields}
}

// InvalidField is Invalid for one field.
func InvalidField(field, problem string) *Error {
	return Invalid(map[string]string{field: problem})
}

// Malformed refuses input that cannot be read at all (a broken body, a
// missing header), with its own code.
func Malformed(code, message string) *Error { return New(KindInvalid, code, message) }

// Unauthenticated refuses a caller who could not be identified.
func Unauthenticated(code, message string) *Error { return New(KindUnauthenticated, code, message) }

// Forbidden refuses a known caller what his role or state does not allow.
func Forbidden(code, message string) *Error { return New(KindForbidden, code, message) }

// NotFound: unknown, or another tenant's.
func NotFound(message string) *Error { return New(KindNotFound, "nao_encontrado", message) }

// Conflict refuses a change the current state forbids.
func Conflict(code, message string) *Error { return New(KindConflict, code, message) }

// TooLarge refuses input over its limit.
func TooLarge(message string) *Error { return New(KindTooLarge, "grande_demais", message) }

// Unsupported refuses content of a type that is not accepted.
func Unsupported(message string) *Error { return New(KindUnsupported, "tipo_nao_suportado", message) }

// Unavailable reports that dependency could not be reached, or did not
// answer in time. Stores need not call it for PostgreSQL or Redis: the
// HTTP server's error handler recognises their failures (pkg/httpserver).
func Unavailable(dependency string, cause error) *Error {
	e := New(KindUnavailable, "dependencia_indisponivel", "serviço temporariamente indisponível")
	e.Err = fmt.Errorf("%s: %w", dependency, cause)
	return e
}

// BadDependency reports that dependency answered, but not as it should.
func BadDependency(dependency string, cause error) *Error {
	e := New(KindBadDependency, "falha_dependencia", "falha ao comunicar com um serviço externo")
	e.Err = fmt.Errorf("%s: %w", dependency, cause)
	return e
}
