#!/usr/bin/env bash
# A private PostgreSQL cluster for development, tests and CI, in .perf/pg of the checkout (git-ignored).
#   scripts/pg.sh start|stop|status|url|ensure-installed|createdb NAME
# Listens on 127.0.0.1 only, on a free port chosen at first start and remembered in .perf/pg/port.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PGHOME="$ROOT/.perf/pg"
DATA="$PGHOME/data"
LOG="$PGHOME/postgres.log"
PORT_FILE="$PGHOME/port"

say() { echo "db: $*" >&2; }

pg_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

ensure_installed() {
  pg_bin >/dev/null && return 0
  if [ "$(id -u)" != 0 ]; then
    say "PostgreSQL is not installed and this is not root: run 'sudo apt-get install -y postgresql' first"; exit 1
  fi
  say "installing Debian's PostgreSQL (apt-get install postgresql)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  # Debian's package creates and starts a system cluster we don't use; leave it alone.
  pg_bin >/dev/null || { say "PostgreSQL install failed"; exit 1; }
}

# Runs a command as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_port() {
  local p
  for p in $(seq 54320 54999); do
    port_free "$p" && { echo "$p"; return 0; }
  done
  say "no free port between 54320 and 54999"; exit 1
}

port() { cat "$PORT_FILE"; }

url() { echo "Host=127.0.0.1;Port=$(port);Username=postgres;Database=${1:-perf};Pooling=true;Maximum Pool Size=50"; }

running() { [ -f "$DATA/postmaster.pid" ] && as_owner "$(pg_bin)/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

init_cluster() {
  local bin; bin="$(pg_bin)"
  mkdir -p "$PGHOME"
  if [ "$(id -u)" = 0 ]; then
    # The postgres user must be able to reach the data folder through every parent of the checkout.
    if ! runuser -u postgres -- test -x "$ROOT"; then
      say "the postgres user cannot enter $ROOT; make it traversable (chmod o+x on its parents)"; exit 1
    fi
    chown postgres:postgres "$PGHOME"
  fi
  say "creating a private cluster in $DATA"
  as_owner "$bin/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --no-locale >/dev/null
  # A development and test cluster: loopback only, trust auth, and no fsync (an OS crash may lose it; a
  # PostgreSQL restart or kill does not). Enough connections for parallel test classes and load tests.
  cat >>"$DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PGHOME'
max_connections = 300
shared_buffers = 256MB
fsync = off
full_page_writes = off
CONF
}

start() {
  ensure_installed
  [ -f "$DATA/PG_VERSION" ] || init_cluster
  if running; then say "already running on 127.0.0.1:$(port)"; return 0; fi
  local p; p="$( [ -f "$PORT_FILE" ] && port_free "$(cat "$PORT_FILE")" && cat "$PORT_FILE" || pick_port)"
  echo "$p" >"$PORT_FILE"
  say "starting PostgreSQL on 127.0.0.1:$p (log: $LOG)"
  touch "$LOG"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$LOG"
  as_owner "$(pg_bin)/pg_ctl" -D "$DATA" -l "$LOG" -o "-p $p" -w -t 60 start >/dev/null \
    || { say "PostgreSQL did not start; last log lines:"; tail -n 20 "$LOG" >&2; exit 1; }
  as_owner "$(pg_bin)/psql" -h 127.0.0.1 -p "$p" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'perf'" | grep -q 1 \
    || as_owner "$(pg_bin)/psql" -h 127.0.0.1 -p "$p" -U postgres -d postgres -qc "CREATE DATABASE perf" >/dev/null
  say "ready: $(url)"
}

stop() {
  if ! running; then say "not running"; return 0; fi
  as_owner "$(pg_bin)/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
  say "stopped"
}

status() {
  if running; then echo "running on 127.0.0.1:$(port) — $(url)"; else echo "not running"; return 3; fi
}

# A fresh, empty database NAME: dropped first if it exists (WITH (FORCE) ends its sessions), then created. Quiet on
# success. The server is the private cluster, or the one on PERF_PG_PORT (127.0.0.1, user postgres) when that is set.
createdb() {
  local name="${1:-}"
  [[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || { say "createdb: the name must be a plain lower-case identifier, not '$name'"; exit 2; }
  local p="${PERF_PG_PORT:-}" psql
  [ -n "$p" ] || p="$(port)"
  psql="$(command -v psql || echo "$(pg_bin)/psql")"
  "$psql" -q -v ON_ERROR_STOP=1 "host=127.0.0.1 port=$p user=postgres dbname=postgres" -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS \"$name\" WITH (FORCE)" -c "CREATE DATABASE \"$name\"" >/dev/null
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  url) url "${2:-perf}" ;;
  ensure-installed) ensure_installed ;;
  createdb) createdb "${2:-}" ;;
  *) echo "usage: scripts/pg.sh start|stop|status|url [database]|ensure-installed|createdb NAME" >&2; exit 2 ;;
esac
