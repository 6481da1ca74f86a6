package pages

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/ponto/ponto/services/web/internal/api"
	"github.com/ponto/ponto/services/web/internal/assets"
	"github.com/ponto/ponto/services/web/internal/session"
)

// parseViews parses each page with the shared layout: one template set per
// page, so that every page defines its own "content".
func parseViews(a *assets.Assets) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"asset":    a.Path,
		"fieldErr": func(e *api.Error, name string) string { return e.Field(name) },
		"hora":     localClock,
		"horaMin":  func(iso any, tz string) string { return trimSeconds(localClock(iso, tz)) },
		"dataBR":   dateBR,
		"minutos":  minutes,
		"str":      str,
		"json":     func(v any) (string, error) { b, err := json.Marshal(v); return string(b), err },
		"eq":       func(a, b any) bool { return str(a) == str(b) },
		"campo":    newField,
		"movimento": func(tipo any) string {
			if l, ok := movementLabels[str(tipo)]; ok {
				return l
			}
			return str(tipo)
		},
		"fusos": func() []zone { return zones },
		"fuso": func(sel any, e *api.Error, vazio string) map[string]any {
			return map[string]any{"Sel": str(sel), "Err": e, "Vazio": vazio}
		},
		"pedido": func(v view, rotulo, campo string) map[string]any {
			return map[string]any{"V": v, "Rotulo": rotulo, "Campo": campo}
		},
		"tabela": func(rotulo, titulo string, colunas ...string) map[string]any {
			return map[string]any{"Rotulo": rotulo, "Titulo": titulo, "Colunas": colunas}
		},
		"novo": func(titulo, acao string, s *session.Session) map[string]any {
			return map[string]any{"Titulo": titulo, "Acao": acao, "CSRF": s.CSRF}
		},
		"alertas":     alertas,
		"afastamento": leaveKind,
		"num":         numero,
		"arquivo": func(nome, texto string) map[string]any {
			return map[string]any{"Nome": nome, "ID": strings.ToLower(nome), "Texto": texto}
		},
	}
	views := map[string]*template.Template{}
	pages, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, file := range pages {
		name := path.Base(file)
		if name == "layout.html" || name == "partials.html" {
			continue
		}
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/partials.html", file)
		if err != nil {
			return nil, err
		}
		views[name] = t
	}
	return views, nil
}

// str renders a JSON value (json.Number, string, nil) as text.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	default:
		return fmt.Sprint(x)
	}
}

// parseTime reads the API's ISO 8601 UTC timestamps.
func parseTime(iso any) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, str(iso))
	return t, err == nil
}

func location(tz string) *time.Location {
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	return time.UTC
}

// localClock is "15:04:05" in tz.
func localClock(iso any, tz string) string {
	t, ok := parseTime(iso)
	if !ok {
		return ""
	}
	return t.In(location(tz)).Format("15:04:05")
}

func trimSeconds(s string) string {
	if len(s) == 8 {
		return s[:5]
	}
	return s
}

// dateBR turns "2026-03-05" (or an ISO timestamp's date) into 05/03/2026.
func dateBR(v any) string {
	s := str(v)
	if len(s) < 10 {
		return s
	}
	t, err := time.Parse("2006-01-02", s[:10])
	if err != nil {
		return s
	}
	return t.Format("02/01/2006")
}

// minutes writes a signed count of minutes as "-1h05".
func minutes(v any) string {
	n, err := strconv.Atoi(str(v))
	if err != nil {
		return str(v)
	}
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%dh%02d", sign, n/60, n%60)
}

// formValues copies the named form fields, trimmed, to refill a form.
func formValues(get func(string, ...string) string, names ...string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		m[n] = strings.TrimSpace(get(n))
	}
	return m
}

// field is one labelled input of a form (the "campo" partial).
type field struct {
	Nome, Rotulo, Tipo, Valor, Auto, Dica, Erro string
}

// newField is the "campo" template function: name, label, input type,
// value, the API error (for the field's message), autocomplete and a hint.
func newField(name, label, typ string, value any, e *api.Error, auto, hint string) field {
	return field{Nome: name, Rotulo: label, Tipo: typ, Valor: str(value), Auto: auto, Dica: hint, Erro: e.Field(name)}
}
