package k8scheck

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ponto/ponto/tools/stack"
)

// readByRuntime are variables a service reads outside its configuration
// struct, so its --help does not list them: the Go runtime's GOMEMLIMIT and
// GOGC, and the OpenTelemetry SDK's OTEL_* (pkg/telemetry).
func readByRuntime(name string) bool {
	return name == "GOMEMLIMIT" || name == "GOGC" || strings.HasPrefix(name, "OTEL_")
}

// podEnv is the environment a container gets: name → how it is set.
type podEnv map[string]envSource

type envSource struct {
	value    string // literal value (env value or ConfigMap data)
	secret   string // "<secret>/<key>" for a secretKeyRef
	optional bool   // an optional secretKeyRef may leave the variable unset
	other    bool   // another valueFrom (fieldRef, resourceFieldRef...)
}

// set reports whether the variable is reliably set to something.
func (e envSource) set() bool {
	switch {
	case e.secret != "":
		return !e.optional
	case e.other:
		return true
	}
	return e.value != ""
}

// containerEnv resolves a container's env and envFrom against the rendered
// objects. envFrom of anything not rendered (or of a Secret) cannot be
// checked, so it is an error.
func containerEnv(objs []obj, c map[string]any) (podEnv, error) {
	env := podEnv{}
	for _, from := range list(c, "envFrom") {
		cm := str(from, "configMapRef", "name")
		if cm == "" || str(from, "prefix") != "" {
			return nil, fmt.Errorf("envFrom %v: only a rendered ConfigMap without prefix can be checked", from)
		}
		o := find(objs, "ConfigMap", cm)
		if o == nil {
			return nil, fmt.Errorf("envFrom ConfigMap %q is not rendered by the chart", cm)
		}
		for k, v := range mapAt(o, "data") {
			env[k] = envSource{value: fmt.Sprint(v)}
		}
	}
	for _, e := range list(c, "env") {
		name := str(e, "name")
		switch {
		case get(e, "valueFrom", "secretKeyRef") != nil:
			opt, _ := get(e, "valueFrom", "secretKeyRef", "optional").(bool)
			env[name] = envSource{
				secret:   str(e, "valueFrom", "secretKeyRef", "name") + "/" + str(e, "valueFrom", "secretKeyRef", "key"),
				optional: opt,
			}
		case get(e, "valueFrom") != nil:
			env[name] = envSource{other: true}
		default:
			env[name] = envSource{value: str(e, "value")}
		}
	}
	return env, nil
}

// serviceContainers are the containers running a service's binary: its
// Deployment's and its migration Job's.
func serviceContainers(t *testing.T, objs []obj, service string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	if d := find(objs, "Deployment", fullname(service)); d != nil {
		for _, c := range containers(podSpec(d)) {
			if str(c, "name") == service {
				out["Deployment "+d.name()] = c
			}
		}
	}
	if j := find(objs, "Job", fullname(service)+"-migrate"); j != nil {
		for _, c := range containers(podSpec(j)) {
			out["Job "+j.name()+" container "+str(c, "name")] = c
		}
	}
	return out
}

// loopback reports whether a default points at the machine itself: right
// for `make run`, wrong in a pod, so the chart must override it.
func loopback(def string) bool {
	return strings.Contains(def, "127.0.0.1") || strings.Contains(def, "localhost") || strings.Contains(def, "[::1]")
}

// TestEnvMatchesServiceConfig: every variable the chart gives a service is
// one the service reads, every one it requires is given, and so is every
// one whose default points at loopback (a peer, a database...).
func TestEnvMatchesServiceConfig(t *testing.T) {
	cfgs := serviceConfigs(t)
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values)
			for _, svc := range serviceNames() {
				cfg := cfgs[svc]
				ctrs := serviceContainers(t, objs, svc)
				if len(ctrs) == 0 {
					t.Errorf("%s: no container found", svc)
				}
				for where, c := range ctrs {
					env, err := containerEnv(objs, c)
					if err != nil {
						t.Errorf("%s: %v", where, err)
						continue
					}
					for _, p := range envProblems(svc, where, cfg, env) {
						t.Error(p)
					}
				}
			}
		})
	}
}

// TestGOGCAsTheLocalStack: each service runs with the GOGC the local stack
// gives it (stack.GOGC; none: Go's default), so that make bench measures
// the services as deployed.
func TestGOGCAsTheLocalStack(t *testing.T) {
	eachServiceContainer(t, asTheLocalStack("GOGC", stack.GOGC))
}

// TestGOMEMLIMITAsTheLocalStack: with the chart's default values, each
// service runs with the GOMEMLIMIT the local stack gives it
// (stack.GOMEMLIMIT), so that make bench's soak sees the collector work as
// hard near the limit as in the pod. Other values files may size the pods
// otherwise.
func TestGOMEMLIMITAsTheLocalStack(t *testing.T) {
	serviceContainersWith(t, "default", asTheLocalStack("GOMEMLIMIT", stack.GOMEMLIMIT))
}

