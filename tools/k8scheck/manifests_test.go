package k8scheck

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// perServiceKinds are the objects every service has exactly one of.
var perServiceKinds = []string{
	"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget",
	"NetworkPolicy", "ServiceAccount", "ConfigMap",
}

// withMetricsAPI renders as for a cluster serving the metrics API
// (metrics-server), where every values file has its HPAs.
const withMetricsAPI = "--api-versions=metrics.k8s.io/v1beta1"

func TestOneOfEachPerService(t *testing.T) {
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values, withMetricsAPI)
			for _, svc := range serviceNames() {
				for _, kind := range perServiceKinds {
					var names []string
					for _, o := range byKind(objs, kind) {
						if o.component() == svc {
							names = append(names, o.name())
						}
					}
					if len(names) != 1 || names[0] != fullname(svc) {
						t.Errorf("%s: want one %s named %s, got %v", svc, kind, fullname(svc), names)
					}
				}
				checkWiring(t, objs, svc)
			}
		})
	}
}

// checkWiring: the Service, PDB and NetworkPolicy select the Deployment's
// pods (and no other component's), the HPA scales it, the Service exposes
// both ports.
func checkWiring(t *testing.T, objs []obj, svc string) {
	t.Helper()
	name := fullname(svc)
	dep := find(objs, "Deployment", name)
	if dep == nil {
		return
	}
	podLabels := mapAt(dep, "spec", "template", "metadata", "labels")
	selector := mapAt(dep, "spec", "selector", "matchLabels")
	if !subset(selector, podLabels) {
		t.Errorf("%s: Deployment selector %v does not match its pod labels %v", svc, selector, podLabels)
	}
	if selector["app.kubernetes.io/component"] != svc {
		t.Errorf("%s: Deployment selector %v lacks app.kubernetes.io/component=%s", svc, selector, svc)
	}
	selectors := map[string]map[string]any{
		"Service":             mapAt(find(objs, "Service", name), "spec", "selector"),
		"PodDisruptionBudget": mapAt(find(objs, "PodDisruptionBudget", name), "spec", "selector", "matchLabels"),
		"NetworkPolicy":       mapAt(find(objs, "NetworkPolicy", name), "spec", "podSelector", "matchLabels"),
	}
	for kind, sel := range selectors {
		if !reflect.DeepEqual(sel, selector) {
			t.Errorf("%s: %s selects %v, the Deployment's pods are %v", svc, kind, sel, selector)
		}
	}
	hpa := find(objs, "HorizontalPodAutoscaler", name)
	if target := mapAt(hpa, "spec", "scaleTargetRef"); str(target, "kind") != "Deployment" || str(target, "name") != name {
		t.Errorf("%s: HPA scales %v, want Deployment %s", svc, target, name)
	}
	if get(dep, "spec", "replicas") != nil {
		t.Errorf("%s: Deployment sets replicas although an HPA scales it", svc)
	}
	var ports []string
	for _, p := range list(find(objs, "Service", name), "spec", "ports") {
		ports = append(ports, str(p, "name")+"→"+fmt.Sprint(get(p, "targetPort")))
	}
	if strings.Join(ports, ",") != "http→http,internal→internal" {
		t.Errorf("%s: Service ports %v, want the public (http) and internal ports", svc, ports)
	}
	if sa := str(podSpec(dep), "serviceAccountName"); sa != name {
		t.Errorf("%s: pods run as ServiceAccount %q, want %s", svc, sa, name)
	}
}

func subset(small, big map[string]any) bool {
	if len(small) == 0 {
		return false
	}
	for k, v := range small {
		if big[k] != v {
			return false
		}
	}
	return true
}

// TestEveryContainerIsHardened: requests and limits, the restricted
// security context and a writable /tmp for every container; liveness and
// readiness probes for every long-running one; GOMEMLIMIT from the memory
// limit for every ponto binary.
func TestEveryContainerIsHardened(t *testing.T) {
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values)
			workloads := 0
			for _, o := range objs {
				spec := podSpec(o)
				if spec == nil {
					continue
				}
				workloads++
				where := o.kind() + " " + o.name()
				longRunning := o.kind() != "Job" && o.kind() != "CronJob"
				ponto := isPontoBinary(o)
				for _, c := range containers(spec) {
					for _, p := range containerProblems(spec, c, longRunning, ponto) {
						t.Errorf("%s container %s: %s", where, str(c, "name"), p)
					}
				}
			}
			if workloads == 0 {
				t.Fatal("no workload rendered")
			}
		})
	}
}

