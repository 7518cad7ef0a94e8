#!/usr/bin/env bash
# ./perf test: builds the solution once, runs every test project against a real PostgreSQL, and ends with one
# summary line over all test runs: "N passed, N failed, N skipped".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { echo "test: $*" >&2; }

dotnet tool restore >/dev/null
if [ -z "${PERF_TEST_DB:-}" ]; then
  scripts/pg.sh start || exit 1
  # Tests create (and drop) one database per test class on this server.
  export PERF_TEST_DB="$(scripts/pg.sh url postgres)"
fi
say "database server: $PERF_TEST_DB"

say "building the solution"
dotnet build PerfService.sln -nologo -clp:ErrorsOnly -v:q || { echo "0 passed, 1 failed"; say "build failed"; exit 1; }

log="$(mktemp)"
status=0
for proj in $(ls tests/*/*.csproj | sort); do
  say "running $(basename "$proj" .csproj)"
  dotnet test "$proj" --no-build -nologo --logger "console;verbosity=minimal" "$@" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done

# Add up VSTest's per-project lines: "Passed!  - Failed: 0, Passed: 12, Skipped: 1, Total: 13, ..."
read -r passed failed skipped < <(grep -E '^(Passed|Failed)! +- Failed:' "$log" | sed -E \
  's/.*Failed: *([0-9]+), Passed: *([0-9]+), Skipped: *([0-9]+).*/\2 \1 \3/' \
  | awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}')
rm -f "$log"
[ "$failed" -gt 0 ] && status=1
[ "$passed" -eq 0 ] && status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
