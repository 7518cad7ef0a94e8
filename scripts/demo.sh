#!/usr/bin/env bash
# ./perf demo [--fast] [--check]: the whole loop on this machine, with progress on the console.
#   PostgreSQL (private cluster) -> migrations -> the service -> three agents (ryzen-9950x, i7-4790k, m1-pro, each
#   simulated on this host and saying so) -> a demo git repository built from benches/ -> jobs as the webhooks would
#   queue them -> real suites -> verdicts, change points, targets -> the dashboard URL.
# --fast runs only the Go suite (CI's quick form); --check exits after checking the results instead of waiting.
# Every run starts clean: its own database (perf_demo) and work folder (.perf/demo) are recreated.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DEMO="$ROOT/.perf/demo"
# The summary's timings count from here (a warm build's few seconds of checking included).
export PERF_DEMO_STARTED="${PERF_DEMO_STARTED:-$(date +%s)}"
PORT="${PERF_DEMO_PORT:-5080}"
FULL=--full CHECK=
for arg in "$@"; do
  case "$arg" in
    --fast) FULL= ;;
    --check) CHECK=--check ;;
    *) echo "usage: ./perf demo [--fast] [--check]" >&2; exit 2 ;;
  esac
done

step() { echo; echo "==> [$1/7] $2"; }
pids=()
cleanup() {
  local code=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ "$code" = 0 ] || echo "demo: stopped (exit $code); logs in $DEMO" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step 1 "toolchains for the suites (go, Debian's Rust crates) and PostgreSQL"
benches/install-toolchains.sh
scripts/pg.sh start

step 2 "a fresh demo database"
DB="$(scripts/pg.sh url perf_demo)"
scripts/pg.sh createdb perf_demo
rm -rf "$DEMO"; mkdir -p "$DEMO"

step 3 "building the service, the migrations, the agent and the demo's orchestration (Release)"
dotnet tool restore >/dev/null
for p in migrations/PerfService.Migrations.csproj src/PerfService/PerfService.csproj src/Agents/PerfService.Agents.csproj tools/Demo/PerfService.Demo.csproj; do
  dotnet build "$p" -c Release -nologo -clp:ErrorsOnly -v:q
done
BIN="$ROOT/artifacts/bin"

step 4 "migrating"
dotnet "$BIN/PerfService.Migrations/release/PerfService.Migrations.dll" --connection "$DB"

step 5 "starting the service on http://127.0.0.1:$PORT"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then echo "demo: port $PORT is taken; set PERF_DEMO_PORT" >&2; exit 1; fi
URL="http://127.0.0.1:$PORT"
export ConnectionStrings__Perf="$DB" Dashboard__PublicUrl="$URL"
# The suites' PostgreSQL providers (persistence, the Go event store) use the private cluster's own "perf" database.
export PERF_BENCH_PG="$(scripts/pg.sh url perf)"
# Rivulet's .NET 8/9 runs: harnesses get a HOME of their own, so name the root install-toolchains.sh filled.
export PERF_DOTNET_ROOT="${PERF_DOTNET_ROOT:-${HOME:-/root}/.perf/dotnet}"
( cd "$BIN/PerfService/release" && exec dotnet PerfService.dll --urls "$URL" ) >"$DEMO/service.log" 2>&1 &
pids+=($!)
for i in $(seq 1 120); do
  if curl -fsS "$URL/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "${pids[0]}" 2>/dev/null; then echo "demo: the service exited; see $DEMO/service.log" >&2; tail -20 "$DEMO/service.log" >&2; exit 1; fi
  sleep 0.5
done
curl -fsS "$URL/readyz" >/dev/null || { echo "demo: the service did not become ready" >&2; exit 1; }
echo "ready: $URL/readyz answers 200"

step 6 "tokens (stored hashed; shown here once)"
ADMIN="$(cd "$BIN/PerfService/release" && dotnet PerfService.dll token create --name demo-admin --scopes admin 2>/dev/null | tail -1)"
AGENT="$(cd "$BIN/PerfService/release" && dotnet PerfService.dll token create --name demo-agents --scopes agent 2>/dev/null | tail -1)"
echo "$ADMIN" >"$DEMO/admin-token"; echo "$AGENT" >"$DEMO/agent-token"; chmod 600 "$DEMO"/*-token
echo "admin token in $DEMO/admin-token (paste it on the alerts page to triage)"

step 7 "the scenario: repository, noise calibration, jobs in phases, agents, suites, verdicts"
dotnet "$BIN/PerfService.Demo/release/PerfService.Demo.dll" --server "$URL" --admin-token "$ADMIN" --agent-token "$AGENT" \
  --agent "$BIN/PerfService.Agents/release/perf-agent.dll" --benches "$ROOT/benches" --workdir "$DEMO" $FULL $CHECK &
pids+=($!)
wait "${pids[1]}"
