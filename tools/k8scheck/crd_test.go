package k8scheck

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// crdSource is where a custom resource's schema comes from: the CRD YAML
// inside a Go module, fetched from the module proxy by `go mod download`
// at the pinned version (the module cache keeps it afterwards). To
// update, change the version and run `make k8s-check`.
type crdSource struct {
	module, version, file, apiVersion string
}

// crds are the custom resources the chart can render.
var crds = map[string]crdSource{
	"ServiceMonitor": {"github.com/prometheus-operator/prometheus-operator", "v0.85.0",
		"example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml", "monitoring.coreos.com/v1"},
	"PrometheusRule": {"github.com/prometheus-operator/prometheus-operator", "v0.85.0",
		"example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml", "monitoring.coreos.com/v1"},
	"HTTPRoute": {"sigs.k8s.io/gateway-api", "v1.6.3",
		"config/crd/standard/gateway.networking.k8s.io_httproutes.yaml", "gateway.networking.k8s.io/v1"},
}

var (
	crdMu      sync.Mutex
	crdSchemas = map[string]*jsonschema.Schema{}
)

// crdSchema compiles the openAPIV3Schema of kind's CRD, strict: every
// object that lists its properties refuses others (as kubeconform -strict
// does), where the API server would silently drop them.
func crdSchema(t *testing.T, kind string) *jsonschema.Schema {
	t.Helper()
	crdMu.Lock()
	defer crdMu.Unlock()
	if s := crdSchemas[kind]; s != nil {
		return s
	}
	src, ok := crds[kind]
	if !ok {
		t.Fatalf("no CRD source for %s", kind)
	}
	data, err := os.ReadFile(filepath.Join(moduleDir(t, src.module, src.version), src.file))
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Spec struct {
			Group    string
			Versions []struct {
				Name   string
				Schema struct {
					OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
				}
			}
		}
	}
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatalf("%s: %v", src.file, err)
	}
	for _, v := range crd.Spec.Versions {
		if crd.Spec.Group+"/"+v.Name != src.apiVersion {
			continue
		}
		doc := strictObjects(jsonValue(t, v.Schema.OpenAPIV3Schema))
		c := jsonschema.NewCompiler()
		url := "crd:///" + kind + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("compiling the %s schema: %v", kind, err)
		}
		crdSchemas[kind] = s
		return s
	}
	t.Fatalf("%s: no version %s", src.file, src.apiVersion)
	return nil
}

// moduleDir downloads module@version through the module proxy (outside
// the workspace) and returns its directory in the module cache.
func moduleDir(t *testing.T, module, version string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	cmd.Dir = t.TempDir()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("go mod download %s@%s: %v\n%s%s", module, version, err, out.String(), errOut.String())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s@%s: %v %s", module, version, err, out.String())
	}
	return info.Dir
}

// jsonValue turns YAML-decoded values into the JSON types the schema
// compiler expects (float64 numbers, map[string]any).
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// strictObjects sets additionalProperties: false on every schema object
// with properties and no rule of its own for others.
func strictObjects(v any) any {
	switch m := v.(type) {
	case map[string]any:
		_, props := m["properties"]
		_, extra := m["additionalProperties"]
		_, keep := m["x-kubernetes-preserve-unknown-fields"]
		if props && !extra && !keep {
			m["additionalProperties"] = false
		}
		for _, x := range m {
			strictObjects(x)
		}
	case []any:
		for _, x := range m {
			strictObjects(x)
		}
	}
	return v
}

// validateCustom checks every object of the CRD kinds against its
// schema; it returns how many it checked per kind.
func validateCustom(t *testing.T, objs []obj) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for _, o := range objs {
		src, ok := crds[o.kind()]
		if !ok {
			continue
		}
		if got := str(o, "apiVersion"); got != src.apiVersion {
			t.Errorf("%s %s: apiVersion %s, want %s", o.kind(), o.name(), got, src.apiVersion)
		}
		if err := crdSchema(t, o.kind()).Validate(jsonValue(t, map[string]any(o))); err != nil {
			t.Errorf("%s %s does not match its CRD schema: %v", o.kind(), o.name(), err)
		}
		seen[o.kind()]++
	}
	return seen
}

