#!/usr/bin/env bash
# Makes sure the development cluster's host programs are installed (make
# cluster, tools/cluster): containerd (with ctr), runc and the CNI plugins
# from Debian's packages, and iptables and conntrack for kube-proxy;
# installs the missing ones with apt-get, saying so. containerd is never
# started as a system service: tools/cluster runs its own, inside the
# cluster's namespaces. Safe to run again and again.
set -euo pipefail

say() { echo "ponto: $*" >&2; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v containerd >/dev/null || missing+=(containerd)
command -v runc >/dev/null || missing+=(runc)
[ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
command -v iptables >/dev/null || missing+=(iptables)
command -v conntrack >/dev/null || missing+=(conntrack)
command -v ip >/dev/null || missing+=(iproute2)
[ ${#missing[@]} -eq 0 ] && exit 0

say "installing ${missing[*]} with apt-get"
as_root apt-get update -qq
# policy-rc.d refuses the packages' service starts (exit 101): the
# cluster's containerd is tools/cluster's own.
policy=/usr/sbin/policy-rc.d
created=""
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
	as_root chmod +x "$policy"
	created=1
fi
trap '[ -z "$created" ] || as_root rm -f "$policy"' EXIT
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
