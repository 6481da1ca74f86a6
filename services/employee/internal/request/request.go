// Package request reads what a request to the employee service carries
// beyond what pkg reads (the caller: jwtauth.Caller; path ids:
// httpserver.PathID, httpserver.CallerAndID): numeric and boolean query
// values, the company named in a body, and optional body fields that tell
// "absent" from "null".
package request

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
)

// QueryID reads an optional positive integer query value (nil when absent).
func QueryID(c *fiber.Ctx, name string) (*int64, error) {
	s := c.Query(name)
	if s == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return nil, domainerr.InvalidField(name, "deve ser um inteiro positivo")
	}
	return &n, nil
}

// QueryBool reads an optional true/false query value (nil when absent).
func QueryBool(c *fiber.Ctx, name string) (*bool, error) {
	switch c.Query(name) {
	case "":
		return nil, nil
	case "true":
		b := true
		return &b, nil
	case "false":
		b := false
		return &b, nil
	}
	return nil, domainerr.InvalidField(name, "deve ser true ou false")
}

// SameEmpresa refuses a body whose empresaId names another company than
// the caller's. It is a 403 rather than a 404: nothing of the other
// company is looked up or revealed, the caller simply may not act for it.
func SameEmpresa(caller *jwtauth.Claims, empresaID int64) error {
	if empresaID < 0 {
		return domainerr.Invalid(map[string]string{"empresaId": "deve ser um número positivo"})
	}
	if empresaID > 0 && empresaID != caller.EmpresaID {
		return domainerr.Forbidden("empresa_divergente", "empresaId não corresponde à empresa do token")
	}
	return nil
}

// Opt is a body field of a partial update: Set tells whether the client
// sent it at all, Null whether it sent null.
type Opt[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON is called by encoding/json only for keys that are present,
// including an explicit null.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// Ptr is the value as a pointer: nil for null.
func (o Opt[T]) Ptr() *T {
	if o.Null {
		return nil
	}
	v := o.Value
	return &v
}
