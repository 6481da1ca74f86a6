// Package cluster builds and starts ponto's development Kubernetes cluster
// on this machine, with no container registry and no Docker daemon: the
// components built from their Go modules (build.sh), containerd, runc and
// the CNI plugins from Debian's packages.
//
// It leaves the host as it found it. The cluster lives in its own network
// namespace (NetNS), joined to the host by one veth pair, with no default
// route inside: pods reach only the host's end. Every cluster process runs
// in one mount namespace of its own (the holder's), where the kernel
// tunables the kubelet would rewrite already read as it wants (files bound
// over /proc/sys), so no host sysctl changes; the containers' mounts and
// network namespaces live there too, and end with it. Its cgroups sit
// under CgroupRoot. Down removes every process, cgroup, link and namespace
// Up made.
package cluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// The cluster's names and addresses.
const (
	NetNS    = "ponto-cluster"
	HostVeth = "pcl-host"
	NodeVeth = "pcl-node"
	// HostIP is the host's end of the veth, NodeIP the node's (a /30).
	HostIP   = "10.77.0.1"
	NodeIP   = "10.77.0.2"
	NodeName = "ponto-node"
	// PodCIDR is the cluster's, NodePodCIDR the one node's share of it
	// (the controller-manager gives the first node the first /24).
	PodCIDR      = "10.78.0.0/16"
	NodePodCIDR  = "10.78.0.0/24"
	ServiceCIDR  = "10.79.0.0/16"
	APIServiceIP = "10.79.0.1"
	DNSServiceIP = "10.79.0.10"
	APIPort      = 6443
	// CgroupRoot is the kubelet's cgroup root (cgroupfs driver): every
	// pod's cgroup is below it in each hierarchy.
	CgroupRoot = "/ponto-cluster"
	// PauseImage is the sandbox image, made here (no registry to pull it
	// from).
	PauseImage = "ponto.local/pause:1"
)

// Layout is where the cluster's pieces are: Bin the built components
// (build.sh), State everything a run writes (certificates, configuration,
// etcd's data, containerd's images, logs); both under the ignored .cache.
type Layout struct {
	Root  string // the repository
	Bin   string
	State string
}

// NewLayout is the layout for the repository at root and the Kubernetes
// version the build module pins.
func NewLayout(root, version string) Layout {
	cache := filepath.Join(root, ".cache", "cluster")
	if c := os.Getenv("CLUSTER_CACHE"); c != "" {
		cache = c
	}
	return Layout{Root: root, Bin: filepath.Join(cache, "kubernetes-"+version, "bin"), State: filepath.Join(cache, "state")}
}

func (l Layout) path(parts ...string) string {
	return filepath.Join(append([]string{l.State}, parts...)...)
}

// Kubeconfig is the administrator's kubeconfig (kubectl --kubeconfig).
func (l Layout) Kubeconfig() string { return l.path("kubeconfig", "admin.yaml") }

// bin is a built component's path.
func (l Layout) bin(name string) string { return filepath.Join(l.Bin, name) }

// APIServer is the API server's URL as the host reaches it.
func APIServer() string { return fmt.Sprintf("https://%s:%d", NodeIP, APIPort) }