// asTheLocalStack checks that a service's container sets the runtime
// variable name as tools/stack does (want by service; "": not set).
func asTheLocalStack(name string, want map[string]string) func(t *testing.T, objs []obj, svc string, c map[string]any) {
	return func(t *testing.T, objs []obj, svc string, c map[string]any) {
		env, err := containerEnv(objs, c)
		if err != nil {
			t.Fatalf("%s: %v", svc, err)
		}
		if got := env[name].value; got != want[svc] {
			t.Errorf("%s: %s %q in the chart, %q in tools/stack", svc, name, got, want[svc])
		}
	}
}

// envProblems lists what is wrong with a container's environment for the
// service's configuration.
func envProblems(svc, where string, cfg serviceConfig, env podEnv) []string {
	var problems []string
	for _, name := range sortedKeys(env) {
		if _, ok := cfg[name]; !ok && !readByRuntime(name) {
			problems = append(problems, fmt.Sprintf("%s sets %s, which %s does not read (see `%s --help`)", where, name, svc, svc))
		}
	}
	for _, name := range sortedKeys(cfg) {
		v := cfg[name]
		got, given := env[name]
		switch {
		case v.Required && (!given || !got.set()):
			problems = append(problems, fmt.Sprintf("%s: %s requires %s, the chart does not set it", where, svc, name))
		case loopback(v.Default) && (!given || !got.set()):
			problems = append(problems, fmt.Sprintf("%s: %s defaults to %q (loopback), the chart must set it", where, name, v.Default))
		case given && loopback(got.value):
			problems = append(problems, fmt.Sprintf("%s: %s=%q points at loopback inside a pod", where, name, got.value))
		}
	}
	return problems
}

// TestDevSecretsAreRendered: with the dev values every Secret a container
// reads is part of the release, so `skaffold dev -p dev` needs nothing
// created by hand.
func TestDevSecretsAreRendered(t *testing.T) {
	objs := render(t, "dev")
	for _, o := range objs {
		for _, c := range containers(podSpec(o)) {
			for _, e := range list(c, "env") {
				ref := mapAt(e, "valueFrom", "secretKeyRef")
				if ref == nil {
					continue
				}
				name, key := str(ref, "name"), str(ref, "key")
				s := find(objs, "Secret", name)
				if s == nil {
					t.Errorf("%s %s: %s reads Secret %q, not rendered with the dev values", o.kind(), o.name(), str(e, "name"), name)
					continue
				}
				if get(s, "stringData", key) == nil && get(s, "data", key) == nil {
					t.Errorf("%s %s: Secret %q has no key %q", o.kind(), o.name(), name, key)
				}
			}
		}
		for _, v := range list(podSpec(o), "volumes") {
			if name := str(v, "secret", "secretName"); name != "" && find(objs, "Secret", name) == nil {
				t.Errorf("%s %s: volume Secret %q not rendered with the dev values", o.kind(), o.name(), name)
			}
		}
	}
}

func TestCheckEnvCatchesMistakes(t *testing.T) {
	cfg := serviceConfig{
		"DB_URL":            {Name: "DB_URL", Default: "xxxxxx:xxxxxx://postgres@127.0.0.1:5432/postgres"},
		"STRIPE_SECRET_KEY": {Name: "STRIPE_SECRET_KEY", Required: true},
		"LOG_LEVEL":         {Name: "LOG_LEVEL", Default: "info"},
	}
	cases := map[string]podEnv{
		"unknown variable": {"DB_URL": {secret: "db/url"}, "STRIPE_SECRET_KEY": {secret: "s/k"}, "STRIPE_SECERT": {value: "x"}},
		"required missing": {"DB_URL": {secret: "db/url"}},
		"required optional secret": {"DB_URL": {secret: "db/url"},
			"STRIPE_SECRET_KEY": {secret: "s/k", optional: true}},
		"loopback default left": {"STRIPE_SECRET_KEY": {secret: "s/k"}},
		"loopback value":        {"DB_URL": {value: "postgres://localhost/x"}, "STRIPE_SECRET_KEY": {secret: "s/k"}},
	}
	for name, env := range cases {
		if len(envProblems("svc", "test", cfg, env)) == 0 {
			t.Errorf("%s: not reported", name)
		}
	}
	good := podEnv{"DB_URL": {secret: "db/url"}, "STRIPE_SECRET_KEY": {secret: "s/k"},
		"GOMEMLIMIT": {value: "230MiB"}, "GOGC": {value: "400"}, "OTEL_EXPORTER_OTLP_ENDPOINT": {value: "http://collector:4318"}}
	if p := envProblems("svc", "test", cfg, good); len(p) > 0 {
		t.Errorf("a correct environment was reported: %v", p)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
