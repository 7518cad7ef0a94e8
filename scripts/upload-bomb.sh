#!/usr/bin/env bash
# scripts/upload-bomb.sh [--files 12] [--concurrent N] [--mib 250] [--build Debug|Release]
#
# Measures the service's memory under gzip bombs (issue 12 §4). Makes a fresh database on an existing PostgreSQL
# server (PERF_PG, an Npgsql connection string to the server; default the private cluster of scripts/pg.sh), migrates
# it, starts the service as a real process on a free loopback port, creates an ingest token, and posts gzip files that
# inflate to --mib MiB each (zeros: about 250 KB on the wire):
#   A. one request carrying all --files files (the per-request budget answers 413);
#   B. --concurrent (default --files) concurrent requests of one file each (the per-file limit, the spool and the
#      upload gate at work).
# It prints the service's RSS when idle and its peak RSS (VmHWM, reset between scenarios) with the status codes and
# the time to answer. The database is dropped at the end. Nothing here is a test: it is the reproduction behind the
# figures in the note.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
say() { echo "upload-bomb: $*" >&2; }

FILES=12 MIB=250 CONFIG=Debug CONCURRENT=
while [ $# -gt 0 ]; do
  case "$1" in
    --files) FILES="$2"; shift 2 ;;
    --mib) MIB="$2"; shift 2 ;;
    --concurrent) CONCURRENT="$2"; shift 2 ;;
    --build) CONFIG="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) say "unknown option $1"; exit 2 ;;
  esac
done
CONCURRENT="${CONCURRENT:-$FILES}"
config_dir="$(tr '[:upper:]' '[:lower:]' <<<"$CONFIG")"
ART="${PERF_ARTIFACTS:-$ROOT/artifacts}"

# 1. A fresh database on the server.
if [ -z "${PERF_PG:-}" ]; then scripts/pg.sh start; PERF_PG="$(scripts/pg.sh url postgres)"; fi
field() { sed -nE "s/.*(^|;)$1=([^;]*).*/\\2/Ip" <<<"$PERF_PG"; }
PG_HOST="$(field Host)"; PG_PORT="$(field Port)"; PG_USER="$(field Username)"
DBNAME="perf_bomb_$$"
psql_() { psql -q -v ON_ERROR_STOP=1 "host=$PG_HOST port=${PG_PORT:-5432} user=${PG_USER:-postgres} dbname=postgres" "$@" >/dev/null; }
psql_ -c "CREATE DATABASE $DBNAME"
DB="Host=$PG_HOST;Port=${PG_PORT:-5432};Username=${PG_USER:-postgres};Database=$DBNAME"

WORK="$(mktemp -d)"
source scripts/ready.sh
SERVICE_PID=""
cleanup() {
  stop_service "$SERVICE_PID"
  psql_ -c "DROP DATABASE IF EXISTS $DBNAME WITH (FORCE)" || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 2. Build, migrate, start.
for project in migrations/PerfService.Migrations.csproj src/PerfService/PerfService.csproj; do
  dotnet build "$project" -c "$CONFIG" -nologo -clp:ErrorsOnly -v:q >&2
done
dotnet "$ART/bin/PerfService.Migrations/$config_dir/PerfService.Migrations.dll" --connection "$DB" >/dev/null
SERVICE_DLL="$ART/bin/PerfService/$config_dir/PerfService.dll"
PORT=$((20000 + RANDOM % 20000))
URL="http://127.0.0.1:$PORT"
(cd "$(dirname "$SERVICE_DLL")" && exec env "ConnectionStrings__Perf=$DB" "Logging__LogLevel__Default=Warning" \
  "Ingest__SpoolDirectory=$WORK/spool" dotnet "$SERVICE_DLL" --urls "$URL") >"$WORK/service.log" 2>&1 &
SERVICE_PID=$!
wait_ready "$URL" 30 "$SERVICE_PID" "$WORK/service.log" || exit 1
TOKEN="$(cd "$(dirname "$SERVICE_DLL")" && ConnectionStrings__Perf="$DB" Logging__LogLevel__Default=Warning dotnet "$SERVICE_DLL" token create \
  --name bomb --scopes admin | grep -E '^perf_' | tail -n 1)"
curl -fsS -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"slug":"bomb","name":"bomb","isPublic":true}' "$URL/api/v1/projects"

# 3. The bomb: MIB MiB of zeros, gzipped.
head -c "$((MIB * 1024 * 1024))" /dev/zero | gzip -9 >"$WORK/bomb.gz"
echo '{"project":"bomb","commit":"b0bb0001","branch":"main","profile":"m1-pro"}' >"$WORK/run.json"
say "bomb: $(stat -c %s "$WORK/bomb.gz") bytes on the wire, $MIB MiB inflated"

kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$SERVICE_PID/status"; }
reset_peak() { echo 5 >"/proc/$SERVICE_PID/clear_refs"; }
sleep 2
IDLE="$(kib VmRSS)"
say "idle RSS: $((IDLE / 1024)) MiB"

# A. One request, all files.
parts=()
for i in $(seq 1 "$FILES"); do parts+=(-F "files=@$WORK/bomb.gz;filename=bomb-$i.json.gz"); done
reset_peak
start=$(date +%s%N)
status_a="$(curl -sS -o "$WORK/a.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" -F "run=<$WORK/run.json" "${parts[@]}" "$URL/api/v1/runs")"
secs_a="$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')"
PEAK_A="$(kib VmHWM)"
say "A: one request of $FILES files -> $status_a in ${secs_a}s: $(cat "$WORK/a.json" | head -c 300)"
say "A: peak RSS $((PEAK_A / 1024)) MiB (idle $((IDLE / 1024)) MiB)"

# B. CONCURRENT requests of one file each, at once.
sleep 1
reset_peak
start=$(date +%s%N)
for i in $(seq 1 "$CONCURRENT"); do
  curl -sS -o "$WORK/b$i.json" -w '%{http_code}\n' -H "Authorization: Bearer $TOKEN" -F "run=<$WORK/run.json" \
    -F "files=@$WORK/bomb.gz;filename=bomb-$i.json.gz" "$URL/api/v1/runs" >"$WORK/b$i.status" &
done
wait $(jobs -p | grep -v "^$SERVICE_PID\$") 2>/dev/null || true
secs_b="$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')"
PEAK_B="$(kib VmHWM)"
say "B: $CONCURRENT concurrent requests -> $(cat "$WORK"/b*.status | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')in ${secs_b}s"
say "B: first answers: $(head -c 200 "$WORK/b1.json")"
say "B: peak RSS $((PEAK_B / 1024)) MiB (idle $((IDLE / 1024)) MiB)"
left="$(find "$WORK/spool" -type f 2>/dev/null | wc -l)"
say "spool files left: $left; runs stored: $(curl -fsS "$URL/api/v1/projects/bomb/runs" | grep -o '"id":' | wc -l)"
echo "idle_rss_mib=$((IDLE / 1024)) a_status=$status_a a_seconds=$secs_a a_peak_mib=$((PEAK_A / 1024)) b_seconds=$secs_b b_peak_mib=$((PEAK_B / 1024)) spool_left=$left"
