// Package routes loads the public route table (charts/ponto/routes.yaml):
// the one list of which service answers which public path. The local
// gateway routes with it and the Helm chart renders the Ingress from it, so
// the two can never disagree.
package routes

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DefaultFile is where the table lives, relative to the repository root.
const DefaultFile = "charts/ponto/routes.yaml"

// Services are the services a route may name, in the order the stack
// starts them.
var Services = []string{"auth", "company-billing", "employee", "timekeeping", "media", "web"}

// Route is one entry: a service and exactly one of Prefix, Exact or Regex.
type Route struct {
	Service string `yaml:"service" json:"service"`
	// Prefix has Ingress "Prefix" semantics: it matches the path itself or
	// the path followed by "/...", element by element.
	Prefix string `yaml:"prefix,omitempty" json:"prefix,omitempty"`
	// Exact matches that path only.
	Exact string `yaml:"exact,omitempty" json:"exact,omitempty"`
	// Regex is an RE2 expression anchored with ^ and $, so it means the same
	// to the gateway and to the Ingress controller.
	Regex string `yaml:"regex,omitempty" json:"regex,omitempty"`

	re *regexp.Regexp
}

// Table is the ordered list of routes; the first match wins.
type Table struct {
	Routes []Route `yaml:"routes" json:"routes"`
}

// Load reads and validates the table at file.
func Load(file string) (*Table, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("rotas: %w", err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("rotas: %s: %w", file, err)
	}
	return t, nil
}

// Parse decodes and validates a table. Unknown keys are rejected so that a
// misspelt matcher ("prefx") fails instead of silently matching nothing.
func Parse(data []byte) (*Table, error) {
	var t Table
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("yaml inválido: %w", err)
	}
	if err := t.compile(); err != nil {
		return nil, err
	}
	return &t, nil
}

// Match returns the service of the first route matching urlPath.
func (t *Table) Match(urlPath string) (service string, ok bool) {
	for i := range t.Routes {
		if t.Routes[i].Matches(urlPath) {
			return t.Routes[i].Service, true
		}
	}
	return "", false
}

// ServiceNames lists the services the table routes to, each once, in
// table order.
func (t *Table) ServiceNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range t.Routes {
		if !seen[r.Service] {
			seen[r.Service] = true
			names = append(names, r.Service)
		}
	}
	return names
}

// Matches reports whether the route matches urlPath.
func (r *Route) Matches(urlPath string) bool {
	switch {
	case r.Prefix != "":
		return prefixMatch(r.Prefix, urlPath)
	case r.Exact != "":
		return urlPath == r.Exact
	case r.re != nil:
		return r.re.MatchString(urlPath)
	}
	return false
}

// Kind is "prefix", "exact" or "regex".
func (r *Route) Kind() string {
	kind, _ := r.matcher()
	return kind
}

// Path is the route's prefix, exact path or expression.
func (r *Route) Path() string {
	_, p := r.matcher()
	return p
}

func (r *Route) matcher() (kind, value string) {
	switch {
	case r.Prefix != "":
		return "prefix", r.Prefix
	case r.Exact != "":
		return "exact", r.Exact
	case r.Regex != "":
		return "regex", r.Regex
	}
	return "", ""
}

// prefixMatch follows the Ingress rule: "/a/b" matches "/a/b" and
// "/a/b/c" but not "/a/bc"; a trailing slash on the prefix is ignored.
func prefixMatch(prefix, urlPath string) bool {
	p := strings.TrimSuffix(prefix, "/")
	if p == "" {
		return strings.HasPrefix(urlPath, "/")
	}
	return urlPath == p || strings.HasPrefix(urlPath, p+"/")
}

func (t *Table) compile() error {
	if len(t.Routes) == 0 {
		return errors.New("nenhuma rota definida")
	}
	var errs []error
	for i := range t.Routes {
		if err := t.compileRoute(i); err != nil {
			errs = append(errs, fmt.Errorf("rota %d (%s %s): %w", i+1, t.Routes[i].Service, t.Routes[i].Path(), err))
		}
	}
	return errors.Join(errs...)
}

func (t *Table) compileRoute(i int) error {
	r := &t.Routes[i]
	if err := checkService(r.Service); err != nil {
		return err
	}
	if err := r.checkMatcher(); err != nil {
		return err
	}
	return t.checkReachable(i)
}

func checkService(name string) error {
	if name == "" {
		return errors.New("service vazio")
	}
	for _, s := range Services {
		if s == name {
			return nil
		}
	}
	return fmt.Errorf("serviço desconhecido %q (conhecidos: %s)", name, strings.Join(Services, ", "))
}

func (r *Route) checkMatcher() error {
	n := 0
	for _, v := range []string{r.Prefix, r.Exact, r.Regex} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("precisa de exatamente um de prefix, exact ou regex (tem %d)", n)
	}
	switch {
	case r.Regex != "":
		return r.compileRegex()
	default:
		return checkPath(r.Path())
	}
}

// checkPath wants clean absolute paths, so that the gateway and the Ingress
// controller (which normalises paths) compare the same strings.
func checkPath(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("caminho %q deve começar com /", p)
	}
	if p != "/" && path.Clean(p) != strings.TrimSuffix(p, "/") {
		return fmt.Errorf("caminho %q não está normalizado", p)
	}
	return nil
}

func (r *Route) compileRegex() error {
	if !strings.HasPrefix(r.Regex, "^") || !strings.HasSuffix(r.Regex, "$") {
		return fmt.Errorf("regex %q deve ser ancorada com ^ e $", r.Regex)
	}
	re, err := regexp.Compile(r.Regex)
	if err != nil {
		return fmt.Errorf("regex inválida: %w", err)
	}
	r.re = re
	return nil
}

// checkReachable rejects duplicates and entries an earlier one fully
// shadows: an exact path something earlier matches, or a prefix inside an
// earlier prefix. Either is an ordering mistake that would silently send
// traffic to the wrong service.
func (t *Table) checkReachable(i int) error {
	r := &t.Routes[i]
	for j := range i {
		prev := &t.Routes[j]
		if prev.Kind() == r.Kind() && prev.Path() == r.Path() {
			return fmt.Errorf("duplicada (igual à rota %d)", j+1)
		}
		if prev.Kind() == "" {
			continue // invalid itself, already reported
		}
		if shadows(prev, r) {
			return fmt.Errorf("inalcançável: a rota %d (%s %s) vem antes e já a cobre", j+1, prev.Kind(), prev.Path())
		}
	}
	return nil
}

func shadows(prev, r *Route) bool {
	switch {
	case r.Exact != "":
		return prev.Matches(r.Exact)
	case r.Prefix != "" && prev.Prefix != "":
		return prefixMatch(prev.Prefix, strings.TrimSuffix(r.Prefix, "/"))
	}
	return false
}
