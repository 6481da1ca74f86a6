package k8scheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// apiRoute is one entry of WEB_API_ROUTES.
type apiRoute struct {
	Prefix string `json:"prefix,omitempty"`
	Exact  string `json:"exact,omitempty"`
	Regex  string `json:"regex,omitempty"`
	URL    string `json:"url"`
}

// webAPIRoutes decodes the WEB_API_ROUTES of svc's ConfigMap; nil when
// unset.
func webAPIRoutes(t *testing.T, objs []obj, svc string) []apiRoute {
	t.Helper()
	raw, ok := mapAt(find(objs, "ConfigMap", fullname(svc)), "data")["WEB_API_ROUTES"]
	if !ok {
		return nil
	}
	var out []apiRoute
	if err := json.Unmarshal([]byte(fmt.Sprint(raw)), &out); err != nil {
		t.Fatalf("%s: WEB_API_ROUTES %v: %v", svc, raw, err)
	}
	return out
}

// apiCallers: for each service, the services whose WEB_API_ROUTES send
// paths to its public port (the Service's, by name).
func apiCallers(t *testing.T, objs []obj) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, caller := range serviceNames() {
		for _, r := range webAPIRoutes(t, objs, caller) {
			for _, callee := range serviceNames() {
				if r.URL == fmt.Sprintf("http://%s:8080", fullname(callee)) {
					out[callee] = union(out[callee], []string{caller})
				}
			}
		}
	}
	return out
}

// union is the sorted union of a and b, without repeats.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestWebCallsTheServicesDirectly: for every values file, web's
// WEB_API_ROUTES is routes.yaml in its order, the web routes left out,
// each to its service's in-cluster Service; no Gateway's Service name is
// assumed (finding 2 of issue 41: web's readiness fetched ponto-gateway).
func TestWebCallsTheServicesDirectly(t *testing.T) {
	table := routeTable(t)
	var want []apiRoute
	for _, r := range table.Routes {
		if r.Service == "web" {
			continue
		}
		want = append(want, apiRoute{Prefix: r.Prefix, Exact: r.Exact, Regex: r.Regex,
			URL: fmt.Sprintf("http://%s:8080", fullname(r.Service))})
	}
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values)
			if diff := cmp.Diff(want, webAPIRoutes(t, objs, "web")); diff != "" {
				t.Errorf("web's WEB_API_ROUTES (-want +got):\n%s", diff)
			}
			if u := fmt.Sprint(mapAt(find(objs, "ConfigMap", fullname("web")), "data")["WEB_API_URL"]); strings.Contains(u, "gateway") {
				t.Errorf("web's WEB_API_URL=%v assumes a Gateway's Service name", u)
			}
		})
	}
	objs := render(t, "default", "services.web.apiRoutes=false", "services.web.env.WEB_API_URL=https://ponto.example.com")
	if got := webAPIRoutes(t, objs, "web"); got != nil {
		t.Errorf("apiRoutes=false still sets WEB_API_ROUTES: %v", got)
	}
	if got := apiCallers(t, objs); len(got) != 0 {
		t.Errorf("apiRoutes=false: services still admitting web directly: %v", got)
	}
}
