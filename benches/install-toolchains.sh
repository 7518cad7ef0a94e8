#!/usr/bin/env bash
# Installs what a bare Debian 12 machine with the .NET SDK lacks to build and run the suites in this folder:
#   - Go (Debian's golang-go) for benches/go
#   - criterion 0.3 and its dependency crates as Debian source packages (librust-criterion-dev, read offline
#     from /usr/share/cargo/registry) for benches/rust
#   - lib/pq, the PostgreSQL driver, as Debian's golang-github-lib-pq-dev (read offline from /usr/share/gocode:
#     benches/go/go.mod replaces github.com/lib/pq with that directory)
#   - cargo + rustc from Debian when no cargo is reachable (rustup's /root/.cargo/bin/cargo counts)
# Idempotent and non-interactive: runs `apt-get update` once, and only when something is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

log() { echo "[install-toolchains] $*"; }

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -E"; else log "not root and no sudo: cannot install"; fi
fi

have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()

# Go: any go on PATH will do; the module needs go >= 1.19.
if have_cmd go; then
  log "go: present ($(command -v go), $(go version 2>/dev/null | awk '{print $3}'))"
else
  missing+=(golang-go)
fi

# lib/pq for benches/go's PostgreSQL-backed event store (go.mod points at this directory; no network).
if have_pkg golang-github-lib-pq-dev && [ -f /usr/share/gocode/src/github.com/lib/pq/go.mod ]; then
  log "golang-github-lib-pq-dev: present (/usr/share/gocode/src/github.com/lib/pq)"
else
  missing+=(golang-github-lib-pq-dev)
fi

# cargo: rustup's (~/.cargo/bin on PATH) or Debian's; the agent runs plain `cargo`, so it must be on PATH.
if have_cmd cargo; then
  log "cargo: present ($(command -v cargo), $(cargo --version 2>/dev/null))"
else
  if [ -x "${HOME:-/root}/.cargo/bin/cargo" ]; then
    log "cargo: ${HOME:-/root}/.cargo/bin/cargo exists but is not on PATH; installing Debian's cargo so that 'cargo' resolves"
  fi
  missing+=(cargo rustc)
fi

# criterion 0.3 sources for the offline Debian registry.
if have_pkg librust-criterion-dev && [ -d /usr/share/cargo/registry ]; then
  log "librust-criterion-dev: present ($(ls -d /usr/share/cargo/registry/criterion-0* 2>/dev/null | head -n1))"
else
  missing+=(librust-criterion-dev)
fi

if [ "${#missing[@]}" -eq 0 ]; then
  log "nothing to install"
  exit 0
fi

log "apt-get update (missing: ${missing[*]})"
$SUDO apt-get update -q
log "apt-get install -y --no-install-recommends ${missing[*]}"
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
log "done"
