#!/usr/bin/env bash
# The `perf` client (parse, submit, compare, and the agent) as one self-contained executable per platform, so a Rust or
# Go project's CI can post results without the .NET SDK or a clone of PerfService.
#
#   deploy/publish-cli.sh                      # linux-x64 linux-arm64 osx-arm64
#   deploy/publish-cli.sh linux-x64            # one platform
#   PERF_CLI_OUT=/tmp/cli deploy/publish-cli.sh
#
# Output: $PERF_CLI_OUT (default artifacts/cli)/<rid>/perf and artifacts/cli/perf-<rid>.tar.gz, plus SHA256SUMS.
# Self-contained single-file, not NativeAOT. NativeAOT does build here for linux-x64 (clang and zlib1g-dev present,
# ILCompiler from NuGet; 10 MB, starts in 0.1 s against 0.2-0.5 s), but only with the trim/AOT analysis errors turned
# off, and then `submit` fails at run time ("Reflection-based serialization has been disabled"): the contracts are
# serialised with reflection-based System.Text.Json. It would need a JsonSerializerContext for every contract first,
# an arm64 sysroot to cross-compile linux-arm64, and a Mac for osx-arm64 (NativeAOT does not cross-compile to macOS).
# The runtime packs come from NuGet (Microsoft.NETCore.App.Runtime.<rid>, Microsoft.NETCore.App.Host.<rid>) at the
# runtime version of the SDK (RUNTIME_VERSION overrides). Takes about a minute per platform on 2 cores.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

OUT="${PERF_CLI_OUT:-$ROOT/artifacts/cli}"
RIDS=("$@")
[ ${#RIDS[@]} -gt 0 ] || RIDS=(linux-x64 linux-arm64 osx-arm64)
# The packs served for the non-host platforms exist only at the runtime's exact patch; ask for that one.
RUNTIME_VERSION="${RUNTIME_VERSION:-$(dotnet --list-runtimes | awk '$1 == "Microsoft.NETCore.App" && $2 ~ /^10\./ { v = $2 } END { print v }')}"

mkdir -p "$OUT"
for rid in "${RIDS[@]}"; do
  echo "publish-cli: $rid (runtime $RUNTIME_VERSION)" >&2
  dir="$OUT/$rid"
  rm -rf "$dir"
  dotnet publish src/Agents/PerfService.Agents.csproj -nologo -v:q -clp:ErrorsOnly \
    -c Release -r "$rid" --self-contained \
    -p:PublishSingleFile=true \
    -p:IncludeNativeLibrariesForSelfExtract=true \
    -p:RuntimeFrameworkVersion="$RUNTIME_VERSION" \
    -p:DebugType=none -p:GenerateDocumentationFile=false \
    -o "$dir"
  mv "$dir/perf-agent" "$dir/perf"
  # Nothing else should be left beside the executable; say so if something is (a native library that could not be bundled).
  extra="$(find "$dir" -mindepth 1 ! -name perf -printf '%f ')"
  [ -z "$extra" ] || echo "publish-cli: $rid: files beside the executable: $extra" >&2
  tar -C "$dir" -czf "$OUT/perf-$rid.tar.gz" perf
  echo "publish-cli: $dir/perf $(du -h "$dir/perf" | cut -f1)" >&2
done
(cd "$OUT" && sha256sum perf-*.tar.gz > SHA256SUMS)
