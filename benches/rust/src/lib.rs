//! Small, self-contained runtime pieces that the criterion suites in `benches/` measure. They stand in
//! for the parts of a fiber job system (RustFiber) that its benchmarks exercise:
//!
//! * [`exec`]: a stackless coroutine / state-machine task executor (the "raw fiber switch"),
//! * [`pool`]: a thread pool with a shared injector queue (job spawning throughput, startup, round trips),
//! * [`steal`]: a work-stealing pool with one mutex-protected `VecDeque` per worker,
//! * [`spsc`]: a bounded single-producer/single-consumer lock-free ring buffer,
//! * [`slowdown`]: the `PERF_SLOWDOWN` switch that plants a known regression in a named benchmark.
//!
//! Kept to what Rust 1.63 (Debian 12's rustc) accepts.

pub mod exec;
pub mod pool;
pub mod slowdown;
pub mod spsc;
pub mod steal;

/// A cheap, data-dependent unit of CPU work the compiler cannot fold away: `rounds` steps of an
/// xorshift-multiply mix. Used to give jobs a cost.
#[inline]
pub fn busy_work(seed: u64, rounds: u32) -> u64 {
    let mut x = seed | 1;
    for _ in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
    }
    x
}

/// The number of worker threads the "default" configurations use: the machine's parallelism, at least 2.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).max(2)
}
