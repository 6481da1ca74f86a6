package k8scheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/ponto/ponto/tools/routes"
)

// Release name and namespace the chart is rendered with; the namespace is
// unusual on purpose, so that a hard-coded one stands out.
const (
	release   = "ponto"
	namespace = "ponto-check"
)

// valuesFiles are the values the chart is checked with ("" = values.yaml
// alone), by short name.
var valuesFiles = map[string]string{
	"default":    "",
	"dev":        "charts/ponto/values-dev.yaml",
	"production": "charts/ponto/values-production.yaml",
}

// obj is one decoded Kubernetes object.
type obj map[string]any

func (o obj) kind() string { return str(o, "kind") }
func (o obj) name() string { return str(o, "metadata", "name") }
func (o obj) component() string {
	return str(o, "metadata", "labels", "app.kubernetes.io/component")
}

// get walks maps and lists ("0", "1"... index lists); nil when missing.
func get(v any, path ...string) any {
	for _, p := range path {
		switch m := v.(type) {
		case obj:
			v = m[p]
		case map[string]any:
			v = m[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(m) {
				return nil
			}
			v = m[i]
		default:
			return nil
		}
	}
	return v
}

func str(v any, path ...string) string {
	s, _ := get(v, path...).(string)
	return s
}

func list(v any, path ...string) []any {
	l, _ := get(v, path...).([]any)
	return l
}

func mapAt(v any, path ...string) map[string]any {
	m, _ := get(v, path...).(map[string]any)
	return m
}

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error
)

// repoRoot is the directory holding go.work.
func repoRoot(t *testing.T) string {
	t.Helper()
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		for err == nil {
			if _, statErr := os.Stat(filepath.Join(dir, "go.work")); statErr == nil {
				rootDir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				err = errors.New("go.work not found above the working directory")
			}
			dir = parent
		}
		rootErr = err
	})
	if rootErr != nil {
		t.Fatal(rootErr)
	}
	return rootDir
}

// helmBin is bin/helm (make k8s-tools), else helm from PATH.
func helmBin(t *testing.T) string {
	t.Helper()
	local := filepath.Join(repoRoot(t), "bin", "helm")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if p, err := exec.LookPath("helm"); err == nil {
		return p
	}
	t.Fatal("helm not found in bin/ nor PATH: run `make k8s-tools`")
	return ""
}

var (
	renderMu    sync.Mutex
	renderCache = map[string][]obj{}
)

// render runs `helm template` on charts/ponto with the named values and any
// --set arguments (or flags, those starting with --), and decodes every
// object. Results without --set are
// cached.
func render(t *testing.T, values string, set ...string) []obj {
	t.Helper()
	file, ok := valuesFiles[values]
	if !ok {
		t.Fatalf("unknown values %q", values)
	}
	key := values + "\x00" + strings.Join(set, "\x00")
	renderMu.Lock()
	defer renderMu.Unlock()
	if objs, ok := renderCache[key]; ok {
		return objs
	}
	root := repoRoot(t)
	args := []string{"template", release, filepath.Join(root, "charts", "ponto"),
		"--namespace", namespace, "--kube-version", "1.33.6"}
	if file != "" {
		args = append(args, "-f", filepath.Join(root, file))
	}
	for _, s := range set {
		if strings.HasPrefix(s, "--") { // a flag, such as --api-versions=...
			args = append(args, s)
			continue
		}
		args = append(args, "--set", s)
	}
	cmd := exec.Command(helmBin(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	objs, err := decodeAll(out)
	if err != nil {
		t.Fatalf("decoding helm template output (%s values): %v", values, err)
	}
	renderCache[key] = objs
	return objs
}

func decodeAll(data []byte) ([]obj, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var objs []obj
	for {
		var o map[string]any
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		if o != nil {
			objs = append(objs, obj(o))
		}
	}
}

// byKind keeps the objects of one kind.
func byKind(objs []obj, kind string) []obj {
	var out []obj
	for _, o := range objs {
		if o.kind() == kind {
			out = append(out, o)
		}
	}
	return out
}

// find returns the object of that kind and name, or nil.
func find(objs []obj, kind, name string) obj {
	for _, o := range objs {
		if o.kind() == kind && o.name() == name {
			return o
		}
	}
	return nil
}

// serviceNames are the services, from the route table's package (the same
// list the gateway and the stack use).
func serviceNames() []string { return routes.Services }

// fullname is the name of a service's resources.
func fullname(service string) string { return release + "-" + service }

// podSpec returns the pod spec of a workload object, or nil.
func podSpec(o obj) map[string]any {
	switch o.kind() {
	case "Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet":
		return mapAt(o, "spec", "template", "spec")
	case "CronJob":
		return mapAt(o, "spec", "jobTemplate", "spec", "template", "spec")
	case "Pod":
		return mapAt(o, "spec")
	}
	return nil
}

// containers of a pod spec, init containers included.
func containers(spec map[string]any) []map[string]any {
	var out []map[string]any
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range list(spec, key) {
			if m, ok := c.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

var quantityRE = regexp.MustCompile(`^([0-9]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$`)

// memoryBytes parses a Kubernetes memory quantity (integer with an optional
// binary or decimal suffix), the forms the chart's schema allows.
func memoryBytes(q any) (int64, error) {
	s := fmt.Sprint(q)
	m := quantityRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("memory quantity %q not understood", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, err
	}
	mult := map[string]int64{"": 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40,
		"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[m[2]]
	return n * mult, nil
}

var goMemLimitRE = regexp.MustCompile(`^([0-9]+)(B|KiB|MiB|GiB|TiB)?$`)

// goMemLimitBytes parses GOMEMLIMIT as the Go runtime does (bytes with an
// optional B, KiB, MiB, GiB or TiB suffix).
func goMemLimitBytes(s string) (int64, error) {
	m := goMemLimitRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("GOMEMLIMIT %q not understood", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, err
	}
	mult := map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[m[2]]
	return n * mult, nil
}