// isPontoBinary: the workloads running a ponto service image (the
// services and their migrations), as opposed to development dependencies.
func isPontoBinary(o obj) bool {
	c := o.component()
	for _, s := range serviceNames() {
		if c == s || c == s+"-migrate" {
			return true
		}
	}
	return false
}

func containerProblems(spec, c map[string]any, longRunning, ponto bool) []string {
	var problems []string
	for _, r := range []string{"requests", "limits"} {
		for _, res := range []string{"cpu", "memory", "ephemeral-storage"} {
			if get(c, "resources", r, res) == nil {
				problems = append(problems, "no resources."+r+"."+res)
			}
		}
	}
	if longRunning {
		for _, probe := range []string{"livenessProbe", "readinessProbe"} {
			if get(c, probe) == nil {
				problems = append(problems, "no "+probe)
			}
		}
	}
	problems = append(problems, securityProblems(spec, c)...)
	if !mountsTmp(spec, c) {
		problems = append(problems, "no emptyDir mounted at /tmp (the root filesystem is read-only)")
	}
	if ponto {
		problems = append(problems, goMemLimitProblems(c)...)
	}
	return problems
}

// securityProblems checks the restricted Pod Security Standard items the
// issue names, allowing each to be set on the pod or the container where
// Kubernetes allows both.
func securityProblems(spec, c map[string]any) []string {
	var problems []string
	sc := mapAt(c, "securityContext")
	psc := mapAt(spec, "securityContext")
	either := func(key string) any {
		if v := get(sc, key); v != nil {
			return v
		}
		return get(psc, key)
	}
	if either("runAsNonRoot") != true {
		problems = append(problems, "runAsNonRoot is not true")
	}
	if uid, ok := either("runAsUser").(int); ok && uid == 0 {
		problems = append(problems, "runAsUser is 0")
	}
	if get(sc, "readOnlyRootFilesystem") != true {
		problems = append(problems, "readOnlyRootFilesystem is not true")
	}
	if get(sc, "allowPrivilegeEscalation") != false {
		problems = append(problems, "allowPrivilegeEscalation is not false")
	}
	if get(sc, "privileged") == true {
		problems = append(problems, "privileged")
	}
	drop := list(sc, "capabilities", "drop")
	if len(drop) != 1 || drop[0] != "ALL" {
		problems = append(problems, fmt.Sprintf("capabilities.drop is %v, want [ALL]", drop))
	}
	if add := list(sc, "capabilities", "add"); len(add) > 0 {
		problems = append(problems, fmt.Sprintf("capabilities.add %v", add))
	}
	if str(either("seccompProfile"), "type") != "RuntimeDefault" {
		problems = append(problems, "seccompProfile.type is not RuntimeDefault")
	}
	return problems
}

func mountsTmp(spec, c map[string]any) bool {
	for _, m := range list(c, "volumeMounts") {
		if str(m, "mountPath") != "/tmp" {
			continue
		}
		for _, v := range list(spec, "volumes") {
			if str(v, "name") == str(m, "name") && get(v, "emptyDir") != nil {
				return true
			}
		}
	}
	return false
}

// goMemLimitProblems: GOMEMLIMIT is set, parses as the Go runtime reads it,
// and sits between 70% and 100% of the memory limit.
func goMemLimitProblems(c map[string]any) []string {
	var value string
	found := false
	for _, e := range list(c, "env") {
		if str(e, "name") == "GOMEMLIMIT" {
			value, found = str(e, "value"), true
		}
	}
	if !found {
		return []string{"no GOMEMLIMIT"}
	}
	soft, err := goMemLimitBytes(value)
	if err != nil {
		return []string{err.Error()}
	}
	limit, err := memoryBytes(get(c, "resources", "limits", "memory"))
	if err != nil {
		return []string{err.Error()}
	}
	if soft >= limit || soft < limit*7/10 {
		return []string{fmt.Sprintf("GOMEMLIMIT=%s is not 70-100%% of the memory limit %v", value, get(c, "resources", "limits", "memory"))}
	}
	return nil
}

