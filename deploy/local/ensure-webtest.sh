#!/usr/bin/env bash
# Installs what the web client's browser test (tools/e2e TestWebWorkday)
# needs: Debian's chromium, Node.js with npm (apt-get, when missing, saying
# so), and the npm packages of tools/webtest at the versions its
# package-lock.json pins (npm ci, into the git-ignored
# tools/webtest/node_modules, again whenever the lock file changes).
# playwright-core never downloads a browser; the test drives this chromium.
# Safe to run again and again; make test runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { echo "ponto: $*" >&2; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
# A font with Latin accents, so that pages and screenshots render pt-BR.
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || missing+=(fonts-dejavu-core)
if [ "${#missing[@]}" -gt 0 ]; then
	say "installing ${missing[*]} with apt-get (browser test of the web client)"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

dir=tools/webtest
stamp=$dir/node_modules/.ponto-lock
if ! cmp -s "$dir/package-lock.json" "$stamp"; then
	say "installing the npm packages of $dir (npm ci)"
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
	cp "$dir/package-lock.json" "$stamp"
fi
