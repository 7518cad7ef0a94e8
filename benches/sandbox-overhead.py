#!/usr/bin/env python3
# Compares the runs of benches/sandbox-overhead.sh: per benchmark, the median over runs without and with --sandbox,
# against the run-to-run noise of the runs without it. Usage: sandbox-overhead.py OUT RUNS SUITE...
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

# Besides medians over all runs: paired ratios. Run i without and run i with the sandbox ran back to back, so their
# ratio cancels slow drift of the machine; the same ratio between plain runs i and i+1 is the A/A yardstick.
def paired(p, s):
    return st.median([b / a for a, b in zip(p, s)]) - 1

def aa_pairs(p):
    return st.median([abs(b / a - 1) for a, b in zip(p[0::2], p[1::2])]) if len(p) > 1 else 0

print(f'\n| suite | benchmarks | median overhead | mean overhead | paired overhead (median of benchmarks) | median run-to-run noise (CV of plain runs) | median A/A difference (plain odd vs even runs) | median paired A/A difference | benchmarks with overhead beyond their noise |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for suite in suites:
    plain = [load(suite, 'plain', i) for i in range(1, runs + 1)]
    box = [load(suite, 'sandbox', i) for i in range(1, runs + 1)]
    names = sorted(set.intersection(*[set(r) for r in plain + box]))
    over, noise, aa, beyond, pair, pair_aa = [], [], [], 0, [], []
    rows = []
    for n in names:
        p = [r[n] for r in plain]; s = [r[n] for r in box]
        o = st.median(s) / st.median(p) - 1
        cv = st.stdev(p) / st.mean(p) if len(p) > 1 else 0
        a = st.median(p[0::2]) / st.median(p[1::2]) - 1 if len(p) > 1 else 0
        over.append(o); noise.append(cv); aa.append(abs(a)); pair.append(paired(p, s)); pair_aa.append(aa_pairs(p))
        if abs(o) > 2 * cv: beyond += 1
        rows.append((n, o, cv, a))
    print(f'| {suite} | {len(names)} | {st.median(over):+.2%} | {st.mean(over):+.2%} | {st.median(pair):+.2%} | {st.median(noise):.2%} | {st.median(aa):.2%} | {st.median(pair_aa):.2%} | {beyond} of {len(names)} (abs. overhead > 2 CV) |')
    with open(f'{out}/{suite}-per-benchmark.md', 'w') as f:
        f.write('| benchmark | sandbox overhead | plain CV | plain A/A |\n| --- | --- | --- | --- |\n')
        for n, o, cv, a in rows: f.write(f'| {n} | {o:+.2%} | {cv:.2%} | {a:+.2%} |\n')
print(f'\nper-benchmark tables: {out}/<suite>-per-benchmark.md')
