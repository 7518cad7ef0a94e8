#!/usr/bin/env bash
# ./perf bench [BenchmarkDotNet args]: PerfService's own benchmarks (benches/dotnet/PerfService.Benchmarks) on a
# fresh database of the private cluster. Results land in BenchmarkDotNet.Artifacts/results (markdown and JSON).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/pg.sh start
PSQL="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_pg "$PSQL" -h 127.0.0.1 -p "$(cat .perf/pg/port)" -U postgres -d postgres -qc "DROP DATABASE IF EXISTS perf_bench WITH (FORCE)" >/dev/null
as_pg "$PSQL" -h 127.0.0.1 -p "$(cat .perf/pg/port)" -U postgres -d postgres -qc "CREATE DATABASE perf_bench" >/dev/null
export PERF_BENCH_DB="${PERF_BENCH_DB:-$(scripts/pg.sh url perf_bench)}"
[ $# -gt 0 ] || set -- --filter '*'
cd benches/dotnet/PerfService.Benchmarks
exec dotnet run -c Release -- "$@"
