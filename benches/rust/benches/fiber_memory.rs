//! Memory per fiber (RustFiber's "< 256 KB, reasonable pool sizes" target). Not a timing, so not a criterion
//! benchmark: a counting global allocator measures the heap that N suspended coroutines hold (each parked
//! mid-body with a small frame of live state, the way a fiber waits on a job), repeated a few times. The result is
//! written as PerfService generic JSON to target/perf/fiber_memory.json, which perf.json lists as an extra output
//! of the `fibers` suite, so it is uploaded and ingested with criterion's files. Criterion's arguments (filters,
//! --warm-up-time…) are ignored: the measurement takes well under a second.

use perf_benches::exec::{yield_now, Coroutine};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const FIBERS: usize = 100_000;
const REPEATS: usize = 5;

/// Bytes per suspended fiber: live heap with FIBERS coroutines parked at their first yield, over FIBERS.
fn measure() -> f64 {
    let mut fibers: Vec<Coroutine> = Vec::with_capacity(FIBERS);
    let before = LIVE.load(Ordering::Relaxed);
    for i in 0..FIBERS {
        let mut fiber = Coroutine::new(async move {
            // State that lives across the suspension point, as a job's locals would.
            let scratch = [i as u64; 8];
            yield_now().await;
            std::hint::black_box(scratch);
        });
        fiber.resume();
        fibers.push(fiber);
    }
    // The Vec of handles is the pool's bookkeeping; it was allocated before `before` and counts per fiber too.
    let per_fiber = (LIVE.load(Ordering::Relaxed) - before) as f64 / FIBERS as f64
        + std::mem::size_of::<Coroutine>() as f64;
    for fiber in fibers.iter_mut() {
        while fiber.resume() {}
    }
    per_fiber
}

fn main() {
    let samples: Vec<f64> = (0..REPEATS).map(|_| measure()).collect();
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("perf");
    fs::create_dir_all(&out).expect("create target/perf");
    let list: Vec<String> = samples.iter().map(|s| format!("{:.1}", s)).collect();
    let json = format!(
        "{{\"results\":[{{\"benchmark\":\"memory/per_fiber\",\"parameters\":{{\"fibers\":{}}},\"measure\":\"memory\",\"unit\":\"B\",\"direction\":\"lower_is_better\",\"samples\":[{}]}}]}}\n",
        FIBERS,
        list.join(",")
    );
    let path = out.join("fiber_memory.json");
    fs::write(&path, json).expect("write fiber_memory.json");
    println!("memory/per_fiber (fibers={}): {} B per suspended fiber [{}] -> {}", FIBERS, list[0], list.join(", "), path.display());
}
