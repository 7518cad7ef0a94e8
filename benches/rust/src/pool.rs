//! A thread pool with one shared injector queue (`Mutex<VecDeque>` + `Condvar`). Workers take jobs in
//! batches to keep lock traffic low; idle workers sleep on the condvar. [`ThreadPool::wait_idle`] blocks
//! until every submitted job has run.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// How many queued jobs a worker takes per lock acquisition.
const TAKE: usize = 256;

struct Queue {
    jobs: VecDeque<Job>,
    sleepers: usize,
    shutdown: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    work_cv: Condvar,
    /// Jobs submitted and not yet finished.
    pending: AtomicUsize,
    /// Jobs in the queue (a hint read without the lock by workers deciding whether to sleep).
    queued: AtomicUsize,
    idle_lock: Mutex<()>,
    idle_cv: Condvar,
    panicked: AtomicBool,
}

pub struct ThreadPool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl ThreadPool {
    /// Starts `workers` threads (at least 1). `queue_capacity` pre-sizes the injector queue.
    pub fn new(workers: usize, queue_capacity: usize) -> Self {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { jobs: VecDeque::with_capacity(queue_capacity), sleepers: 0, shutdown: false }),
            work_cv: Condvar::new(),
            pending: AtomicUsize::new(0),
            queued: AtomicUsize::new(0),
            idle_lock: Mutex::new(()),
            idle_cv: Condvar::new(),
            panicked: AtomicBool::new(false),
        });
        let workers = (0..workers.max(1))
            .map(|i| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("pool-worker-{}", i))
                    .spawn(move || worker_loop(&shared))
                    .expect("spawn worker thread")
            })
            .collect();
        ThreadPool { shared, workers }
    }

    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Queues one job.
    pub fn spawn<F: FnOnce() + Send + 'static>(&self, f: F) {
        self.shared.pending.fetch_add(1, Ordering::Relaxed);
        let wake = {
            let mut q = self.shared.queue.lock().unwrap();
            q.jobs.push_back(Box::new(f));
            self.shared.queued.store(q.jobs.len(), Ordering::Release);
            q.sleepers > 0
        };
        if wake {
            self.shared.work_cv.notify_one();
        }
    }

    /// Queues many jobs, taking the queue lock once per chunk of `chunk` jobs.
    pub fn spawn_batch<I>(&self, jobs: I, chunk: usize)
    where
        I: IntoIterator,
        I::Item: FnOnce() + Send + 'static,
    {
        let chunk = chunk.max(1);
        let mut buf: Vec<Job> = Vec::with_capacity(chunk);
        let mut it = jobs.into_iter();
        loop {
            buf.clear();
            for job in it.by_ref().take(chunk) {
                buf.push(Box::new(job));
            }
            if buf.is_empty() {
                break;
            }
            self.shared.pending.fetch_add(buf.len(), Ordering::Relaxed);
            let sleepers = {
                let mut q = self.shared.queue.lock().unwrap();
                q.jobs.extend(buf.drain(..));
                self.shared.queued.store(q.jobs.len(), Ordering::Release);
                q.sleepers
            };
            if sleepers > 1 {
                self.shared.work_cv.notify_all();
            } else if sleepers == 1 {
                self.shared.work_cv.notify_one();
            }
        }
    }

    /// Blocks until every job submitted so far has finished.
    pub fn wait_idle(&self) {
        if self.shared.pending.load(Ordering::Acquire) == 0 {
            return;
        }
        // Spin briefly: most waits in the benchmarks are short.
        for _ in 0..2000 {
            if self.shared.pending.load(Ordering::Acquire) == 0 {
                return;
            }
            std::hint::spin_loop();
        }
        let mut guard = self.shared.idle_lock.lock().unwrap();
        while self.shared.pending.load(Ordering::Acquire) != 0 {
            guard = self.shared.idle_cv.wait(guard).unwrap();
        }
        assert!(!self.shared.panicked.load(Ordering::Relaxed), "a job panicked");
    }
}

/// How long (in polls of the `queued` hint) an idle worker keeps looking before it goes to sleep.
const IDLE_POLLS: u32 = 100;

fn worker_loop(shared: &Shared) {
    let mut local: Vec<Job> = Vec::with_capacity(TAKE);
    loop {
        {
            let mut q = shared.queue.lock().unwrap();
            let mut polls = 0u32;
            loop {
                if !q.jobs.is_empty() {
                    let n = q.jobs.len().min(TAKE);
                    local.extend(q.jobs.drain(..n));
                    shared.queued.store(q.jobs.len(), Ordering::Release);
                    break;
                }
                if q.shutdown {
                    return;
                }
                if polls < IDLE_POLLS {
                    // Stay awake a little: a producer spawning one job at a time would otherwise pay a
                    // futex wake-up per job.
                    drop(q);
                    while polls < IDLE_POLLS && shared.queued.load(Ordering::Acquire) == 0 {
                        polls += 1;
                        if polls % 16 == 0 {
                            std::thread::yield_now();
                        } else {
                            std::hint::spin_loop();
                        }
                    }
                    polls += 1;
                    q = shared.queue.lock().unwrap();
                    continue;
                }
                q.sleepers += 1;
                q = shared.work_cv.wait(q).unwrap();
                q.sleepers -= 1;
                polls = 0;
            }
        }
        let n = local.len();
        for job in local.drain(..) {
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                shared.panicked.store(true, Ordering::Relaxed);
            }
        }
        if shared.pending.fetch_sub(n, Ordering::AcqRel) == n {
            let _guard = shared.idle_lock.lock().unwrap();
            shared.idle_cv.notify_all();
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.shared.queue.lock().unwrap().shutdown = true;
        self.shared.work_cv.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_every_job() {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let pool = ThreadPool::new(3, 16);
        for _ in 0..10_000 {
            pool.spawn(|| {
                COUNT.fetch_add(1, Ordering::Relaxed);
            });
        }
        pool.wait_idle();
        assert_eq!(COUNT.load(Ordering::Relaxed), 10_000);
        pool.spawn_batch((0..5000).map(|_| || {
            COUNT.fetch_add(1, Ordering::Relaxed);
        }), 100);
        pool.wait_idle();
        assert_eq!(COUNT.load(Ordering::Relaxed), 15_000);
    }
}
