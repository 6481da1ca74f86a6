package k8scheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// skaffoldSchemaURL is where the schema comes from when
// ../shared/schemas/skaffold/v4beta14.json is absent.
const skaffoldSchemaURL = "https://raw.githubusercontent.com/GoogleContainerTools/skaffold/main/docs-v2/content/en/schemas/v4beta14.json"

// skaffoldDocs decodes every document of skaffold.yaml, as generic values
// (for the schema) and as objects (for the checks).
func skaffoldDocs(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "skaffold.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("skaffold.yaml: %v", err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		t.Fatal("skaffold.yaml: no document")
	}
	return docs
}

func skaffoldSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	file := filepath.Join(repoRoot(t), "..", "shared", "schemas", "skaffold", "v4beta14.json")
	c := jsonschema.NewCompiler()
	if _, err := os.Stat(file); err == nil {
		s, err := c.Compile(file)
		if err != nil {
			t.Fatalf("compiling %s: %v", file, err)
		}
		return s
	}
	t.Logf("%s absent: fetching %s", file, skaffoldSchemaURL)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, skaffoldSchemaURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no local Skaffold schema and fetching it failed: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("fetching %s: %s", skaffoldSchemaURL, resp.Status)
	}
	doc, err := jsonschema.UnmarshalJSON(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource(skaffoldSchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(skaffoldSchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// asJSONValue turns a decoded YAML document into the values the schema
// library validates (JSON numbers and all).
func asJSONValue(t *testing.T, doc any) any {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSkaffoldMatchesSchema(t *testing.T) {
	schema := skaffoldSchema(t)
	for i, doc := range skaffoldDocs(t) {
		if err := schema.Validate(asJSONValue(t, doc)); err != nil {
			t.Errorf("skaffold.yaml document %d (%s): %v", i+1, str(doc, "metadata", "name"), err)
		}
		if v := str(doc, "apiVersion"); v != "skaffold/v4beta14" {
			t.Errorf("skaffold.yaml document %d: apiVersion %q, want skaffold/v4beta14", i+1, v)
		}
	}
	// The schema must reject what Skaffold rejects, or the check is empty.
	bad := map[string]any{"apiVersion": "skaffold/v4beta14", "kind": "Config", "biuld": map[string]any{}}
	if schema.Validate(asJSONValue(t, bad)) == nil {
		t.Error("the schema accepts an unknown top-level key")
	}
}

// TestSkaffoldModules: one module per service building one image with the
// Dockerfile, each requiring the "platform" module that deploys the chart
// with every built image substituted; `-m <service>` selects that service's
// build and the deploy.
func TestSkaffoldModules(t *testing.T) {
	root := repoRoot(t)
	docs := skaffoldDocs(t)
	modules := map[string]map[string]any{}
	for _, d := range docs {
		modules[str(d, "metadata", "name")] = d
	}
	platform := modules["platform"]
	if platform == nil {
		t.Fatal(`no "platform" module`)
	}
	releases := list(platform, "deploy", "helm", "releases")
	if len(releases) != 1 || str(releases[0], "chartPath") != "charts/ponto" {
		t.Fatalf("platform: want one Helm release of charts/ponto, got %v", releases)
	}
	templates := mapAt(releases[0], "setValueTemplates")
	chartValues := chartDefaults(t)
	for _, svc := range serviceNames() {
		m := modules[svc]
		if m == nil {
			t.Errorf("no module named %s (skaffold dev -m %s)", svc, svc)
			continue
		}
		arts := moduleArtifacts(modules, svc)
		if len(arts) != 1 {
			t.Errorf("-m %s builds %d artifacts, want 1", svc, len(arts))
			continue
		}
		a := arts[0]
		wantImage := str(chartValues, "services", svc, "image", "repository")
		if str(a, "image") != wantImage {
			t.Errorf("%s: artifact image %q, the chart's default repository is %q", svc, str(a, "image"), wantImage)
		}
		if str(a, "docker", "buildArgs", "SERVICE") != svc {
			t.Errorf("%s: buildArgs.SERVICE is %q", svc, str(a, "docker", "buildArgs", "SERVICE"))
		}
		if ctx := str(a, "context"); ctx != "." {
			t.Errorf("%s: build context %q, want the repository root", svc, ctx)
		}
		if _, err := os.Stat(filepath.Join(root, str(a, "docker", "dockerfile"))); err != nil {
			t.Errorf("%s: dockerfile: %v", svc, err)
		}
		if !moduleDeploys(modules, svc) {
			t.Errorf("-m %s deploys nothing: it must require the platform module", svc)
		}
		key := "services." + svc + ".image.ref"
		if tpl, ok := templates[key].(string); !ok || !strings.Contains(tpl, "IMAGE_FULLY_QUALIFIED_"+sanitize(str(a, "image"))) {
			t.Errorf("platform: setValueTemplates[%s] = %v does not substitute the built %s image", key, templates[key], svc)
		}
	}
	for name := range modules {
		if name != "platform" && !isService(name) {
			t.Errorf("unexpected module %q", name)
		}
	}
	checkDevProfile(t, platform)
}

// moduleArtifacts gathers the artifacts of a module and of the modules it
// requires (what `skaffold -m <name>` builds).
func moduleArtifacts(modules map[string]map[string]any, name string) []any {
	var out []any
	for _, m := range moduleClosure(modules, name) {
		out = append(out, list(modules[m], "build", "artifacts")...)
	}
	return out
}

func moduleDeploys(modules map[string]map[string]any, name string) bool {
	for _, m := range moduleClosure(modules, name) {
		if len(list(modules[m], "deploy", "helm", "releases")) > 0 {
			return true
		}
	}
	return false
}

func moduleClosure(modules map[string]map[string]any, name string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] || modules[n] == nil {
			return
		}
		seen[n] = true
		for _, r := range list(modules[n], "requires") {
			if str(r, "path") != "" || get(r, "git") != nil {
				continue // another file: not used here
			}
			for _, c := range list(r, "configs") {
				walk(fmt.Sprint(c))
			}
		}
	}
	walk(name)
	return sortedKeys(seen)
}

func checkDevProfile(t *testing.T, platform map[string]any) {
	t.Helper()
	for _, p := range list(platform, "profiles") {
		if str(p, "name") != "dev" {
			continue
		}
		var files []string
		for _, patch := range list(p, "patches") {
			files = append(files, str(patch, "value"))
		}
		if !strings.Contains(strings.Join(files, ","), "charts/ponto/values-dev.yaml") {
			t.Errorf("dev profile does not add charts/ponto/values-dev.yaml: %v", files)
		}
		if len(list(p, "portForward")) == 0 {
			t.Error("dev profile has no portForward")
		}
		return
	}
	t.Error("platform has no dev profile")
}

// sanitize is Skaffold's artifact name in template keys: / - . : → _.
func sanitize(image string) string {
	return strings.NewReplacer("/", "_", "-", "_", ".", "_", ":", "_").Replace(image)
}

func chartDefaults(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "charts", "ponto", "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSkaffoldOneModuleImages: expanding the platform's setValueTemplates
// as Skaffold does after `skaffold dev -m employee` (only employee built)
// and rendering the chart with them gives employee the built image and the
// other services their fallback image.
func TestSkaffoldOneModuleImages(t *testing.T) {
	docs := skaffoldDocs(t)
	var templates map[string]any
	for _, d := range docs {
		if str(d, "metadata", "name") == "platform" {
			templates = mapAt(d, "deploy", "helm", "releases", "0", "setValueTemplates")
		}
	}
	built := "ponto/employee:abc123@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	env := map[string]string{"IMAGE_FULLY_QUALIFIED_ponto_employee": built}
	var set []string
	for _, key := range sortedKeys(templates) {
		tmpl, err := template.New(key).Parse(fmt.Sprint(templates[key]))
		if err != nil {
			t.Fatalf("setValueTemplates[%s]: %v", key, err)
		}
		var b strings.Builder
		if err := tmpl.Execute(&b, env); err != nil {
			t.Fatalf("setValueTemplates[%s]: %v", key, err)
		}
		if strings.Contains(b.String(), "<no value>") {
			t.Errorf("setValueTemplates[%s] gives %q when that image is not built", key, b.String())
		}
		set = append(set, key+"="+b.String())
	}
	objs := render(t, "dev", set...)
	for _, svc := range serviceNames() {
		c := serviceContainers(t, objs, svc)["Deployment "+fullname(svc)]
		want := "ponto/" + svc + ":dev"
		if svc == "employee" {
			want = built
		}
		if got := str(c, "image"); got != want {
			t.Errorf("%s: image %q, want %q", svc, got, want)
		}
	}
}
