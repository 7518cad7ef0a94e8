//! Job throughput (RustFiber `throughput.rs` and `latency.rs`): spawning a million small jobs that bump a
//! shared counter, one `spawn` per job and in batches, the same across 1/2/4 worker threads, and
//! per-batch scheduling latency.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use perf_benches::default_workers;
use perf_benches::pool::ThreadPool;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Spawns `n` jobs one by one; each captures the counter and its index (so it is a real boxed closure).
fn spawn_each(pool: &ThreadPool, n: usize) -> usize {
    let counter: &'static AtomicUsize = &COUNTER;
    for i in 0..n {
        pool.spawn(move || {
            counter.fetch_add(1 + (i & 0), Ordering::Relaxed);
        });
    }
    pool.wait_idle();
    counter.load(Ordering::Relaxed)
}

fn spawn_batched(pool: &ThreadPool, n: usize) -> usize {
    let counter: &'static AtomicUsize = &COUNTER;
    pool.spawn_batch(
        (0..n).map(|i| {
            move || {
                counter.fetch_add(1 + (i & 0), Ordering::Relaxed);
            }
        }),
        1024,
    );
    pool.wait_idle();
    counter.load(Ordering::Relaxed)
}

const MILLION: usize = 1_000_000;

fn throughput(c: &mut Criterion) {
    let pool = ThreadPool::new(default_workers(), MILLION);

    let mut g = c.benchmark_group("throughput");
    g.sample_size(10).sampling_mode(SamplingMode::Flat).throughput(Throughput::Elements(MILLION as u64));
    let pct = common::slowdown_for("throughput/spawn_1m_jobs");
    g.bench_function("spawn_1m_jobs", |b| common::run(b, pct, || spawn_each(&pool, MILLION)));
    let pct = common::slowdown_for("throughput/spawn_1m_jobs_batched");
    g.bench_function("spawn_1m_jobs_batched", |b| common::run(b, pct, || spawn_batched(&pool, MILLION)));
    g.finish();

    let mut g = c.benchmark_group("throughput_scaling");
    g.sample_size(10).sampling_mode(SamplingMode::Flat).throughput(Throughput::Elements(MILLION as u64));
    for threads in [1usize, 2, 4] {
        let scaled = ThreadPool::new(threads, MILLION);
        let pct = common::slowdown_for(&format!("throughput_scaling/spawn_1m/{}", threads));
        g.bench_with_input(BenchmarkId::new("spawn_1m", threads), &threads, |b, _| {
            common::run(b, pct, || spawn_each(&scaled, MILLION))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("scheduling_latency");
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
    for batch in [100usize, 1_000, 10_000, 100_000] {
        g.throughput(Throughput::Elements(batch as u64));
        let pct = common::slowdown_for(&format!("scheduling_latency/batch/{}", batch));
        g.bench_with_input(BenchmarkId::new("batch", batch), &batch, |b, &n| {
            common::run(b, pct, || spawn_each(&pool, n))
        });
    }
    g.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
