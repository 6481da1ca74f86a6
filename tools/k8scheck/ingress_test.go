package k8scheck

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ponto/ponto/tools/routes"
)

// ingressOn renders the Ingress, off by default (the Gateway API routes
// are the default way in).
const ingressOn = "ingress.enabled=true"

// ingressPath is one path of the rendered Ingress.
type ingressPath struct {
	Path, Type, Service string
}

func ingressPaths(t *testing.T, objs []obj) []ingressPath {
	t.Helper()
	ings := byKind(objs, "Ingress")
	if len(ings) != 1 {
		t.Fatalf("want one Ingress, got %d", len(ings))
	}
	rules := list(ings[0], "spec", "rules")
	if len(rules) != 1 {
		t.Fatalf("want one Ingress rule (one host), got %d", len(rules))
	}
	var paths []ingressPath
	for _, p := range list(rules[0], "http", "paths") {
		paths = append(paths, ingressPath{
			Path:    str(p, "path"),
			Type:    str(p, "pathType"),
			Service: str(p, "backend", "service", "name"),
		})
		if port := str(p, "backend", "service", "port", "name"); port != "http" {
			t.Errorf("path %s goes to port %q, want the public port (http)", str(p, "path"), port)
		}
	}
	return paths
}

func routeTable(t *testing.T) *routes.Table {
	t.Helper()
	table, err := routes.Load(filepath.Join(repoRoot(t), routes.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// want is the Ingress path a route becomes.
func want(r routes.Route) ingressPath {
	p := ingressPath{Service: fullname(r.Service)}
	switch r.Kind() {
	case "prefix":
		p.Path, p.Type = r.Prefix, "Prefix"
	case "exact":
		p.Path, p.Type = r.Exact, "Exact"
	case "regex":
		// Kubernetes wants paths to start with "/"; ingress-nginx anchors
		// regex paths at the start itself.
		p.Path, p.Type = strings.TrimPrefix(r.Regex, "^"), "ImplementationSpecific"
	}
	return p
}

// TestIngressHasEveryRoute: the Ingress is routes.yaml, path for path, in
// the table's order, for every values file.
func TestIngressHasEveryRoute(t *testing.T) {
	table := routeTable(t)
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			got := ingressPaths(t, render(t, values, ingressOn))
			if len(got) != len(table.Routes) {
				t.Errorf("Ingress has %d paths, routes.yaml %d routes", len(got), len(table.Routes))
			}
			for i, r := range table.Routes {
				if i >= len(got) {
					break
				}
				if w := want(r); got[i] != w {
					t.Errorf("path %d: got %+v, want %+v (route %s %s → %s)", i, got[i], w, r.Kind(), r.Path(), r.Service)
				}
			}
			for _, p := range got {
				if !strings.HasPrefix(p.Path, "/") {
					t.Errorf("path %q does not start with / (rejected by the API server)", p.Path)
				}
			}
		})
	}
}

// TestIngressPhotoRouteBeforeEmployee: the photo routes reach media, the
// rest of /funcionarios employee, reading the Ingress in order as the
// gateway reads the table, and agreeing with the table on sample paths.
func TestIngressPhotoRouteBeforeEmployee(t *testing.T) {
	table := routeTable(t)
	paths := ingressPaths(t, render(t, "production", ingressOn))
	photo, funcionarios := -1, -1
	for i, p := range paths {
		if p.Service == fullname("media") && strings.HasPrefix(p.Path, "/funcionarios/") {
			photo = i
		}
		if p.Path == "/funcionarios" && p.Type == "Prefix" {
			funcionarios = i
		}
	}
	if photo < 0 || funcionarios < 0 || photo > funcionarios {
		t.Fatalf("media's photo path (index %d) must come before employee's /funcionarios (index %d)", photo, funcionarios)
	}
	samples := []string{
		"/auth/login", "/auth/login/funcionario/codigo", "/auth/refresh-token", "/.well-known/jwks.json",
		"/empresas", "/empresas/me", "/admin/empresas", "/webhooks/stripe",
		"/funcionarios", "/funcionarios/42", "/funcionarios/42/foto", "/funcionarios/abc/foto",
		"/departamentos", "/departamentos/7/0/funcionarios", "/escalatrabalhos/3",
		"/registropontos", "/registropontos/solicitar/9", "/registropontos/departamento/vendas",
	}
	for _, s := range samples {
		wantSvc, ok := table.Match(s)
		if !ok {
			t.Errorf("%s: no route in routes.yaml", s)
			continue
		}
		got, err := matchIngress(paths, s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if got != fullname(wantSvc) {
			t.Errorf("%s: the Ingress sends it to %s, routes.yaml to %s", s, got, wantSvc)
		}
	}
	if got, _ := matchIngress(paths, "/funcionarios/42/foto"); got != fullname("media") {
		t.Errorf("/funcionarios/42/foto goes to %s, want media", got)
	}
}

// matchIngress returns the backend of the first Ingress path matching
// urlPath (Prefix element-wise, Exact, ImplementationSpecific as an
// anchored regex).
func matchIngress(paths []ingressPath, urlPath string) (string, error) {
	for _, p := range paths {
		switch p.Type {
		case "Exact":
			if urlPath == p.Path {
				return p.Service, nil
			}
		case "Prefix":
			prefix := strings.TrimSuffix(p.Path, "/")
			if urlPath == prefix || strings.HasPrefix(urlPath, prefix+"/") {
				return p.Service, nil
			}
		case "ImplementationSpecific":
			re, err := regexp.Compile("^" + p.Path)
			if err != nil {
				return "", fmt.Errorf("path %q: %w", p.Path, err)
			}
			if re.MatchString(urlPath) {
				return p.Service, nil
			}
		default:
			return "", fmt.Errorf("path %q: unknown pathType %q", p.Path, p.Type)
		}
	}
	return "", fmt.Errorf("no Ingress path matches")
}
