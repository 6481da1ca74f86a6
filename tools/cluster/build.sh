#!/usr/bin/env bash
# Builds the development cluster's Kubernetes components (kube-apiserver,
# kube-controller-manager, kube-scheduler, kubelet, kube-proxy, kubectl)
# and etcd from their Go modules at the versions
# tools/cluster/build/kubernetes/go.mod pins, into the ignored
# .cache/cluster/kubernetes-<version>/bin. A component already built is
# kept, so a second run takes a second. Niced: the build shares the
# machine. Usage: tools/cluster/build.sh [component...]
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
module=$root/tools/cluster/build/kubernetes
export GOWORK=off GOFLAGS=-mod=readonly CGO_ENABLED=0

version=$(cd "$module" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
out=${CLUSTER_CACHE:-$root/.cache/cluster}/kubernetes-$version/bin
mkdir -p "$out"

# The version the binaries report (as Kubernetes' own build stamps it):
# kubectl's skew warnings and the API server's /version read it.
minor=${version#v1.}; minor=${minor%%.*}
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	ldflags+=" -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
done

declare -A packages=(
	[kube-apiserver]=k8s.io/kubernetes/cmd/kube-apiserver
	[kube-controller-manager]=k8s.io/kubernetes/cmd/kube-controller-manager
	[kube-scheduler]=k8s.io/kubernetes/cmd/kube-scheduler
	[kubelet]=k8s.io/kubernetes/cmd/kubelet
	[kube-proxy]=k8s.io/kubernetes/cmd/kube-proxy
	[kubectl]=k8s.io/kubernetes/cmd/kubectl
	[etcd]=./cmd/etcd
)
components=("$@")
[ ${#components[@]} -gt 0 ] || components=(etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)

for c in "${components[@]}"; do
	pkg=${packages[$c]:-}
	[ -n "$pkg" ] || { echo "build.sh: unknown component $c (known: ${!packages[*]})" >&2; exit 2; }
	if [ -x "$out/$c" ]; then
		continue
	fi
	echo "building $c $version into ${out#"$root"/} (cold: minutes)"
	start=$SECONDS
	# Built under a temporary name, so that an interrupted build leaves
	# nothing that looks finished.
	(cd "$module" && nice -n 19 go build -trimpath -ldflags "$ldflags" -o "$out/.$c.tmp" "$pkg")
	mv "$out/.$c.tmp" "$out/$c"
	echo "built $c in $((SECONDS - start)) s"
done
