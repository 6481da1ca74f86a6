#!/usr/bin/env bash
# Installs the npm packages of a tools directory (its package-lock.json
# pins them) into its git-ignored node_modules with `npm ci`, again
# whenever the lock file changes, and Node.js with npm first (apt-get,
# when missing, saying so; sudo when not root). Safe to run again and
# again; make test runs it for tools/openapilint.
#   usage: deploy/local/ensure-npm-packages.sh tools/openapilint
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: $0 <directory with package-lock.json>}

say() { echo "ponto: $*" >&2; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
	say "installing ${missing[*]} with apt-get (npm packages of $dir)"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=$dir/node_modules/.ponto-lock
if ! cmp -s "$dir/package-lock.json" "$stamp"; then
	say "installing the npm packages of $dir (npm ci)"
	npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
	cp "$dir/package-lock.json" "$stamp"
fi