// TestCustomResourcesMatchTheirCRDs renders every optional custom resource
// and validates it against the schema of its CRD; with the default values
// none is rendered.
func TestCustomResourcesMatchTheirCRDs(t *testing.T) {
	for name := range valuesFiles {
		got := validateCustom(t, render(t, name))
		if got["ServiceMonitor"]+got["PrometheusRule"] != 0 && name == "default" {
			t.Errorf("default values render monitoring resources: %v", got)
		}
	}
	all := render(t, "production", monitoringOn...)
	seen := validateCustom(t, all)
	for kind := range crds {
		if seen[kind] == 0 {
			t.Errorf("no %s rendered with %s", kind, strings.Join(monitoringOn, " "))
		}
	}
	// Breaking an object must fail its check (the strict schema catches
	// a misspelt key).
	for _, o := range byKind(all, "ServiceMonitor") {
		bad := obj{}
		for k, v := range o {
			bad[k] = v
		}
		bad["spec"] = map[string]any{"selector": map[string]any{}, "endpoint": []any{}}
		if err := crdSchema(t, "ServiceMonitor").Validate(jsonValue(t, map[string]any(bad))); err == nil {
			t.Error("a ServiceMonitor with a misspelt key passes its schema")
		}
	}
}

// monitoringOn turns on every optional custom resource.
var monitoringOn = []string{
	"metrics.serviceMonitor.enabled=true", "metrics.prometheusRule.enabled=true", "metrics.dashboard.enabled=true",
}

// TestDashboard: the Grafana dashboard the chart ships is JSON Grafana
// loads (panels with unique ids, each query on the templated Prometheus
// data source), put whole into its ConfigMap.
func TestDashboard(t *testing.T) {
	file, err := os.ReadFile(filepath.Join(repoRoot(t), "charts", "ponto", "dashboards", "ponto.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID    string
		Panels []struct {
			ID      int
			Title   string
			Targets []struct {
				Expr       string
				Datasource struct{ UID string }
			}
		}
	}
	if err := json.Unmarshal(file, &d); err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] || len(p.Targets) == 0 {
			t.Errorf("panel %d %q: repeated id or no query", p.ID, p.Title)
		}
		ids[p.ID] = true
		for _, q := range p.Targets {
			if q.Datasource.UID != "${datasource}" || !strings.Contains(q.Expr, `namespace="$namespace"`) {
				t.Errorf("panel %q: query %q not on the templated data source and namespace", p.Title, q.Expr)
			}
		}
	}
	if d.UID == "" || len(d.Panels) < 8 {
		t.Errorf("dashboard uid %q with %d panels", d.UID, len(d.Panels))
	}
	cm := find(render(t, "default", monitoringOn...), "ConfigMap", release+"-dashboard")
	if cm == nil || str(cm, "data", "ponto.json") != strings.TrimSuffix(string(file), "\n") {
		t.Error("the dashboard ConfigMap does not hold charts/ponto/dashboards/ponto.json")
	}
}

// TestPrometheusRuleAlerts: the rule holds the alerts the platform team
// relies on, each on a series the services export (the names the e2e
// scrape requires of them, tools/e2e/metrics_test.go).
func TestPrometheusRuleAlerts(t *testing.T) {
	want := map[string]string{
		"PontoErrosAltos":           "http_requests_total",
		"PontoLatenciaAlta":         "http_request_duration_seconds_bucket",
		"PontoPodReiniciando":       "kube_pod_container_status_restarts_total",
		"PontoCadeiaQuebrada":       "ponto_chain_broken_companies",
		"PontoCertificadoExpirando": "signing_certificate_days_left",
	}
	rules := byKind(render(t, "production", monitoringOn...), "PrometheusRule")
	if len(rules) != 1 {
		t.Fatalf("%d PrometheusRules rendered; want 1", len(rules))
	}
	got := map[string]string{}
	groups, _ := rules[0]["spec"].(map[string]any)["groups"].([]any)
	for _, g := range groups {
		rs, _ := g.(map[string]any)["rules"].([]any)
		for _, r := range rs {
			m := r.(map[string]any)
			alert, _ := m["alert"].(string)
			expr, _ := m["expr"].(string)
			got[alert] = expr
		}
	}
	for alert, series := range want {
		expr, ok := got[alert]
		switch {
		case !ok:
			t.Errorf("no alert %s", alert)
		case !strings.Contains(expr, series+"{"):
			t.Errorf("alert %s: %q does not read %s", alert, expr, series)
		case series != "kube_pod_container_status_restarts_total" && !strings.Contains(expr, `namespace="`+namespace+`"`):
			t.Errorf("alert %s: %q is not bound to the release's namespace", alert, expr)
		}
	}
}
