//! A work-stealing pool: one `Mutex<VecDeque>` per worker. A worker pops its own deque from the back
//! (LIFO, cache-warm) and, when it runs dry, steals half of a victim's deque from the front (FIFO, the
//! oldest and usually largest work). Jobs here are CPU costs (`busy_work` rounds), which is what an
//! imbalanced-load stress needs; [`StealPool::run`] puts every job on worker 0 so the others must steal.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use crate::busy_work;

/// Jobs a worker runs before it publishes its progress to the shared counter.
const FLUSH_EVERY: usize = 32;

struct Shared {
    deques: Vec<Mutex<VecDeque<u32>>>,
    remaining: AtomicUsize,
    epoch: Mutex<u64>,
    start_cv: Condvar,
    done_lock: Mutex<()>,
    done_cv: Condvar,
    shutdown: AtomicBool,
    checksum: AtomicU64,
    steals: AtomicU64,
}

pub struct StealPool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

/// What one [`StealPool::run`] did.
#[derive(Debug, Clone, Copy)]
pub struct RunStats {
    pub checksum: u64,
    pub steals: u64,
}

impl StealPool {
    pub fn new(workers: usize) -> Self {
        let workers = workers.max(1);
        let shared = Arc::new(Shared {
            deques: (0..workers).map(|_| Mutex::new(VecDeque::new())).collect(),
            remaining: AtomicUsize::new(0),
            epoch: Mutex::new(0),
            start_cv: Condvar::new(),
            done_lock: Mutex::new(()),
            done_cv: Condvar::new(),
            shutdown: AtomicBool::new(false),
            checksum: AtomicU64::new(0),
            steals: AtomicU64::new(0),
        });
        let threads = (0..workers)
            .map(|id| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("steal-worker-{}", id))
                    .spawn(move || worker(id, &shared))
                    .expect("spawn worker thread")
            })
            .collect();
        StealPool { shared, threads }
    }

    pub fn workers(&self) -> usize {
        self.threads.len()
    }

    /// Runs one job per entry of `costs` (each `busy_work` with that many rounds), all initially queued on
    /// worker 0, and blocks until all have run.
    pub fn run(&self, costs: &[u32]) -> RunStats {
        if costs.is_empty() {
            return RunStats { checksum: 0, steals: 0 };
        }
        let s = &self.shared;
        s.checksum.store(0, Ordering::Relaxed);
        s.steals.store(0, Ordering::Relaxed);
        s.remaining.store(costs.len(), Ordering::Release);
        s.deques[0].lock().unwrap().extend(costs.iter().copied());
        {
            let mut e = s.epoch.lock().unwrap();
            *e += 1;
        }
        s.start_cv.notify_all();
        let mut guard = s.done_lock.lock().unwrap();
        while s.remaining.load(Ordering::Acquire) != 0 {
            guard = s.done_cv.wait(guard).unwrap();
        }
        drop(guard);
        RunStats { checksum: s.checksum.load(Ordering::Acquire), steals: s.steals.load(Ordering::Relaxed) }
    }
}

fn worker(id: usize, s: &Shared) {
    let n = s.deques.len();
    let mut seen = 0u64;
    let mut loot: Vec<u32> = Vec::new();
    loop {
        {
            let mut e = s.epoch.lock().unwrap();
            while *e == seen && !s.shutdown.load(Ordering::Acquire) {
                e = s.start_cv.wait(e).unwrap();
            }
            if s.shutdown.load(Ordering::Acquire) {
                return;
            }
            seen = *e;
        }
        let mut sum = 0u64;
        let mut unflushed = 0usize;
        let mut idle_spins = 0u32;
        loop {
            let job = s.deques[id].lock().unwrap().pop_back();
            if let Some(cost) = job {
                sum = sum.wrapping_add(busy_work(cost as u64, cost));
                unflushed += 1;
                if unflushed >= FLUSH_EVERY {
                    flush(s, &mut unflushed, &mut sum);
                }
                continue;
            }
            flush(s, &mut unflushed, &mut sum);
            if s.remaining.load(Ordering::Acquire) == 0 {
                break;
            }
            // Steal half of the first non-empty victim's deque, starting with the next worker.
            for k in 1..n {
                let victim = (id + k) % n;
                let mut q = s.deques[victim].lock().unwrap();
                let take = (q.len() + 1) / 2;
                if take > 0 {
                    loot.extend(q.drain(..take));
                    break;
                }
            }
            if !loot.is_empty() {
                s.steals.fetch_add(1, Ordering::Relaxed);
                s.deques[id].lock().unwrap().extend(loot.drain(..));
                idle_spins = 0;
            } else {
                idle_spins += 1;
                if idle_spins < 64 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
}

/// Publishes a worker's finished jobs: their checksum first, then the count, so that `run` sees the
/// whole checksum once `remaining` reaches zero.
fn flush(s: &Shared, unflushed: &mut usize, sum: &mut u64) {
    if *unflushed == 0 {
        return;
    }
    s.checksum.fetch_add(*sum, Ordering::AcqRel);
    *sum = 0;
    let n = *unflushed;
    *unflushed = 0;
    if s.remaining.fetch_sub(n, Ordering::AcqRel) == n {
        let _g = s.done_lock.lock().unwrap();
        s.done_cv.notify_all();
    }
}

impl Drop for StealPool {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::Release);
        {
            let _e = self.shared.epoch.lock().unwrap();
        }
        self.shared.start_cv.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// An imbalanced workload: most jobs are light, every 16th is 50× heavier, in a fixed pattern.
pub fn imbalanced_costs(n: usize) -> Vec<u32> {
    (0..n).map(|i| if i % 16 == 0 { 1000 } else { 20 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_all_and_steals() {
        let pool = StealPool::new(3);
        let costs = imbalanced_costs(5000);
        let expected = costs.iter().fold(0u64, |a, &c| a.wrapping_add(busy_work(c as u64, c)));
        for _ in 0..5 {
            assert_eq!(pool.run(&costs).checksum, expected);
        }
        let stats = pool.run(&costs);
        assert!(stats.steals > 0);
    }
}
