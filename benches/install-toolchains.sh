#!/usr/bin/env bash
# Installs what a bare Debian 12 machine with the .NET SDK lacks to build and run the suites in this folder:
#   - Go (Debian's golang-go) for benches/go
#   - criterion 0.3 and its dependency crates as Debian source packages (librust-criterion-dev, read offline
#     from /usr/share/cargo/registry) for benches/rust
#   - lib/pq, the PostgreSQL driver, as Debian's golang-github-lib-pq-dev (read offline from /usr/share/gocode:
#     benches/go/go.mod replaces github.com/lib/pq with that directory)
#   - .NET 8 and .NET 9 runtimes for the rivulet suite, from the NuGet registry's runtime packs
#     (Microsoft.NETCore.App.Runtime.linux-x64 8.0.33 / 9.0.22, fetched by `dotnet restore`) into a private .NET root
#     (PERF_DOTNET_ROOT, default ~/.perf/dotnet) beside the machine's own .NET 10: its SDK, host and runtime are
#     linked, the extra runtimes copied into shared/Microsoft.NETCore.App/<version>
#   - cargo + rustc from Debian when no cargo is reachable (rustup's /root/.cargo/bin/cargo counts)
#   - bubblewrap (bwrap), the sandbox of the agent's --sandbox, and util-linux's setpriv for --run-as
#   - linux-perf (/usr/bin/perf), the profiler of criterion suites in profiling jobs
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

# The agent's --sandbox runs each harness in bubblewrap; its tests need it too.
if have_cmd bwrap; then
  log "bwrap: present ($(bwrap --version 2>/dev/null))"
else
  missing+=(bubblewrap)
fi
if ! have_cmd setpriv; then missing+=(util-linux); fi

# Profiling jobs run criterion benchmarks under `perf record -g` (kernel.perf_event_paranoid must be 2 or lower for
# a harness that is not root: docs/agents.md).
if have_cmd perf && perf version >/dev/null 2>&1; then
  log "perf: present ($(perf version 2>/dev/null))"
else
  missing+=(linux-perf)
fi
# .NET 8 / 9 runtimes (no apt needed: the registry serves runtime packs). Failures are reported, not fatal: the
# rivulet suite then runs on .NET 10 only and says which runtime it skipped.
install_dotnet_runtimes() {
  local root="${PERF_DOTNET_ROOT:-${HOME:-/root}/.perf/dotnet}"
  local versions="${PERF_DOTNET_RUNTIMES:-8.0.33 9.0.22}"
  local host_dotnet host_root want=() v
  host_dotnet="$(command -v dotnet || true)"
  if [ -z "$host_dotnet" ]; then log "dotnet: not on PATH; skipping the .NET 8/9 runtimes"; return 0; fi
  host_root="$(dirname "$(readlink -f "$host_dotnet")")"
  for v in $versions; do
    if [ -f "$root/shared/Microsoft.NETCore.App/$v/libcoreclr.so" ]; then log "dotnet runtime $v: present ($root)"; else want+=("$v"); fi
  done
  # The private root: a copy of the muxer (it finds its root from its own location) and links to the host's parts.
  mkdir -p "$root/shared/Microsoft.NETCore.App" "$root/shared/Microsoft.AspNetCore.App"
  cp -f "$host_root/dotnet" "$root/dotnet"
  for d in host sdk packs sdk-manifests templates metadata; do
    [ -e "$host_root/$d" ] && ln -sfn "$host_root/$d" "$root/$d"
  done
  for fw in Microsoft.NETCore.App Microsoft.AspNetCore.App; do
    for dir in "$host_root/shared/$fw"/*; do
      [ -d "$dir" ] && ln -sfn "$dir" "$root/shared/$fw/$(basename "$dir")"
    done
  done
  [ "${#want[@]}" -eq 0 ] && return 0
  local work; work="$(mktemp -d)"
  local list; list="$(printf '[%s];' "${want[@]}")"; list="${list%;}"
  cat > "$work/runtime-packs.csproj" <<CSPROJ
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework><ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally></PropertyGroup>
  <ItemGroup><PackageDownload Include="Microsoft.NETCore.App.Runtime.linux-x64" Version="$list" /></ItemGroup>
</Project>
CSPROJ
  log "dotnet restore: Microsoft.NETCore.App.Runtime.linux-x64 ${want[*]}"
  if ! (cd "$work" && dotnet restore --packages "$work/packages" -nologo -v:q); then
    log "could not fetch the runtime packs from the NuGet registry; rivulet will run on .NET 10 only"
    rm -rf "$work"; return 0
  fi
  for v in "${want[@]}"; do
    local pack="$work/packages/microsoft.netcore.app.runtime.linux-x64/$v/runtimes/linux-x64"
    local tfm="net${v%%.*}.0" target="$root/shared/Microsoft.NETCore.App/$v"
    if [ ! -d "$pack/lib/$tfm" ]; then log "runtime pack $v: no lib/$tfm inside; skipped"; continue; fi
    mkdir -p "$target"
    cp -f "$pack/lib/$tfm/"* "$pack/native/"* "$target/"
    log "dotnet runtime $v: installed in $target"
  done
  rm -rf "$work"
}
install_dotnet_runtimes

if [ "${#missing[@]}" -eq 0 ]; then
  log "nothing to install"
  exit 0
fi

log "apt-get update (missing: ${missing[*]})"
$SUDO apt-get update -q
log "apt-get install -y --no-install-recommends ${missing[*]}"
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
log "done"
