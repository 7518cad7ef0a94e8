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

# The OpenAPI tests check the service's document with an npm validator (tests/tools/openapi), installed from its lock file.
if [ ! -d tests/tools/openapi/node_modules ]; then
  say "installing the OpenAPI validator (npm ci in tests/tools/openapi)"
  npm ci --prefix tests/tools/openapi --no-audit --no-fund >/dev/null || say "npm ci failed: the OpenAPI validation test will say what to run"
fi

say "building the solution"
dotnet build PerfService.sln -nologo -clp:ErrorsOnly -v:q || { echo "0 passed, 1 failed"; say "build failed"; exit 1; }

log="$(mktemp)"
status=0
# Every test project of the solution (what the build above built).
for proj in $(dotnet sln PerfService.sln list | tr '\\' '/' | grep -E '^tests/.*\.csproj$' | sort); do
  say "running $(basename "$proj" .csproj)"
  dotnet test "$proj" --no-build -nologo --logger "console;verbosity=minimal" "$@" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done

# The line-length rule of STYLE.md is one more test run: at most 2% of src/'s C# lines over 120 characters.
lines_passed=0 lines_failed=0
say "checking line lengths in src/ (scripts/line-length.sh)"
if scripts/line-length.sh; then lines_passed=1; else lines_failed=1; status=1; fi

# The demo in its quick form is one more test run: the whole loop with real processes and suites, checked through
# the API (the planted change point at the right commit, the pull request judged a regression). It needs Go
# (benches/install-toolchains.sh); PERF_TEST_DEMO=0 leaves it out.
demo_passed=0 demo_failed=0
if [ "${PERF_TEST_DEMO:-1}" != 0 ]; then
  say "running the demo in its quick form (./perf demo --fast --check)"
  if PERF_DEMO_PORT="${PERF_DEMO_PORT:-5181}" scripts/demo.sh --fast --check 2>&1 | tee -a "$log.demo"; then demo_passed=1; else demo_failed=1; status=1; fi
  rm -f "$log.demo"
fi

# Add up VSTest's per-project lines: "Passed!  - Failed: 0, Passed: 12, Skipped: 1, Total: 13, ..."
read -r passed failed skipped < <(grep -E '^(Passed|Failed)! +- Failed:' "$log" | sed -E \
  's/.*Failed: *([0-9]+), Passed: *([0-9]+), Skipped: *([0-9]+).*/\2 \1 \3/' \
  | awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}')
# CI shows the end of this output: name each failed test with the start of its message just above the summary.
if grep -qE '^ +Failed [^!]' "$log"; then
  echo "Failed tests:"
  awk '/^ +Failed [^!]/ {n = 14} n > 0 {print; n--}' "$log" | cut -c1-240 | head -70
fi
[ "$demo_failed" = 1 ] && echo "Failed: the demo check (./perf demo --fast --check); its output is above"
[ "$lines_failed" = 1 ] && echo "Failed: the line-length check (scripts/line-length.sh); its output is above"
rm -f "$log"
passed=$((passed + demo_passed + lines_passed)); failed=$((failed + demo_failed + lines_failed))
[ "$failed" -gt 0 ] && status=1
[ "$passed" -eq 0 ] && status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
