//! A minimal stackless coroutine executor. A task is a type-erased `Future` (the compiler turns an
//! `async` block into a state machine); resuming it is one `poll`, and [`yield_now`] suspends it back to
//! the caller. Resume + suspend is the stackless analogue of a fiber context switch.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

fn noop_raw_waker() -> RawWaker {
    fn clone(_: *const ()) -> RawWaker {
        noop_raw_waker()
    }
    fn noop(_: *const ()) {}
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
    RawWaker::new(std::ptr::null(), &VTABLE)
}

/// A waker that does nothing: the executors here re-queue a pending task themselves.
pub fn noop_waker() -> Waker {
    // SAFETY: the vtable's functions ignore the (null) data pointer and uphold the RawWaker contract.
    unsafe { Waker::from_raw(noop_raw_waker()) }
}

/// Suspends the current task once: the first poll returns `Pending`, the next `Ready`.
pub struct YieldNow {
    yielded: bool,
}

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            Poll::Ready(())
        } else {
            self.yielded = true;
            Poll::Pending
        }
    }
}

/// Gives control back to whoever resumed the task.
pub fn yield_now() -> YieldNow {
    YieldNow { yielded: false }
}

type BoxedTask = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// One coroutine that the caller resumes by hand: [`Coroutine::resume`] runs it to its next suspension.
pub struct Coroutine {
    task: Option<BoxedTask>,
    waker: Waker,
}

impl Coroutine {
    pub fn new<F: Future<Output = ()> + Send + 'static>(f: F) -> Self {
        Coroutine { task: Some(Box::pin(f)), waker: noop_waker() }
    }

    /// Switches into the coroutine and back. Returns false once it has finished.
    #[inline]
    pub fn resume(&mut self) -> bool {
        let done = match self.task.as_mut() {
            None => return false,
            Some(task) => {
                let mut cx = Context::from_waker(&self.waker);
                task.as_mut().poll(&mut cx).is_ready()
            }
        };
        if done {
            self.task = None;
        }
        !done
    }
}

/// A round-robin executor over many coroutines on one thread: each turn resumes the task at the front
/// and re-queues it if it suspended.
pub struct Executor {
    ready: VecDeque<BoxedTask>,
    waker: Waker,
    switches: u64,
}

impl Default for Executor {
    fn default() -> Self {
        Self::new()
    }
}

impl Executor {
    pub fn new() -> Self {
        Executor { ready: VecDeque::new(), waker: noop_waker(), switches: 0 }
    }

    pub fn spawn<F: Future<Output = ()> + Send + 'static>(&mut self, f: F) {
        self.ready.push_back(Box::pin(f));
    }

    /// Runs every task to completion; returns the number of resumes (context switches) it took.
    pub fn run(&mut self) -> u64 {
        let start = self.switches;
        let mut cx = Context::from_waker(&self.waker);
        while let Some(mut task) = self.ready.pop_front() {
            self.switches += 1;
            if task.as_mut().poll(&mut cx).is_pending() {
                self.ready.push_back(task);
            }
        }
        self.switches - start
    }

    pub fn len(&self) -> usize {
        self.ready.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn coroutine_yields_and_finishes() {
        let hits = Arc::new(AtomicUsize::new(0));
        let h = hits.clone();
        let mut co = Coroutine::new(async move {
            for _ in 0..3 {
                h.fetch_add(1, Ordering::Relaxed);
                yield_now().await;
            }
        });
        let mut resumes = 0;
        while co.resume() {
            resumes += 1;
        }
        assert_eq!(resumes, 3);
        assert_eq!(hits.load(Ordering::Relaxed), 3);
        assert!(!co.resume());
    }

    #[test]
    fn executor_round_robin() {
        let mut ex = Executor::new();
        for _ in 0..10 {
            ex.spawn(async {
                yield_now().await;
                yield_now().await;
            });
        }
        assert_eq!(ex.run(), 30);
        assert!(ex.is_empty());
    }
}
