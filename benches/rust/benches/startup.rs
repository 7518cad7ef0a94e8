//! Startup latency (RustFiber `startup.rs`): create a pool with N worker threads and a pre-sized queue,
//! run one job through it (so every worker is really up), and shut it down.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use perf_benches::pool::ThreadPool;
use perf_benches::steal::StealPool;

fn startup(c: &mut Criterion) {
    let mut g = c.benchmark_group("startup");
    g.sample_size(30).sampling_mode(SamplingMode::Flat);
    for threads in [1usize, 2, 8] {
        let pct = common::slowdown_for(&format!("startup/threads/{}", threads));
        g.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, &n| {
            common::run(b, pct, || {
                let pool = ThreadPool::new(n, 4096);
                pool.spawn(|| {});
                pool.wait_idle();
                pool.workers()
            })
        });
    }
    let pct = common::slowdown_for("startup/steal_pool/2");
    g.bench_with_input(BenchmarkId::new("steal_pool", 2), &2usize, |b, &n| {
        common::run(b, pct, || {
            let pool = StealPool::new(n);
            pool.run(&[1, 1, 1, 1]).checksum
        })
    });
    g.finish();
}

criterion_group!(benches, startup);
criterion_main!(benches);
