//! A bounded single-producer/single-consumer ring buffer with atomics only (no locks). Capacity is a
//! power of two; `head` (next slot to read) and `tail` (next slot to write) grow without bound and are
//! masked on access. Each side caches the other side's index and re-reads it only when the cache says
//! the ring is full (producer) or empty (consumer).

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[repr(align(64))]
struct CachePadded<T>(T);

struct Ring<T> {
    slots: Box<[UnsafeCell<MaybeUninit<T>>]>,
    mask: usize,
    head: CachePadded<AtomicUsize>,
    tail: CachePadded<AtomicUsize>,
}

// SAFETY: a slot is written only by the producer while it is outside [head, tail) and read only by the
// consumer while it is inside; the Release/Acquire pairs on head and tail order those accesses.
unsafe impl<T: Send> Send for Ring<T> {}
unsafe impl<T: Send> Sync for Ring<T> {}

impl<T> Drop for Ring<T> {
    fn drop(&mut self) {
        let head = self.head.0.load(Ordering::Relaxed);
        let tail = self.tail.0.load(Ordering::Relaxed);
        for i in head..tail {
            // SAFETY: slots in [head, tail) hold initialised values nobody else will read.
            unsafe { (*self.slots[i & self.mask].get()).as_mut_ptr().drop_in_place() };
        }
    }
}

pub struct Producer<T> {
    ring: Arc<Ring<T>>,
    tail: usize,
    cached_head: usize,
}

pub struct Consumer<T> {
    ring: Arc<Ring<T>>,
    head: usize,
    cached_tail: usize,
}

/// A ring of at least `capacity` slots (rounded up to a power of two, minimum 2).
pub fn channel<T: Send>(capacity: usize) -> (Producer<T>, Consumer<T>) {
    let cap = capacity.max(2).next_power_of_two();
    let slots = (0..cap).map(|_| UnsafeCell::new(MaybeUninit::uninit())).collect::<Vec<_>>().into_boxed_slice();
    let ring = Arc::new(Ring {
        slots,
        mask: cap - 1,
        head: CachePadded(AtomicUsize::new(0)),
        tail: CachePadded(AtomicUsize::new(0)),
    });
    (Producer { ring: ring.clone(), tail: 0, cached_head: 0 }, Consumer { ring, head: 0, cached_tail: 0 })
}

impl<T: Send> Producer<T> {
    pub fn capacity(&self) -> usize {
        self.ring.mask + 1
    }

    /// Queues `value`, or gives it back when the ring is full.
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), T> {
        let cap = self.ring.mask + 1;
        if self.tail - self.cached_head == cap {
            self.cached_head = self.ring.head.0.load(Ordering::Acquire);
            if self.tail - self.cached_head == cap {
                return Err(value);
            }
        }
        // SAFETY: the slot is outside [head, tail), so the consumer does not touch it.
        unsafe { (*self.ring.slots[self.tail & self.ring.mask].get()).as_mut_ptr().write(value) };
        self.tail += 1;
        self.ring.tail.0.store(self.tail, Ordering::Release);
        Ok(())
    }

    /// Queues `value`, spinning (then yielding) while the ring is full.
    #[inline]
    pub fn push(&mut self, mut value: T) {
        let mut spins = 0u32;
        loop {
            match self.try_push(value) {
                Ok(()) => return,
                Err(v) => {
                    value = v;
                    backoff(&mut spins);
                }
            }
        }
    }
}

impl<T: Send> Consumer<T> {
    /// Takes the oldest value, or None when the ring is empty.
    #[inline]
    pub fn try_pop(&mut self) -> Option<T> {
        if self.head == self.cached_tail {
            self.cached_tail = self.ring.tail.0.load(Ordering::Acquire);
            if self.head == self.cached_tail {
                return None;
            }
        }
        // SAFETY: the slot is inside [head, tail): initialised, and the producer does not touch it.
        let value = unsafe { (*self.ring.slots[self.head & self.ring.mask].get()).as_ptr().read() };
        self.head += 1;
        self.ring.head.0.store(self.head, Ordering::Release);
        Some(value)
    }

    /// Takes the oldest value, spinning (then yielding) while the ring is empty.
    #[inline]
    pub fn pop(&mut self) -> T {
        let mut spins = 0u32;
        loop {
            if let Some(v) = self.try_pop() {
                return v;
            }
            backoff(&mut spins);
        }
    }
}

#[inline]
fn backoff(spins: &mut u32) {
    *spins += 1;
    if *spins < 100 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_across_threads() {
        let (mut p, mut c) = channel::<u64>(64);
        let n = 200_000u64;
        let t = std::thread::spawn(move || {
            for i in 0..n {
                p.push(i);
            }
        });
        for i in 0..n {
            assert_eq!(c.pop(), i);
        }
        t.join().unwrap();
        assert!(c.try_pop().is_none());
    }

    #[test]
    fn full_and_drop() {
        let (mut p, mut c) = channel::<String>(2);
        assert!(p.try_push("a".into()).is_ok());
        assert!(p.try_push("b".into()).is_ok());
        assert!(p.try_push("c".into()).is_err());
        assert_eq!(c.try_pop().as_deref(), Some("a"));
        assert!(p.try_push("d".into()).is_ok());
        drop(p);
        drop(c); // drops "b" and "d"
    }
}
