//! Context-switch latency (RustFiber `fiber_switch.rs`): resuming a stackless coroutine and getting
//! control back, with and without a little work inside, a cold round trip through the thread pool,
//! and two OS-level baselines (park/unpark ping-pong and a channel round trip between two threads).

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use perf_benches::exec::{yield_now, Coroutine, Executor};
use perf_benches::pool::ThreadPool;
use perf_benches::default_workers;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

fn context_switch(c: &mut Criterion) {
    let mut g = c.benchmark_group("context_switch");

    // Caller -> coroutine -> caller: one resume of a task that does nothing but suspend.
    let pct = common::slowdown_for("context_switch/raw_fiber_switch");
    let mut co = Coroutine::new(async {
        loop {
            yield_now().await;
        }
    });
    g.bench_function("raw_fiber_switch", |b| common::run(b, pct, || co.resume()));

    // The same with a few instructions of work inside the coroutine.
    let pct = common::slowdown_for("context_switch/raw_fiber_with_work");
    let mut co = Coroutine::new(async {
        let mut x: u64 = 1;
        loop {
            x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407));
            yield_now().await;
        }
    });
    g.bench_function("raw_fiber_with_work", |b| common::run(b, pct, || co.resume()));

    // 100 coroutines x 100 suspensions, round-robin on one executor: 10,000 switches per iteration.
    let pct = common::slowdown_for("context_switch/executor_round_robin");
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("executor_round_robin", |b| {
        common::run(b, pct, || {
            let mut ex = Executor::new();
            for _ in 0..100 {
                ex.spawn(async {
                    for _ in 0..100 {
                        yield_now().await;
                    }
                });
            }
            ex.run()
        })
    });

    // Submit one job to an idle pool and wait for it: wake a sleeping worker, run, signal back.
    let pct = common::slowdown_for("context_switch/job_system_cold");
    g.throughput(Throughput::Elements(1));
    let pool = ThreadPool::new(default_workers(), 64);
    g.bench_function("job_system_cold", |b| {
        common::run(b, pct, || {
            let done = Arc::new(AtomicBool::new(false));
            let d = done.clone();
            let me = thread::current();
            pool.spawn(move || {
                d.store(true, Ordering::Release);
                me.unpark();
            });
            while !done.load(Ordering::Acquire) {
                thread::park();
            }
        })
    });
    drop(pool);

    // OS baseline: a round trip of thread::park / unpark between two threads.
    let pct = common::slowdown_for("context_switch/thread_park_pingpong");
    let turn = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let main_thread = thread::current();
    let partner = {
        let (turn, stop) = (turn.clone(), stop.clone());
        thread::spawn(move || loop {
            while turn.load(Ordering::Acquire) != 1 {
                if stop.load(Ordering::Acquire) {
                    return;
                }
                thread::park();
            }
            turn.store(0, Ordering::Release);
            main_thread.unpark();
        })
    };
    g.bench_function("thread_park_pingpong", |b| {
        common::run(b, pct, || {
            turn.store(1, Ordering::Release);
            partner.thread().unpark();
            while turn.load(Ordering::Acquire) != 0 {
                thread::park();
            }
        })
    });
    stop.store(true, Ordering::Release);
    partner.thread().unpark();
    partner.join().unwrap();

    // OS baseline: a value sent to an echo thread and back over std channels.
    let pct = common::slowdown_for("context_switch/channel_roundtrip");
    let (to_echo, echo_in) = mpsc::channel::<u64>();
    let (echo_out, from_echo) = mpsc::channel::<u64>();
    let echo = thread::spawn(move || {
        for v in echo_in {
            if echo_out.send(v + 1).is_err() {
                return;
            }
        }
    });
    let mut v = 0u64;
    g.bench_function("channel_roundtrip", |b| {
        common::run(b, pct, || {
            to_echo.send(v).unwrap();
            v = from_echo.recv().unwrap();
            v
        })
    });
    drop(to_echo);
    echo.join().unwrap();

    g.finish();
}

criterion_group!(benches, context_switch);
criterion_main!(benches);
