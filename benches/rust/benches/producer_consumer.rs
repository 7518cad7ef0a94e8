//! Producer/consumer over a lock-free queue (RustFiber `producer_consumer.rs`): a producer thread pushes N
//! items through the bounded SPSC ring (`items/N`) and, as a baseline, through std's bounded
//! `sync_channel` (`std_sync_channel/N`); the benchmark thread consumes them. Producer threads live for
//! the whole group and are told how many items to send per iteration.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use perf_benches::spsc;
use std::sync::mpsc;
use std::thread;

const RING_CAPACITY: usize = 1024;

fn producer_consumer(c: &mut Criterion) {
    let mut g = c.benchmark_group("producer_consumer");
    // Flat sampling: linear sampling of a 6 ms iteration needs 5,050 iterations (30 s) for 100 samples.
    g.sample_size(20).sampling_mode(SamplingMode::Flat);

    // SPSC ring.
    let (cmd, cmd_rx) = mpsc::channel::<u64>();
    let (mut producer, mut consumer) = spsc::channel::<u64>(RING_CAPACITY);
    let feeder = thread::spawn(move || {
        for n in cmd_rx {
            for i in 0..n {
                producer.push(i);
            }
        }
    });
    for n in [10_000u64, 100_000, 500_000] {
        g.throughput(Throughput::Elements(n));
        let pct = common::slowdown_for(&format!("producer_consumer/items/{}", n));
        g.bench_with_input(BenchmarkId::new("items", n), &n, |b, &n| {
            common::run(b, pct, || {
                cmd.send(n).unwrap();
                let mut sum = 0u64;
                for _ in 0..n {
                    sum = sum.wrapping_add(consumer.pop());
                }
                sum
            })
        });
    }
    drop(cmd);
    feeder.join().unwrap();

    // Baseline: std::sync::mpsc::sync_channel with the same capacity.
    let (cmd, cmd_rx) = mpsc::channel::<u64>();
    let (tx, rx) = mpsc::sync_channel::<u64>(RING_CAPACITY);
    let feeder = thread::spawn(move || {
        for n in cmd_rx {
            for i in 0..n {
                tx.send(i).unwrap();
            }
        }
    });
    for n in [10_000u64, 100_000, 500_000] {
        g.throughput(Throughput::Elements(n));
        let pct = common::slowdown_for(&format!("producer_consumer/std_sync_channel/{}", n));
        g.bench_with_input(BenchmarkId::new("std_sync_channel", n), &n, |b, &n| {
            common::run(b, pct, || {
                cmd.send(n).unwrap();
                let mut sum = 0u64;
                for _ in 0..n {
                    sum = sum.wrapping_add(rx.recv().unwrap());
                }
                sum
            })
        });
    }
    drop(cmd);
    feeder.join().unwrap();

    g.finish();
}

criterion_group!(benches, producer_consumer);
criterion_main!(benches);
