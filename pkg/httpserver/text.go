package httpserver

import (
	"mime"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/validate"
)

// checkText is the one input rule every route shares, run before any
// handler: a textual request body (JSON, text, a form) must be valid
// UTF-8, and the path and every query value must be text validate.Text
// accepts. The JSON fields themselves are checked by DecodeJSON, once
// decoded (escapes such as \u0000 only show then).
func checkText(c *fiber.Ctx) error {
	if body := Body(c); len(body) > 0 && !utf8.Valid(body) && textualBody(c.Get(fiber.HeaderContentType)) {
		return apierr.BadRequest("codificacao_invalida", "o corpo da requisição deve estar em UTF-8 válido")
	}
	path, err := url.PathUnescape(c.Path())
	if err != nil || !validate.Text(path, false) {
		return apierr.Invalid(map[string]string{"caminho": validate.MsgBadText})
	}
	var bad string
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		if bad == "" && (!validate.Text(string(v), false) || !validate.Text(string(k), false)) {
			bad = strings.ToValidUTF8(string(k), "?")
		}
	})
	if bad != "" {
		return apierr.Invalid(map[string]string{bad: validate.MsgBadText})
	}
	return c.Next()
}

// textualBody reports whether a content type carries text: JSON (and its
// +json dialects), text/* and url-encoded forms. Images and multipart
// uploads are binary and checked by their handlers.
func textualBody(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType != "" // unparseable: treat as text, so it is checked
	}
	return mt == fiber.MIMEApplicationJSON || strings.HasSuffix(mt, "+json") ||
		strings.HasPrefix(mt, "text/") || mt == fiber.MIMEApplicationForm
}

// multilineTag marks a string field that may hold line breaks and tabs
// (`text:"multiline"`); every other string field is one line.
const multilineTag = "multiline"

// checkStrings walks a decoded request value and records, under the
// field's JSON name, every string validate.Text refuses.
func checkStrings(v reflect.Value, field string, multiline bool, errs validate.Errors) {
	switch v.Kind() {
	case reflect.String:
		errs.CheckText(v.String(), field, multiline)
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkStrings(v.Elem(), field, multiline, errs)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			checkStrings(v.Index(i), field, multiline, errs)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			key := iter.Key()
			name := field
			if key.Kind() == reflect.String {
				errs.CheckText(key.String(), joinField(field, key.String()), false)
				name = joinField(field, key.String())
			}
			checkStrings(iter.Value(), name, multiline, errs)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := field
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == "-" {
				continue
			} else if tag != "" {
				name = joinField(field, tag)
			} else if field == "" {
				name = f.Name
			}
			// A wrapper without JSON names (an optional field's Value)
			// keeps its parent's name and line rule.
			ml := multiline || f.Tag.Get("text") == multilineTag
			checkStrings(v.Field(i), name, ml, errs)
		}
	}
}

func joinField(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
