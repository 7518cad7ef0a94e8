#!/usr/bin/env bash
# What does the agent's --sandbox (bubblewrap) cost on the real suites? Runs each suite RUNS times without and with
# the sandbox, alternating the order every run (plain,sandbox / sandbox,plain …) so that drift of the machine hits
# both alike, each time through `perf-agent exec` (the agent's own harness launcher: the same allow-listed
# environment, HOME in the work folder and bwrap arguments as a job). Then compares per-benchmark medians and sets
# the difference against the run-to-run noise of the plain runs.
#
#   benches/sandbox-overhead.sh [RUNS] [SUITES]      e.g. benches/sandbox-overhead.sh 6 "go rust"
#
# Needs: bwrap (apt-get install bubblewrap), python3, and the suites' toolchains (benches/install-toolchains.sh).
# Suites use their quick arguments from benches/perf.json (go: -benchtime=100ms -count 5; criterion: 1 s warm-up
# and measurement on a subset; bdn: --quick on Rivulet's suite).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
BENCHES=$PWD
RUNS=${1:-6}
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
      (cd "$BENCHES/go" && agent "${flag[@]}" -- go test -run '^$' -bench . -benchmem -count 5 -benchtime=100ms ./...) \
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

python3 - "$OUT" "$RUNS" $SUITES <<'PY'
import json, os, re, statistics as st, sys
out, runs, suites = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def go(path):
    vals = {}
    for line in open(path):
        m = re.match(r'^(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op', line)
        if m: vals.setdefault(m.group(1), []).append(float(m.group(3)))
    return {k: st.median(v) for k, v in vals.items()}

def criterion(root):
    vals = {}
    for d, _, files in os.walk(root):
        if d.endswith('/new') and 'estimates.json' in files:
            bench = json.load(open(os.path.join(d, 'benchmark.json')))['full_id']
            vals[bench] = json.load(open(os.path.join(d, 'estimates.json')))['median']['point_estimate']
    return vals

def bdn(root):
    vals = {}
    for f in os.listdir(root):
        for b in json.load(open(os.path.join(root, f)))['Benchmarks']:
            vals[b['FullName']] = b['Statistics']['Median']
    return vals

def load(suite, mode, i):
    if suite == 'go': return go(f'{out}/go-{mode}-{i}.txt')
    if suite == 'rust': return criterion(f'{out}/rust-{mode}-{i}')
    return bdn(f'{out}/bdn-{mode}-{i}')

print(f'\n| suite | benchmarks | median overhead | mean overhead | median run-to-run noise (CV of plain runs) | median A/A difference (plain odd vs even runs) | benchmarks with overhead beyond their noise |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for suite in suites:
    plain = [load(suite, 'plain', i) for i in range(1, runs + 1)]
    box = [load(suite, 'sandbox', i) for i in range(1, runs + 1)]
    names = sorted(set.intersection(*[set(r) for r in plain + box]))
    over, noise, aa, beyond = [], [], [], 0
    rows = []
    for n in names:
        p = [r[n] for r in plain]; s = [r[n] for r in box]
        o = st.median(s) / st.median(p) - 1
        cv = st.stdev(p) / st.mean(p) if len(p) > 1 else 0
        a = st.median(p[0::2]) / st.median(p[1::2]) - 1 if len(p) > 1 else 0
        over.append(o); noise.append(cv); aa.append(abs(a))
        if abs(o) > 2 * cv: beyond += 1
        rows.append((n, o, cv, a))
    print(f'| {suite} | {len(names)} | {st.median(over):+.2%} | {st.mean(over):+.2%} | {st.median(noise):.2%} | {st.median(aa):.2%} | {beyond} (|overhead| > 2 CV) |')
    with open(f'{out}/{suite}-per-benchmark.md', 'w') as f:
        f.write('| benchmark | sandbox overhead | plain CV | plain A/A |\n| --- | --- | --- | --- |\n')
        for n, o, cv, a in rows: f.write(f'| {n} | {o:+.2%} | {cv:.2%} | {a:+.2%} |\n')
print(f'\nper-benchmark tables: {out}/<suite>-per-benchmark.md')
PY
