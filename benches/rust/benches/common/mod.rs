//! Shared by every bench file: the timing loop that honours `PERF_SLOWDOWN`.
#![allow(dead_code)]

use criterion::{black_box, Bencher};
use perf_benches::slowdown;
use std::time::Instant;

/// The slowdown percentage for a benchmark id (`group/function[/parameter]`), read once at registration.
pub fn slowdown_for(id: &str) -> f64 {
    slowdown::percent(id)
}

/// Times `routine` like `Bencher::iter`, then spins `pct` percent of the measured time extra.
/// Always goes through `iter_custom`, so the measurement path is the same with and without a slowdown.
#[inline]
pub fn run<O, F: FnMut() -> O>(b: &mut Bencher, pct: f64, mut routine: F) {
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(routine());
        }
        slowdown::stretch(start, pct)
    });
}
