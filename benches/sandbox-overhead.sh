#!/usr/bin/env bash
# What does the agent's --sandbox (bubblewrap) cost on the real suites? Runs each suite RUNS times without and with
# the sandbox, alternating the order every run (plain,sandbox / sandbox,plain …) so that drift of the machine hits
# both alike, each time through `perf-agent exec` (the agent's own harness launcher: the same allow-listed
# environment, HOME in the work folder and bwrap arguments as a job). Then compares per-benchmark medians and sets
# the difference against the run-to-run noise of the plain runs.
#
#   benches/sandbox-overhead.sh [RUNS] [SUITES]      e.g. benches/sandbox-overhead.sh 6 "go rust"
#
# Needs: bwrap (apt-get install bubblewrap), python3, bc, and the suites' toolchains (benches/install-toolchains.sh).
# The comparison itself is benches/sandbox-overhead.py (re-run it on an OUT folder to re-read old results).
# Suites use their quick arguments from benches/perf.json (go: -benchtime=100ms -count 5; criterion: 1 s warm-up
# and measurement on a subset; bdn: --quick on Rivulet's suite).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
BENCHES=$PWD
RUNS=${1:-6}
# go test -count per run (each run's figure is the median of its counts); GO_COUNT=1 interleaves finer.
GO_COUNT=${GO_COUNT:-5}
SUITES=${2:-go rust}
OUT=${OUT:-$(mktemp -d /tmp/sandbox-overhead.XXXXXX)}
WORK=$OUT/work
mkdir -p "$OUT"
echo "results in $OUT"

dotnet build ../src/Agents -c Release -nologo -v:q -clp:ErrorsOnly -o "$OUT/agent" >/dev/null
agent() { dotnet "$OUT/agent/perf-agent.dll" exec --workdir "$WORK" "$@"; }

criterion_filter='^(context_switch/(raw_fiber|job_system_cold|thread_park)|throughput/|work_stealing/imbalanced/10000$|producer_consumer/[a-z_]+/100000$|startup/threads/2$|scheduling_latency/batch/1000$)'

run_suite() { # suite mode index
  local suite=$1 mode=$2 i=$3 flag=()
  [ "$mode" = sandbox ] && flag=(--sandbox)
  case $suite in
    go)
      (cd "$BENCHES/go" && agent "${flag[@]}" -- go test -run '^$' -bench . -benchmem -count "$GO_COUNT" -benchtime=100ms ./...) \
        > "$OUT/go-$mode-$i.txt" ;;
    rust)
      rm -rf "$BENCHES/rust/target/criterion"
      (cd "$BENCHES/rust" && agent "${flag[@]}" -- cargo bench -- --warm-up-time 1 --measurement-time 1 --noplot "$criterion_filter") \
        > "$OUT/rust-$mode-$i.log" 2>&1
      mkdir -p "$OUT/rust-$mode-$i" && cp -r "$BENCHES/rust/target/criterion/." "$OUT/rust-$mode-$i/" ;;
    bdn)
      rm -rf "$BENCHES/dotnet/Rivulet.Benchmarks/BenchmarkDotNet.Artifacts"
      (cd "$BENCHES/dotnet/Rivulet.Benchmarks" && agent "${flag[@]}" -- dotnet run -c Release -- --filter '*' --quick) \
        > "$OUT/bdn-$mode-$i.log" 2>&1
      mkdir -p "$OUT/bdn-$mode-$i" && cp "$BENCHES"/dotnet/Rivulet.Benchmarks/BenchmarkDotNet.Artifacts/results/*-report-full*.json "$OUT/bdn-$mode-$i/" ;;
  esac
}

for suite in $SUITES; do
  echo "$suite: warm-up (build caches)"
  run_suite "$suite" plain 0
  for i in $(seq 1 "$RUNS"); do
    if [ $((i % 2)) = 1 ]; then order="plain sandbox"; else order="sandbox plain"; fi
    for mode in $order; do
      start=$(date +%s.%N)
      run_suite "$suite" "$mode" "$i"
      echo "$suite run $i $mode: $(echo "$(date +%s.%N) - $start" | bc) s"
    done
  done
done

python3 "$BENCHES/sandbox-overhead.py" "$OUT" "$RUNS" $SUITES
