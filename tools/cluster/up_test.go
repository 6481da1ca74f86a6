package cluster

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestUpAndDownLeaveTheHostAsFound starts the cluster from its built
// components, runs a pod on it (the pause image: the sandbox, CNI and the
// kubelet at work), stops and starts it again on its kept state (the pod
// comes back), stops it and checks that the host's network
// namespaces, routes, links, mounts, kubelet sysctls and cgroups are as
// before, and that no process of it is left. It needs root, the built
// components and the host packages: make cluster-test sets CLUSTER_TEST=1
// after building them (not yet part of make test: see README.md).
func TestUpAndDownLeaveTheHostAsFound(t *testing.T) {
	if os.Getenv("CLUSTER_TEST") == "" {
		t.Skip("the cluster test runs with CLUSTER_TEST=1 (make cluster-test)")
	}
	ctx := context.Background()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	l := NewLayout(root, kubernetesVersion(t, root))
	l.State = t.TempDir() // a cluster of its own; the built components are shared
	if out, _ := exec.Command("ip", "netns", "list").Output(); hasWord(string(out), NetNS) {
		t.Fatal("a cluster is running (network namespace " + NetNS + "): make cluster-down first")
	}
	before := hostState(t)

	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	// Down, and the comparison, run however the test ends (before the
	// state directory goes: cleanups run last registered first).
	t.Cleanup(func() {
		start := time.Now()
		if err := Down(ctx, log, l); err != nil {
			t.Errorf("Down: %v", err)
		}
		t.Logf("cluster down in %s", time.Since(start).Round(time.Millisecond))
		if after := hostState(t); after != before {
			t.Errorf("the host changed:\nbefore:\n%s\nafter:\n%s", before, after)
		}
		for _, name := range append([]string{"holder"}, stopOrder...) {
			if l.readPID(name) != 0 {
				t.Errorf("%s still runs", name)
			}
		}
		if pids := netnsPIDs(ctx); len(pids) > 0 {
			t.Errorf("processes left in the network namespace: %v", pids)
		}
	})
	start := time.Now()
	if err := Up(ctx, log, l); err != nil {
		t.Fatalf("Up: %v", err)
	}
	t.Logf("cluster ready in %s", time.Since(start).Round(time.Millisecond))
	runPausePod(t, ctx, l)

	// Stopped and started again on its kept state, it finds its pod.
	if err := Down(ctx, log, l); err != nil {
		t.Fatalf("Down: %v", err)
	}
	start = time.Now()
	if err := Up(ctx, log, l); err != nil {
		t.Fatalf("Up on the kept state: %v", err)
	}
	t.Logf("cluster started again in %s", time.Since(start).Round(time.Millisecond))
	if out, err := Kubectl(ctx, l, "wait", "pod/pausa", "--for=condition=Ready", "--timeout=90s"); err != nil {
		t.Fatalf("the pod after a restart: %v\n%s", err, out)
	}
}

// runPausePod runs a pod of the pause image and waits until it runs,
// with an address from the node's pod range.
func runPausePod(t *testing.T, ctx context.Context, l Layout) {
	t.Helper()
	if _, err := Kubectl(ctx, l, "run", "pausa", "--image="+PauseImage, "--image-pull-policy=Never", "--restart=Never"); err != nil {
		t.Fatal(err)
	}
	if out, err := Kubectl(ctx, l, "wait", "pod/pausa", "--for=condition=Ready", "--timeout=90s"); err != nil {
		desc, _ := Kubectl(ctx, l, "describe", "pod", "pausa")
		t.Fatalf("%v\n%s\n%s", err, out, desc)
	}
	ip, err := Kubectl(ctx, l, "get", "pod", "pausa", "-o", "jsonpath={.status.podIP}")
	if err != nil || !strings.HasPrefix(string(ip), strings.TrimSuffix(NodePodCIDR, "0/24")) {
		t.Errorf("pod IP %q (%v), want one in %s", ip, err, NodePodCIDR)
	}
}

// hostState is what the cluster must leave as it found: network
// namespaces, routes, links, mounts, the kubelet's sysctls, the cgroup
// root.
func hostState(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, c := range [][]string{{"ip", "netns", "list"}, {"ip", "route"}, {"ip", "-o", "link", "show"}, {"cat", "/proc/self/mounts"}} {
		out, err := exec.Command(c[0], c[1:]...).Output()
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		b.WriteString(strings.Join(c, " ") + ":\n" + string(out))
	}
	for _, s := range kubeletSysctls {
		v, _ := os.ReadFile("/proc/sys/" + s.path)
		b.WriteString(s.path + "=" + string(v))
	}
	matches, _ := filepath.Glob(filepath.Join(cgroupFS, "*", strings.TrimPrefix(CgroupRoot, "/")))
	b.WriteString("cgroups: " + strings.Join(matches, " ") + "\n")
	return b.String()
}

func kubernetesVersion(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "k8s.io/kubernetes")
	cmd.Dir = filepath.Join(root, "tools", "cluster", "build", "kubernetes")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
