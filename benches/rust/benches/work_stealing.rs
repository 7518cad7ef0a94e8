//! Work-stealing stress (RustFiber `work_stealing.rs`): imbalanced jobs (every 16th is 50x heavier), all
//! queued on one worker, so the others have to steal to finish.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use perf_benches::default_workers;
use perf_benches::steal::{imbalanced_costs, StealPool};

fn work_stealing(c: &mut Criterion) {
    let pool = StealPool::new(default_workers());
    let mut g = c.benchmark_group("work_stealing");
    // Flat sampling: criterion's default linear sampling needs 5,050 iterations for 100 samples (45 s at 9 ms).
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
    for n in [1_000usize, 10_000, 100_000] {
        let costs = imbalanced_costs(n);
        g.throughput(Throughput::Elements(n as u64));
        let pct = common::slowdown_for(&format!("work_stealing/imbalanced/{}", n));
        g.bench_with_input(BenchmarkId::new("imbalanced", n), &costs, |b, costs| {
            common::run(b, pct, || pool.run(costs).checksum)
        });
    }
    g.finish();
}

criterion_group!(benches, work_stealing);
criterion_main!(benches);