// TestServiceProbesUseInternalPort: liveness /healthz and readiness /readyz
// on the internal listener.
func TestServiceProbesUseInternalPort(t *testing.T) {
	eachServiceContainer(t, func(t *testing.T, _ []obj, svc string, c map[string]any) {
		internal := containerPort(c, "internal")
		if internal == nil {
			t.Errorf("%s: no container port named internal", svc)
		}
		for probe, path := range map[string]string{"livenessProbe": "/healthz", "readinessProbe": "/readyz"} {
			p := mapAt(c, probe, "httpGet")
			port := get(p, "port")
			if str(p, "path") != path || (port != "internal" && port != internal) {
				t.Errorf("%s: %s is %v, want GET %s on the internal port", svc, probe, p, path)
			}
		}
	})
}

// eachServiceContainer calls check with the container of every service's
// Deployment, as each values file renders it.
func eachServiceContainer(t *testing.T, check func(t *testing.T, objs []obj, svc string, c map[string]any)) {
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) { serviceContainersWith(t, values, check) })
	}
}

// serviceContainersWith calls check on each service's container as the
// chart renders it with values (a valuesFiles key).
func serviceContainersWith(t *testing.T, values string, check func(t *testing.T, objs []obj, svc string, c map[string]any)) {
	objs := render(t, values)
	for _, svc := range serviceNames() {
		c := serviceContainers(t, objs, svc)["Deployment "+fullname(svc)]
		if c == nil {
			t.Errorf("%s: no container", svc)
			continue
		}
		check(t, objs, svc, c)
	}
}

func containerPort(c map[string]any, name string) any {
	for _, p := range list(c, "ports") {
		if str(p, "name") == name {
			return get(p, "containerPort")
		}
	}
	return nil
}

// TestMigrationJobs: a migrate hook Job for each service that has
// migrations, none for the others; pre-install,pre-upgrade except in dev,
// where the database itself is part of the release (post-install).
func TestMigrationJobs(t *testing.T) {
	root := repoRoot(t)
	wantHook := map[string]string{
		"default":    "pre-install,pre-upgrade",
		"production": "pre-install,pre-upgrade",
		"dev":        "post-install,pre-upgrade",
	}
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			objs := render(t, values)
			for _, svc := range serviceNames() {
				_, err := os.Stat(filepath.Join(root, "services", svc, "migrations"))
				hasMigrations := err == nil
				job := find(objs, "Job", fullname(svc)+"-migrate")
				switch {
				case hasMigrations && job == nil:
					t.Errorf("%s has migrations but no migrate Job", svc)
					continue
				case !hasMigrations && job != nil:
					t.Errorf("%s has no migrations but a migrate Job", svc)
					continue
				case job == nil:
					continue
				}
				if hook := str(job, "metadata", "annotations", "helm.sh/hook"); hook != wantHook[values] {
					t.Errorf("%s migrate Job hook %q, want %q", svc, hook, wantHook[values])
				}
				c := containers(podSpec(job))
				if len(c) != 1 || fmt.Sprint(get(c[0], "args")) != "[migrate]" {
					t.Errorf("%s migrate Job does not run `%s migrate`: %v", svc, svc, c)
					continue
				}
				dep := serviceContainers(t, objs, svc)["Deployment "+fullname(svc)]
				if str(c[0], "image") != str(dep, "image") {
					t.Errorf("%s migrate Job image %q differs from the Deployment's %q", svc, str(c[0], "image"), str(dep, "image"))
				}
				checkMigrationRoles(t, objs, svc, c[0], dep)
			}
		})
	}
}

