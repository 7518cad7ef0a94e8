#!/usr/bin/env bash
# Waits until a service answers 200 on /readyz. Sourced, it defines wait_ready; run, it waits once:
#   scripts/ready.sh URL [SECONDS]
#   wait_ready URL SECONDS [PID [LOG]]   # gives up at once when process PID exits, showing the end of LOG
#   stop_service PID                     # SIGTERM, up to 10 s for a graceful stop, then SIGKILL; no-op when gone
wait_ready() {
  local url="$1" seconds="$2" pid="${3:-}" log="${4:-}" i
  for ((i = 0; i < seconds * 10; i++)); do
    curl -fsS -o /dev/null "$url/readyz" 2>/dev/null && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "ready: the service exited before it was ready${log:+; last log lines:}" >&2
      [ -n "$log" ] && tail -n 20 "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "ready: $url did not become ready in $seconds s${log:+; last log lines:}" >&2
  [ -n "$log" ] && tail -n 20 "$log" >&2
  return 1
}

stop_service() {
  local pid="$1"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  [ $# -ge 1 ] || { echo "usage: scripts/ready.sh URL [SECONDS]" >&2; exit 2; }
  wait_ready "$1" "${2:-60}"
fi
