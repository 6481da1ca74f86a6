package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/validate"
)

// Body is the request's body: the request's own buffer, valid while the
// request is served, where c.Body on this Immutable server copies the body
// and every request header's name first; a clock-in read its body three
// times (docs/performance.md). It is never decoded: refuseEncoded answers
// every request with a Content-Encoding before any handler runs.
func Body(c *fiber.Ctx) []byte {
	return c.Request().Body()
}

// refuseEncoded answers 415 to a request whose body has a Content-Encoding,
// before anything reads it: fiber's c.Body and fasthttp's multipart reader
// inflate such a body whole, beyond BodyLimit (377 bytes of "gzip, gzip"
// became 128 MiB), and no client of ponto compresses its requests.
func refuseEncoded(c *fiber.Ctx) error {
	if len(c.Request().Header.Peek(fiber.HeaderContentEncoding)) != 0 {
		return apierr.New(fiber.StatusUnsupportedMediaType, "codificacao_nao_suportada",
			"corpo com Content-Encoding não é aceito; envie-o sem compressão")
	}
	return c.Next()
}

// DecodeJSON strictly decodes the request body into dst: the content type
// must be JSON, unknown fields are refused (a misspelt field is a client
// bug, not something to ignore silently), and exactly one JSON value is
// allowed (null is not a value). Every string decoded must be text validate.Text accepts: one
// line, unless its field is tagged `text:"multiline"`. Errors are 400/415 *apierr.Error values with pt-BR messages.
func DecodeJSON(c *fiber.Ctx, dst any) error {
	ct := strings.ToLower(strings.TrimSpace(strings.Split(c.Get(fiber.HeaderContentType), ";")[0]))
	if ct != fiber.MIMEApplicationJSON {
		return apierr.UnsupportedMediaType("o corpo deve ser application/json")
	}
	body := Body(c)
	if bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
		// json decodes null into a value by leaving it as it was: a PUT of
		// null would then write the zero value (a policy reset).
		return apierr.BadRequest("json_invalido", "o corpo deve ser um objeto JSON, não null")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apierr.BadRequest("json_invalido", "o corpo deve conter um único objeto JSON")
	}
	errs := validate.Errors{}
	checkStrings(reflect.ValueOf(dst), "", false, errs)
	return errs.Err()
}

func jsonError(err error) *apierr.Error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return apierr.BadRequest("json_invalido", "corpo da requisição vazio")
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return apierr.BadRequest("json_invalido", "JSON malformado").Wrap(err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" { // the body itself has the wrong type, e.g. [] for {}
			field = "corpo"
		}
		return apierr.Invalid(map[string]string{field: fmt.Sprintf("deve ser do tipo %s", typeName(typ.Type.Kind().String()))}).Wrap(err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apierr.Invalid(map[string]string{field: "campo desconhecido"}).Wrap(err)
	default:
		return apierr.BadRequest("json_invalido", "JSON inválido").Wrap(err)
	}
}

// typeName names a Go kind in the client's terms.
func typeName(kind string) string {
	switch kind {
	case "string":
		return "texto"
	case "bool":
		return "booleano"
	case "slice", "array":
		return "lista"
	case "struct", "map":
		return "objeto"
	default:
		return "número"
	}
}
