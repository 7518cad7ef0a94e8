#!/usr/bin/env bash
# ./perf loadtest [--roles both|split] [--agents 50] [--seconds 60] [--readers 4] [any PerfService.LoadTest option]
#
# Load test on this machine, loopback only: starts the private PostgreSQL cluster, makes a fresh database perf_load,
# migrates it, starts the service (Release) as a real process on a free 127.0.0.1 port, creates an admin and an
# ingest token, and runs tools/LoadTest: simulated agents posting runs and readers on the read API for the given time,
# then a check that every acknowledged run is stored whole, exactly once, and how far the background analysis lagged
# (stored → analysed p50/p99, backlog when the load stopped, time to drain), the capacity ratios (analysed/stored runs per
# second, drain rate, CPU seconds per ingested and per analysed run; the whole machine's CPU per stored run, PostgreSQL's and
# the tool's share of it, and the service's peak memory) and the capacity goals, met or not. Stops by itself; exit code non-zero on
# errors or lost data. The service's log and a JSON report stay in .perf/loadtest/.
#
# --roles both (the default): one process plays both roles. --roles split: a web process and a background process on
# this machine, as deploy/ runs them (the background one at nice PERF_LOADTEST_NICE, 10 by default, as
# deploy/systemd does); CPU is then read per process, and the goals are those set for the split roles.
#
# Environment: PERF_DB (use that cluster instead of the private one), PERF_LOADTEST_DB (database name, perf_load),
# PERF_ARTIFACTS (build output root, default ./artifacts), PERF_LOADTEST_ENV (extra VAR=value settings for
# the service, space-separated), PERF_LOADTEST_BACKGROUND_ENV (the same for the background process of --roles
# split only), PERF_LOADTEST_ROLES (what --roles sets when it is not given),
# PERF_LOADTEST_NICE. Every option of the load tool (--think-ms, --max-requests, --results, …) is listed
# in tools/LoadTest/LoadCommandLine.cs (and by --help).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

say() { echo "loadtest: $*" >&2; }

# --roles is this script's; every other argument goes to the load tool.
ROLES="${PERF_LOADTEST_ROLES:-both}"
tool_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
      exit 0 ;;
    --roles) [ $# -ge 2 ] || { say "--roles needs a value: both or split"; exit 2; }; ROLES="$2"; shift 2 ;;
    --roles=*) ROLES="${1#--roles=}"; shift ;;
    *) tool_args+=("$1"); shift ;;
  esac
done
case "$ROLES" in both|split) ;; *) say "--roles must be both or split, not '$ROLES'"; exit 2 ;; esac

ART="${PERF_ARTIFACTS:-$ROOT/artifacts}"
BUILD_ARGS=(-c Release -nologo -clp:ErrorsOnly -v:q)
[ -n "${PERF_ARTIFACTS:-}" ] && BUILD_ARGS+=("-p:ArtifactsPath=$PERF_ARTIFACTS")

OUT="$ROOT/.perf/loadtest"
mkdir -p "$OUT"
STAMP="$(date -u +%Y%m%d-%H%M%S)"
SERVICE_LOG="$OUT/service-$STAMP.log"
REPORT="$OUT/report-$STAMP.json"

# 1. PostgreSQL and a fresh database: the private cluster, or an existing one when PERF_DB (a connection string to
#    any database of it, user postgres on 127.0.0.1) is set; the fresh database is PERF_LOADTEST_DB (perf_load).
LOAD_DB="${PERF_LOADTEST_DB:-perf_load}"
[[ "$LOAD_DB" =~ ^[a-z_][a-z0-9_]*$ ]] || { say "PERF_LOADTEST_DB must be a plain lower-case name"; exit 2; }
if [ -n "${PERF_DB:-}" ]; then
  SERVER_DB="$PERF_DB"
else
  scripts/pg.sh start
  SERVER_DB="$(scripts/pg.sh url postgres)"
fi
PG_PORT="$(sed -E 's/.*Port=([0-9]+).*/\1/' <<<"$SERVER_DB")"
say "fresh database $LOAD_DB on 127.0.0.1:$PG_PORT"
PERF_PG_PORT="$PG_PORT" scripts/pg.sh createdb "$LOAD_DB"
DB="$(sed -E "s/Database=[^;]*/Database=$LOAD_DB/" <<<"$SERVER_DB")"

# 2. Build (Release) and migrate.
for project in migrations/PerfService.Migrations.csproj src/PerfService/PerfService.csproj tools/LoadTest/PerfService.LoadTest.csproj; do
  say "building $project"
  dotnet build "$project" "${BUILD_ARGS[@]}" || { say "build of $project failed"; exit 1; }
done
dotnet "$ART/bin/PerfService.Migrations/release/PerfService.Migrations.dll" --connection "$DB" >&2

