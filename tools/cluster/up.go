package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Up starts the cluster, or what of it is not running, and waits until
// its node is Ready. The components must be built (build.sh) and the host
// packages installed (deploy/local/ensure-cluster-packages.sh).
func Up(ctx context.Context, log *slog.Logger, l Layout) error {
	start := time.Now()
	if err := checkBuilt(l); err != nil {
		return err
	}
	if err := ensurePKI(l); err != nil {
		return fmt.Errorf("pki: %w", err)
	}
	if err := writeFiles(l); err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if err := ensureNetwork(ctx, l); err != nil {
		return fmt.Errorf("network: %w", err)
	}
	holder, err := startHolder(ctx, l)
	if err != nil {
		return err
	}
	if err := startControlPlane(ctx, l, holder); err != nil {
		return err
	}
	log.Info("control plane ready", "after", time.Since(start).Round(time.Millisecond))
	if err := startNode(ctx, l, holder); err != nil {
		return err
	}
	log.Info("cluster ready", "after", time.Since(start).Round(time.Millisecond), "kubeconfig", l.Kubeconfig())
	return nil
}

// components are the built programs Up needs.
var components = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy", "kubectl"}

func checkBuilt(l Layout) error {
	var missing []string
	for _, c := range components {
		if !exists(l.bin(c)) {
			missing = append(missing, c)
		}
	}
	for _, p := range []string{"containerd", "runc", "ctr", "iptables"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p+" (deploy/local/ensure-cluster-packages.sh)")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not built or installed: %s (make cluster builds them)", strings.Join(missing, ", "))
	}
	return nil
}

// ensureNetwork makes NetNS and the veth pair between it and the host,
// each end addressed, unless they exist. No route is added on either
// side but the veth's own /30. The first `ip netns add` of a machine
// makes /run/netns, a mount of its own: noted, for Down to undo.
func ensureNetwork(ctx context.Context, l Layout) error {
	if out, _ := exec.CommandContext(ctx, "ip", "netns", "list").Output(); !hasWord(string(out), NetNS) {
		if err := noteNetnsMount(l); err != nil {
			return err
		}
		if err := run(ctx, "ip", "netns", "add", NetNS); err != nil {
			return err
		}
	}
	if run(ctx, "ip", "link", "show", HostVeth) != nil {
		steps := [][]string{
			{"ip", "link", "add", HostVeth, "type", "veth", "peer", "name", NodeVeth, "netns", NetNS},
			{"ip", "addr", "add", HostIP + "/30", "dev", HostVeth},
			{"ip", "link", "set", HostVeth, "up"},
			{"ip", "-n", NetNS, "addr", "add", NodeIP + "/30", "dev", NodeVeth},
			{"ip", "-n", NetNS, "link", "set", NodeVeth, "up"},
			{"ip", "-n", NetNS, "link", "set", "lo", "up"},
		}
		for _, s := range steps {
			if err := run(ctx, s[0], s[1:]...); err != nil {
				return err
			}
		}
	}
	return nil
}

func startControlPlane(ctx context.Context, l Layout, holder int) error {
	pki := func(f string) string { return filepath.Join(l.path("pki"), f) }
	kc := func(name string) string { return l.path("kubeconfig", name+".yaml") }
	if err := startDaemon(l, holder, "etcd", "etcd", "--name=ponto", "--data-dir="+l.path("etcd"),
		"--listen-client-urls=http://127.0.0.1:2379", "--advertise-client-urls=http://127.0.0.1:2379",
		"--listen-peer-urls=http://127.0.0.1:2380", "--initial-advertise-peer-urls=http://127.0.0.1:2380",
		"--initial-cluster=ponto=http://127.0.0.1:2380", "--log-level=warn"); err != nil {
		return err
	}
	if err := startDaemon(l, holder, "kube-apiserver", "kube-apiserver",
		"--advertise-address="+NodeIP, fmt.Sprintf("--secure-port=%d", APIPort),
		"--etcd-servers=http://127.0.0.1:2379",
		"--client-ca-file="+pki("ca.crt"), "--tls-cert-file="+pki("apiserver.crt"), "--tls-private-key-file="+pki("apiserver.key"),
		"--kubelet-client-certificate="+pki("apiserver-kubelet-client.crt"),
		"--kubelet-client-key="+pki("apiserver-kubelet-client.key"),
		// The node's name resolves nowhere: logs and exec go to its address.
		"--kubelet-preferred-address-types=InternalIP",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+pki("sa.pub"), "--service-account-signing-key-file="+pki("sa.key"),
		"--service-cluster-ip-range="+ServiceCIDR, "--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction", "--allow-privileged=true", "--profiling=false"); err != nil {
		return err
	}
	if err := waitFor(ctx, 90*time.Second, "kube-apiserver", l, func() error { return apiReady(l) }); err != nil {
		return err
	}
	if err := startDaemon(l, holder, "kube-controller-manager", "kube-controller-manager",
		"--kubeconfig="+kc("controller-manager"), "--authentication-kubeconfig="+kc("controller-manager"),
		"--authorization-kubeconfig="+kc("controller-manager"), "--bind-address=127.0.0.1", "--leader-elect=false",
		"--service-account-private-key-file="+pki("sa.key"), "--root-ca-file="+pki("ca.crt"),
		"--cluster-signing-cert-file="+pki("ca.crt"), "--cluster-signing-key-file="+pki("ca.key"),
		"--use-service-account-credentials=true", "--allocate-node-cidrs=true", "--cluster-cidr="+PodCIDR,
		"--node-cidr-mask-size=24", "--service-cluster-ip-range="+ServiceCIDR, "--profiling=false"); err != nil {
		return err
	}
	return startDaemon(l, holder, "kube-scheduler", "kube-scheduler",
		"--kubeconfig="+kc("scheduler"), "--authentication-kubeconfig="+kc("scheduler"),
		"--authorization-kubeconfig="+kc("scheduler"), "--bind-address=127.0.0.1", "--leader-elect=false", "--profiling=false")
}

