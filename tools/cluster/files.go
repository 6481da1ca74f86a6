package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// kubeconfigs: each component's, by the identity (pki) it presents.
var kubeconfigs = map[string]string{
	"admin": "admin", "controller-manager": "controller-manager", "scheduler": "scheduler",
	"kubelet": "kubelet", "kube-proxy": "kube-proxy",
}

// kubeletSysctls are the kernel tunables the kubelet sets when they read
// otherwise (its container manager, protectKernelDefaults off): bound, in
// the cluster's mount namespace, over /proc/sys as files holding the value
// it wants, so that it finds them set and writes nothing to the host.
var kubeletSysctls = []struct{ path, value string }{
	{"vm/overcommit_memory", "1"},
	{"vm/panic_on_oom", "0"},
	{"kernel/panic", "10"},
	{"kernel/panic_on_oops", "1"},
	{"kernel/keys/root_maxkeys", "1000000"},
	{"kernel/keys/root_maxbytes", "25000000"},
}

// writeFiles writes every configuration file of a start: kubeconfigs,
// containerd's, the kubelet's, kube-proxy's, the CNI network and the
// sysctl files. kube-proxy exits when its configuration file changes, so
// each file is written only when its content differs.
func writeFiles(l Layout) error {
	pki := l.path("pki")
	files := map[string]string{}
	for name, id := range kubeconfigs {
		files[l.path("kubeconfig", name+".yaml")] = kubeconfig(pki, id)
	}
	files[l.path("containerd", "config.toml")] = containerdConfig(l)
	files[l.path("kubelet", "config.yaml")] = kubeletConfig(l)
	files[l.path("kube-proxy", "config.yaml")] = kubeProxyConfig(l)
	files[l.path("cni", "10-ponto.conflist")] = cniConfig(l)
	files[l.path("resolv.conf")] = "# The cluster reaches no name server outside itself.\noptions ndots:5\n"
	for _, s := range kubeletSysctls {
		files[l.path("sysctl", strings.ReplaceAll(s.path, "/", "."))] = s.value + "\n"
	}
	for file, content := range files {
		if err := writeIfChanged(file, content); err != nil {
			return err
		}
	}
	return nil
}

func writeIfChanged(file, content string) error {
	if old, err := os.ReadFile(file); err == nil && string(old) == content {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, []byte(content), 0o600)
}

func kubeconfig(pki, id string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
  - name: ponto
    cluster:
      server: %s
      certificate-authority: %s
users:
  - name: %s
    user:
      client-certificate: %s
      client-key: %s
contexts:
  - name: ponto
    context: {cluster: ponto, user: %s}
current-context: ponto
`, APIServer(), filepath.Join(pki, "ca.crt"), id, filepath.Join(pki, id+".crt"), filepath.Join(pki, id+".key"), id)
}

// containerdConfig: Debian's containerd 1.6 (config version 2). Root
// lacks CAP_SYS_RESOURCE here, so containers may not get an OOM score
// below containerd's own (restrict_oom_score_adj); the sandbox image is
// the one made here; cgroupfs, as the kubelet.
func containerdConfig(l Layout) string {
	return fmt.Sprintf(`version = 2
root = %q
state = "/run/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs"]

[grpc]
  address = "/run/containerd/containerd.sock"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %q
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = %q
`, l.path("containerd", "root"), PauseImage, l.path("cni"))
}

// kubeletConfig: cgroups v1 (hybrid) here, which 1.34 refuses unless
// failCgroupV1 is false; eviction thresholds low enough for a shared
// development disk.
func kubeletConfig(l Layout) string {
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: %s
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
address: %s
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: %s}
authorization: {mode: Webhook}
clusterDomain: cluster.local
clusterDNS: [%s]
resolvConf: %s
failSwapOn: false
protectKernelDefaults: false
serializeImagePulls: false
evictionHard: {memory.available: 50Mi, nodefs.available: 1%%, imagefs.available: 1%%, nodefs.inodesFree: 1%%}
imageGCHighThresholdPercent: 99
imageGCLowThresholdPercent: 98
`, CgroupRoot, NodeIP, filepath.Join(l.path("pki"), "ca.crt"), DNSServiceIP, l.path("resolv.conf"))
}

// kubeProxyConfig: iptables, every Service connection masqueraded (pods
// share one bridge, and without br_netfilter, a host-wide module, a reply
// would skip the reverse NAT), and the host's conntrack limits left alone.
func kubeProxyConfig(l Layout) string {
	return fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: %s}
mode: iptables
clusterCIDR: %s
hostnameOverride: %s
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
nodePortAddresses: [%s/32]
iptables: {masqueradeAll: true}
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
`, l.path("kubeconfig", "kube-proxy.yaml"), PodCIDR, NodeName, NodeIP)
}

// cniConfig: one bridge; pods reach the rest (the host's end of the veth)
// masqueraded as the node.
func cniConfig(l Layout) string {
	return fmt.Sprintf(`{
  "cniVersion": "1.0.0",
  "name": "ponto",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "isDefaultGateway": true, "ipMasq": true, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": %q}]], "dataDir": %q}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, NodePodCIDR, l.path("cni-ipam"))
}
