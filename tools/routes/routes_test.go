package routes

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// realTable loads the repository's own table, so these tests also guard
// edits to charts/ponto/routes.yaml.
func realTable(t *testing.T) *Table {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	file := filepath.Join(filepath.Dir(here), "..", "..", DefaultFile)
	tbl, err := Load(file)
	if err != nil {
		t.Fatalf("Load(%s): %v", file, err)
	}
	return tbl
}

func TestRealTableMatch(t *testing.T) {
	tbl := realTable(t)
	cases := []struct {
		path, service string
	}{
		{"/funcionarios/12/foto", "media"},
		{"/funcionarios/0b6c1e7a-9d1f-4c38-a2b8-1f3d8f1ba001/foto", "media"},
		{"/funcionarios", "employee"},
		{"/funcionarios/12", "employee"},
		{"/funcionarios/12/foto/extra", "employee"},
		{"/funcionarios//foto", "employee"},
		{"/departamentos/3/0/funcionarios", "employee"},
		{"/escalatrabalhos", "employee"},
		{"/registropontos", "timekeeping"},
		{"/registropontos/departamento/Vendas", "timekeeping"},
		{"/auth/login", "auth"},
		{"/auth/login/funcionario/codigo", "auth"},
		{"/.well-known/jwks.json", "auth"},
		{"/openapi.yaml", "auth"},
		{"/openapi.html", "auth"},
		{"/empresas", "company-billing"},
		{"/empresas/me", "company-billing"},
		{"/admin/empresas", "company-billing"},
		{"/webhooks/stripe", "company-billing"},
	}
	for _, c := range cases {
		got, ok := tbl.Match(c.path)
		if !ok || got != c.service {
			t.Errorf("Match(%q) = %q, %v; want %q", c.path, got, ok, c.service)
		}
	}
}

// TestRealTableRestIsWeb: the web client's "/" comes last and takes every
// path no API route claims, near misses of API prefixes included.
func TestRealTableRestIsWeb(t *testing.T) {
	tbl := realTable(t)
	for _, p := range []string{
		"/", "/healthz", "/readyz", "/funcionariosX", "/funcionarios-foto",
		"/authx", "/registropontosX", "/.well-known/jwks.jsonx", "/.well-known",
		"/admin", "/webhooks", "/openapi.yamlx", "/openapi", "/ponto", "/static/app.css",
	} {
		if got, ok := tbl.Match(p); !ok || got != "web" {
			t.Errorf("Match(%q) = %q, %v; want web", p, got, ok)
		}
	}
	if got, ok := tbl.Match(""); ok {
		t.Errorf("Match(\"\") = %q; want no match", got)
	}
	last := tbl.Routes[len(tbl.Routes)-1]
	if last.Service != "web" || last.Prefix != "/" {
		t.Errorf("the last route is %s %s; want web's prefix /", last.Service, last.Path())
	}
}

func TestRealTableCoversEveryService(t *testing.T) {
	got := realTable(t).ServiceNames()
	slices.Sort(got)
	want := slices.Sorted(slices.Values(Services))
	if !slices.Equal(got, want) {
		t.Fatalf("ServiceNames() = %v; want %v", got, Services)
	}
}

func TestPrefixMatchIsElementWise(t *testing.T) {
	cases := []struct {
		prefix, path string
		want         bool
	}{
		{"/a", "/a", true},
		{"/a", "/a/", true},
		{"/a", "/a/b", true},
		{"/a", "/ab", false},
		{"/a/", "/a", true},
		{"/a/b", "/a/b/c", true},
		{"/a/b", "/a/bc", false},
		{"/", "/anything", true},
	}
	for _, c := range cases {
		if got := prefixMatch(c.prefix, c.path); got != c.want {
			t.Errorf("prefixMatch(%q, %q) = %v; want %v", c.prefix, c.path, got, c.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	cases := map[string]struct {
		yaml, want string
	}{
		"no routes":       {"routes: []", "nenhuma rota"},
		"unknown service": {"routes:\n- {service: billing, prefix: /x}", "serviço desconhecido"},
		"empty service":   {"routes:\n- {prefix: /x}", "service vazio"},
		"empty entry":     {"routes:\n- {service: auth}", "exatamente um"},
		"two matchers":    {"routes:\n- {service: auth, prefix: /x, exact: /y}", "exatamente um"},
		"duplicate":       {"routes:\n- {service: auth, prefix: /x}\n- {service: media, prefix: /x}", "duplicada"},
		"dup regex":       {"routes:\n- {service: auth, regex: ^/x$}\n- {service: auth, regex: ^/x$}", "duplicada"},
		"bad regex":       {"routes:\n- {service: auth, regex: '^/x($'}", "regex inválida"},
		"unanchored":      {"routes:\n- {service: auth, regex: '/x/[0-9]+'}", "ancorada"},
		"relative path":   {"routes:\n- {service: auth, prefix: x}", "começar com /"},
		"unclean path":    {"routes:\n- {service: auth, exact: /a/../b}", "normalizado"},
		"unknown key":     {"routes:\n- {service: auth, prefx: /x}", "prefx"},
		"shadowed exact":  {"routes:\n- {service: employee, prefix: /f}\n- {service: media, exact: /f/1}", "inalcançável"},
		"shadowed by re":  {"routes:\n- {service: media, regex: '^/f/[^/]+$'}\n- {service: auth, exact: /f/1}", "inalcançável"},
		"shadowed prefix": {"routes:\n- {service: employee, prefix: /f}\n- {service: media, prefix: /f/x}", "inalcançável"},
		"not yaml":        {"routes: [", "yaml inválido"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse error = %v; want it to mention %q", err, c.want)
			}
		})
	}
}

func TestOrderMatters(t *testing.T) {
	// The regex placed after the prefix it overlaps is legal (it cannot be
	// proven unreachable) but loses every path to the prefix, which is
	// exactly why the real table lists media first.
	tbl, err := Parse([]byte("routes:\n- {service: employee, prefix: /funcionarios}\n- {service: media, regex: '^/funcionarios/[^/]+/foto$'}"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tbl.Match("/funcionarios/1/foto"); got != "employee" {
		t.Fatalf("first match should win, got %q", got)
	}
}

func TestRouteAccessors(t *testing.T) {
	tbl := realTable(t)
	r := tbl.Routes[0]
	if r.Kind() != "prefix" || r.Path() != "/auth" {
		t.Fatalf("first route = %s %s; want prefix /auth", r.Kind(), r.Path())
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope.yaml")); err == nil {
		t.Fatal("Load of a missing file should fail")
	}
}
