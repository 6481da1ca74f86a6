package k8scheck

import (
	"regexp"
	"strings"
	"testing"
)

// routeMatch is one path match of a rendered HTTPRoute.
type routeMatch struct {
	Type, Value, Service string
}

// httpRouteMatches reads every HTTPRoute: each sends its matches to the
// public port of one service, attached to the values' Gateway.
func httpRouteMatches(t *testing.T, objs []obj) []routeMatch {
	t.Helper()
	var out []routeMatch
	for _, r := range byKind(objs, "HTTPRoute") {
		if len(list(r, "spec", "parentRefs")) == 0 {
			t.Errorf("HTTPRoute %s attaches to no Gateway", r.name())
		}
		for _, rule := range list(r, "spec", "rules") {
			backends := list(rule, "backendRefs")
			if len(backends) != 1 || get(backends[0], "port") != 8080 {
				t.Errorf("HTTPRoute %s: want one backend on the public port, got %v", r.name(), backends)
				continue
			}
			svc := str(backends[0], "name")
			if svc != r.name() {
				t.Errorf("HTTPRoute %s sends to %s", r.name(), svc)
			}
			for _, m := range list(rule, "matches") {
				out = append(out, routeMatch{str(m, "path", "type"), str(m, "path", "value"), svc})
			}
		}
	}
	return out
}

// matchGateway picks the backend a Gateway picks for urlPath: Gateway API
// ranks Exact first and then the longest PathPrefix, and leaves
// RegularExpression to the implementation; this follows the order of
// Envoy Gateway, NGINX Gateway Fabric, Contour and kgateway (Exact,
// RegularExpression, PathPrefix), which values.yaml documents.
func matchGateway(t *testing.T, ms []routeMatch, urlPath string) string {
	t.Helper()
	best, bestRank, bestLen := "", 0, -1
	for _, m := range ms {
		rank, n := 0, len(m.Value)
		switch m.Type {
		case "Exact":
			if urlPath == m.Value {
				rank = 3
			}
		case "RegularExpression":
			if regexp.MustCompile("^(?:" + m.Value + ")$").MatchString(urlPath) {
				rank = 2
			}
		case "PathPrefix":
			p := strings.TrimSuffix(m.Value, "/")
			if urlPath == p || strings.HasPrefix(urlPath, p+"/") || m.Value == "/" {
				rank = 1
			}
		default:
			t.Errorf("match %+v: unknown type", m)
		}
		if rank > bestRank || (rank == bestRank && rank > 0 && n > bestLen) {
			best, bestRank, bestLen = m.Service, rank, n
		}
	}
	return best
}

// TestHTTPRoutesHaveEveryRoute: the HTTPRoutes hold every route of
// routes.yaml, each to its service, for every values file, and a Gateway
// sends sample paths where the route table (first match wins) does.
func TestHTTPRoutesHaveEveryRoute(t *testing.T) {
	table := routeTable(t)
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			got := httpRouteMatches(t, render(t, values))
			if len(got) != len(table.Routes) {
				t.Errorf("HTTPRoutes have %d matches, routes.yaml %d routes", len(got), len(table.Routes))
			}
			want := map[routeMatch]bool{}
			for _, r := range table.Routes {
				m := routeMatch{Service: fullname(r.Service)}
				switch r.Kind() {
				case "prefix":
					m.Type, m.Value = "PathPrefix", r.Prefix
				case "exact":
					m.Type, m.Value = "Exact", r.Exact
				case "regex":
					m.Type, m.Value = "RegularExpression", r.Regex
				}
				want[m] = true
			}
			for _, m := range got {
				if !want[m] {
					t.Errorf("HTTPRoute match %+v is no route of routes.yaml", m)
				}
			}
			samples := []string{
				"/auth/login", "/auth/refresh-token", "/.well-known/jwks.json", "/empresas", "/empresas/me",
				"/admin/empresas", "/webhooks/stripe", "/funcionarios", "/funcionarios/42", "/funcionarios/42/foto",
				"/departamentos/7/0/funcionarios", "/escalatrabalhos/3", "/registropontos", "/registropontos/solicitar/9",
			}
			for _, s := range samples {
				wantSvc, ok := table.Match(s)
				if !ok {
					t.Errorf("%s: no route in routes.yaml", s)
					continue
				}
				if g := matchGateway(t, got, s); g != fullname(wantSvc) {
					t.Errorf("%s: a Gateway sends it to %q, routes.yaml to %s", s, g, wantSvc)
				}
			}
		})
	}
	if n := len(byKind(render(t, "default", "gateway.enabled=false"), "HTTPRoute")); n != 0 {
		t.Errorf("gateway.enabled=false renders %d HTTPRoutes", n)
	}
}

// TestHTTPRouteRegexesAreAnchored: a RegularExpression match keeps its ^
// and $, so that it takes whole paths only, both where the implementation
// matches the whole path (Envoy) and where it finds the regex anywhere in
// it (Traefik, NGINX: Go's and PCRE's plain search).
func TestHTTPRouteRegexesAreAnchored(t *testing.T) {
	var regexes []routeMatch
	for _, m := range httpRouteMatches(t, render(t, "default")) {
		if m.Type == "RegularExpression" {
			regexes = append(regexes, m)
		}
	}
	if len(regexes) == 0 {
		t.Fatal("no RegularExpression match rendered: the photo route is gone")
	}
	for _, m := range regexes {
		if !strings.HasPrefix(m.Value, "^") || !strings.HasSuffix(m.Value, "$") {
			t.Errorf("%s: regex %q is not anchored with ^ and $", m.Service, m.Value)
		}
	}
	photo := fullname("media")
	tests := []struct {
		path string
		want bool
	}{
		{"/funcionarios/1/foto", true},
		{"/funcionarios/abc/foto", true},
		{"/funcionarios/1/foto/x", false},
		{"/x/funcionarios/1/foto", false},
		{"/funcionarios/1/2/foto", false},
		{"/funcionarios/1/fotos", false},
	}
	for _, tt := range tests {
		var searched, whole bool
		for _, m := range regexes {
			if m.Service != photo {
				continue
			}
			re := regexp.MustCompile(m.Value)
			searched = searched || re.MatchString(tt.path)
			whole = whole || regexp.MustCompile("^(?:"+m.Value+")$").MatchString(tt.path)
		}
		if searched != tt.want || whole != tt.want {
			t.Errorf("%s: photo route matches by search %v, as a whole %v; want %v", tt.path, searched, whole, tt.want)
		}
	}
}
