#!/usr/bin/env bash
# Makes sure the machine's PostgreSQL and Redis answer on 127.0.0.1, the way
# `make run` and `make test` expect them: installs them with apt-get when
# they are missing (saying so), starts them when they are down, and waits
# until they accept connections. It also installs the verifiers the tests
# run on signed outputs (pdfsig from poppler-utils; openssl). Safe to run
# again and again.
set -euo pipefail

PG_PORT=${PG_PORT:-5432}
REDIS_PORT=${REDIS_PORT:-6379}

say() { echo "ponto: $*" >&2; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
	say "installing $* with apt-get"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # name port
	for _ in $(seq 1 60); do
		listening "$2" && return 0
		sleep 0.5
	done
	say "$1 did not start listening on 127.0.0.1:$2"
	return 1
}

pg_cluster_version() { ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1; }

ensure_postgres() {
	if [ -z "$(pg_cluster_version)" ] || ! command -v pg_ctlcluster >/dev/null; then
		apt_install postgresql
		# A fresh cluster asks for passwords on TCP; the local stack and the
		# tests connect as postgres over 127.0.0.1 with trust, as CI does.
		local hba="/etc/postgresql/$(pg_cluster_version)/main/pg_hba.conf"
		as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
	fi
	if ! listening "$PG_PORT"; then
		say "starting PostgreSQL"
		as_root pg_ctlcluster --skip-systemctl-redirect "$(pg_cluster_version)" main start
	fi
	wait_for PostgreSQL "$PG_PORT"
	local out=""
	for _ in $(seq 1 60); do
		out=$(psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -w -Atqc 'select 1' 2>&1) && return 0
		# A server that answers but refuses the login will not change its
		# mind: say how to fix it at once.
		case "$out" in *password*|*pg_hba.conf*|*authentication*) break ;; esac
		sleep 0.5
	done
	local hba="/etc/postgresql/$(pg_cluster_version)/main/pg_hba.conf"
	say "PostgreSQL on 127.0.0.1:$PG_PORT refuses user postgres without a password: $out"
	say "fix: put these two lines at the top of $hba, then reload PostgreSQL:"
	say "  host all all 127.0.0.1/32 trust"
	say "  host all all ::1/128 trust"
	say "  sudo pg_ctlcluster $(pg_cluster_version) main reload"
	say "(a local development server only: trust lets any local user in as any role)"
	return 1
}

ensure_redis() {
	command -v redis-server >/dev/null || apt_install redis-server
	if ! listening "$REDIS_PORT"; then
		say "starting Redis"
		redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
	fi
	wait_for Redis "$REDIS_PORT"
}

# The signature tests check ponto's PDFs and .p7s files with verifiers
# nobody here wrote: poppler's pdfsig and OpenSSL's cms.
ensure_verifiers() {
	local missing=()
	command -v pdfsig >/dev/null || missing+=(poppler-utils)
	command -v openssl >/dev/null || missing+=(openssl)
	if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

ensure_postgres
ensure_redis
ensure_verifiers