# 3. The service on a free loopback port.
NICE="${PERF_LOADTEST_NICE:-10}"
[[ "$NICE" =~ ^[0-9]+$ ]] && [ "$NICE" -le 19 ] || { say "PERF_LOADTEST_NICE must be 0-19, not '$NICE'"; exit 2; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  for _ in $(seq 1 200); do
    local candidate=$((20000 + RANDOM % 20000))
    if port_free "$candidate"; then echo "$candidate"; return 0; fi
  done
  return 1
}
PORT="$(free_port)" || { say "no free port found"; exit 1; }
URL="http://127.0.0.1:$PORT"

SERVICE_DLL="$ART/bin/PerfService/release/PerfService.dll"
source scripts/ready.sh
SERVICE_PID=""
BACKGROUND_PID=""
BACKGROUND_LOG="${SERVICE_LOG%.log}-background.log"
cleanup() {
  stop_service "$SERVICE_PID"
  stop_service "$BACKGROUND_PID"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The read API's per-token rate limit (600/min by default) would turn a load test into a rate-limit test; everything
# else is the service as shipped. EF Core's per-command Information logs are turned down as in any production setting.
service_env=(
  "ConnectionStrings__Perf=$DB"
  "RateLimit__PermitPerMinute=1000000"
  "Logging__LogLevel__Microsoft.EntityFrameworkCore=Warning"
  "Logging__LogLevel__Microsoft.AspNetCore=Warning"
)
# shellcheck disable=SC2206
[ -n "${PERF_LOADTEST_ENV:-}" ] && service_env+=(${PERF_LOADTEST_ENV})
# shellcheck disable=SC2206
background_env=(${PERF_LOADTEST_BACKGROUND_ENV:-})
if [ "$ROLES" = split ]; then
  BACKGROUND_URL="http://127.0.0.1:$(free_port)"
  say "starting the background role on $BACKGROUND_URL at nice $NICE (log: $BACKGROUND_LOG)"
  (cd "$(dirname "$SERVICE_DLL")" && exec nice -n "$NICE" env "${service_env[@]}" "${background_env[@]}" Background__Roles=background dotnet "$SERVICE_DLL" \
    --urls "$BACKGROUND_URL") >"$BACKGROUND_LOG" 2>&1 &
  BACKGROUND_PID=$!
  service_env+=("Background__Roles=web")
fi
say "starting the service on $URL (log: $SERVICE_LOG)"
(cd "$(dirname "$SERVICE_DLL")" && exec env "${service_env[@]}" dotnet "$SERVICE_DLL" --urls "$URL") >"$SERVICE_LOG" 2>&1 &
SERVICE_PID=$!

wait_ready "$URL" 30 "$SERVICE_PID" "$SERVICE_LOG" || exit 1
[ -z "$BACKGROUND_PID" ] || wait_ready "$BACKGROUND_URL" 30 "$BACKGROUND_PID" "$BACKGROUND_LOG" || exit 1
say "ready"

# 4. Tokens, made the way an operator makes them.
token() {
  ConnectionStrings__Perf="$DB" Logging__LogLevel__Default=Warning dotnet "$SERVICE_DLL" token create --name "$1" --scopes "$2" \
    | grep -E '^perf_[A-Za-z0-9_-]+$' | tail -n 1
}
ADMIN_TOKEN="$(token loadtest-admin admin)"
INGEST_TOKEN="$(token loadtest-ingest ingest)"
[ -n "$ADMIN_TOKEN" ] && [ -n "$INGEST_TOKEN" ] || { say "token creation failed"; exit 1; }

# 5. The load; the service's process ids let the tool cost CPU per ingested and per analysed run.
status=0
pids=(--service-pid "$SERVICE_PID")
[ -z "$BACKGROUND_PID" ] || pids+=(--background-pid "$BACKGROUND_PID")
dotnet "$ART/bin/PerfService.LoadTest/release/PerfService.LoadTest.dll" \
  --server "$URL" --admin-token "$ADMIN_TOKEN" --ingest-token "$INGEST_TOKEN" --db "$DB" "${pids[@]}" \
  --fixtures "$ROOT/tests/fixtures" --json-report "$REPORT" ${tool_args[@]+"${tool_args[@]}"} || status=$?

logs=("$SERVICE_LOG")
[ -z "$BACKGROUND_PID" ] || logs+=("$BACKGROUND_LOG")
errors="$(cat "${logs[@]}" | grep -c -E '"LogLevel":"(Error|Critical)"' || true)"
say "service log: $errors error entries (${logs[*]}); report: $REPORT"
# Points that reached their series out of commit order make it replay, from a checkpoint before them or from its start.
replays="$(cat "${logs[@]}" | grep -F 'out of commit order' | grep -oE '"Count":[0-9]+,"From":[0-9]+' || true)"
say "late points: $(awk -F'[:,]' '/Count/ { n++; fed += $2; if ($4 == 0) whole++ }
  END { printf "%d series replayed (%d from their start), %d points fed again", n, whole, fed }' <<<"$replays")"
if [ "$errors" != 0 ]; then
  cat "${logs[@]}" | grep -m 3 -E '"LogLevel":"(Error|Critical)"' | cut -c1-400 >&2
  [ "$status" = 0 ] && status=1
fi
exit "$status"
