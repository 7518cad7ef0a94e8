#!/usr/bin/env bash
# ./perf bench [BenchmarkDotNet args]: PerfService's own benchmarks (benches/dotnet/PerfService.Benchmarks) on a
# fresh database of the private cluster. Results land in BenchmarkDotNet.Artifacts/results (markdown and JSON).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/pg.sh start
scripts/pg.sh createdb perf_bench
export PERF_BENCH_DB="${PERF_BENCH_DB:-$(scripts/pg.sh url perf_bench)}"
[ $# -gt 0 ] || set -- --filter '*'
cd benches/dotnet/PerfService.Benchmarks
exec dotnet run -c Release -- "$@"