// checkMigrationRoles: the Job migrates as the owner (DB_MIGRATE_URL)
// and names the service's role (DB_URL), each from its own Secret; the
// Deployment has the service's role alone.
func checkMigrationRoles(t *testing.T, objs []obj, svc string, job, dep map[string]any) {
	t.Helper()
	jobEnv, err := containerEnv(objs, job)
	if err != nil {
		t.Fatal(err)
	}
	depEnv, err := containerEnv(objs, dep)
	if err != nil {
		t.Fatal(err)
	}
	owner, service := jobEnv["DB_MIGRATE_URL"].secret, jobEnv["DB_URL"].secret
	switch {
	case owner == "" || service == "":
		t.Errorf("%s migrate Job: DB_MIGRATE_URL from %q, DB_URL from %q, want both from Secrets", svc, owner, service)
	case owner == service || strings.Split(owner, "/")[0] == strings.Split(service, "/")[0]:
		t.Errorf("%s migrate Job: the owner's and the service's URLs share the Secret %q", svc, owner)
	case depEnv["DB_URL"].secret != service:
		t.Errorf("%s Deployment: DB_URL from %q, the Job's from %q", svc, depEnv["DB_URL"].secret, service)
	}
	if _, ok := depEnv["DB_MIGRATE_URL"]; ok {
		t.Errorf("%s Deployment gets DB_MIGRATE_URL: only the migration Job may connect as the owner", svc)
	}
}

// TestReleaseNamespaceOnly: every object goes to the release namespace.
func TestReleaseNamespaceOnly(t *testing.T) {
	for values := range valuesFiles {
		t.Run(values, func(t *testing.T) {
			for _, o := range render(t, values) {
				if ns := str(o, "metadata", "namespace"); ns != namespace {
					t.Errorf("%s %s: namespace %q, want the release namespace %q", o.kind(), o.name(), ns, namespace)
				}
			}
		})
	}
}

// TestProductionHasNoDevDependencies: nothing from devDependencies, no
// Secret rendered by the chart, images from a registry.
func TestProductionHasNoDevDependencies(t *testing.T) {
	for _, o := range render(t, "production") {
		if strings.HasPrefix(o.component(), "dev-") {
			t.Errorf("production renders development dependency %s %s", o.kind(), o.name())
		}
		if o.kind() == "Secret" {
			t.Errorf("production renders Secret %s; production Secrets are given", o.name())
		}
	}
	deps := map[string]bool{}
	for _, o := range byKind(render(t, "dev"), "Deployment") {
		if strings.HasPrefix(o.component(), "dev-") {
			deps[o.component()] = true
		}
	}
	for _, want := range []string{"dev-postgresql", "dev-redis", "dev-minio", "dev-stripe-mock"} {
		if !deps[want] {
			t.Errorf("dev values: no %s Deployment", want)
		}
	}
}

// TestHPAsWithoutTheMetricsAPI: the dev values' HPAs are rendered only
// where the cluster serves metrics.k8s.io (without it an HPA fails forever,
// FailedGetResourceMetric), their Deployments then running minReplicas
// pods; the other values keep theirs regardless (production runs
// metrics-server).
func TestHPAsWithoutTheMetricsAPI(t *testing.T) {
	tests := []struct {
		values string
		flags  []string
		// replicas is each Deployment's spec.replicas; nil with an HPA.
		wantHPAs int
		replicas any
	}{
		{values: "dev", wantHPAs: 0, replicas: 1},
		{values: "dev", flags: []string{withMetricsAPI}, wantHPAs: len(serviceNames()), replicas: nil},
		{values: "default", wantHPAs: len(serviceNames()), replicas: nil},
		{values: "production", wantHPAs: len(serviceNames()), replicas: nil},
	}
	for _, tt := range tests {
		t.Run(tt.values+strings.Join(tt.flags, ""), func(t *testing.T) {
			objs := render(t, tt.values, tt.flags...)
			if n := len(byKind(objs, "HorizontalPodAutoscaler")); n != tt.wantHPAs {
				t.Errorf("%d HPAs, want %d", n, tt.wantHPAs)
			}
			for _, svc := range serviceNames() {
				if got := get(find(objs, "Deployment", fullname(svc)), "spec", "replicas"); got != tt.replicas {
					t.Errorf("%s: Deployment replicas %v, want %v", svc, got, tt.replicas)
				}
			}
		})
	}
}