func startNode(ctx context.Context, l Layout, holder int) error {
	if err := startDaemon(l, holder, "containerd", "/usr/bin/containerd", "--config", l.path("containerd", "config.toml")); err != nil {
		return err
	}
	err := waitFor(ctx, 30*time.Second, "containerd", l, func() error {
		_, err := inNode(ctx, holder, "ctr", "--address", "/run/containerd/containerd.sock", "version")
		return err
	})
	if err != nil {
		return err
	}
	if err := importPause(ctx, l, holder); err != nil {
		return fmt.Errorf("pause image: %w", err)
	}
	if err := makeCgroupRoot(); err != nil {
		return err
	}
	if err := startDaemon(l, holder, "kubelet", "kubelet", "--config="+l.path("kubelet", "config.yaml"),
		"--kubeconfig="+l.path("kubeconfig", "kubelet.yaml"), "--hostname-override="+NodeName, "--node-ip="+NodeIP,
		"--root-dir="+l.path("kubelet", "root"), "--cert-dir="+l.path("kubelet", "pki")); err != nil {
		return err
	}
	if err := startDaemon(l, holder, "kube-proxy", "kube-proxy", "--config="+l.path("kube-proxy", "config.yaml")); err != nil {
		return err
	}
	err = waitFor(ctx, 90*time.Second, "kubelet", l, func() error {
		out, err := Kubectl(ctx, l, "get", "node", NodeName, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(out)) != "True" {
			return fmt.Errorf("node %s Ready=%q", NodeName, out)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Pods are refused until the controller-manager made the namespace's
	// default ServiceAccount.
	return waitFor(ctx, 60*time.Second, "kube-controller-manager", l, func() error {
		_, err := Kubectl(ctx, l, "get", "serviceaccount", "default", "--namespace", "default")
		return err
	})
}

// Kubectl runs the built kubectl as the administrator.
func Kubectl(ctx context.Context, l Layout, args ...string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, l.bin("kubectl"), append([]string{"--kubeconfig", l.Kubeconfig()}, args...)...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// apiReady asks the API server's /readyz as the administrator.
func apiReady(l Layout) error {
	pki := l.path("pki")
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, "admin.crt"), filepath.Join(pki, "admin.key"))
	if err != nil {
		return err
	}
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}}
	resp, err := client.Get(APIServer() + "/readyz")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return errors.New("readyz: " + resp.Status + ": " + string(body))
	}
	return nil
}

func run(ctx context.Context, name string, args ...string) error {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func hasWord(text, word string) bool {
	for _, f := range strings.Fields(text) {
		if f == word {
			return true
		}
	}
	return false
}

// makeCgroupRoot makes CgroupRoot in every cgroup hierarchy: the kubelet
// refuses a root that does not exist. Down removes it.
func makeCgroupRoot() error {
	hierarchies, err := os.ReadDir(cgroupFS)
	if err != nil {
		return err
	}
	for _, h := range hierarchies {
		dir := filepath.Join(cgroupFS, h.Name())
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || !exists(filepath.Join(dir, "cgroup.procs")) {
			continue // a symbolic link (cpu,cpuacct) or not a hierarchy
		}
		if err := os.Mkdir(filepath.Join(dir, CgroupRoot), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cgroup root: %w", err)
		}
	}
	return nil
}

// netnsDir is where iproute2 keeps named network namespaces; it makes the
// directory, and a mount of it on itself, on its first use.
const netnsDir = "/run/netns"

// noteNetnsMount records in run/made-netns what of netnsDir is missing
// before `ip netns add` makes it: "mount", and "dir".
func noteNetnsMount(l Layout) error {
	mounts, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return err
	}
	var made []string
	if !strings.Contains(string(mounts), " "+netnsDir+" ") {
		made = append(made, "mount")
	}
	if !exists(netnsDir) {
		made = append(made, "dir")
	}
	if len(made) == 0 {
		return nil
	}
	if err := os.MkdirAll(l.path("run"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(l.path("run", "made-netns"), []byte(strings.Join(made, "\n")+"\n"), 0o644)
}
