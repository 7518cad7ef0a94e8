//! `PERF_SLOWDOWN=name=percent[,name=percent...]` makes the named benchmarks slower by about that
//! percentage, so that a demo or an end-to-end test can plant a regression of known size.
//!
//! A name matches a criterion benchmark id `group/function[/parameter]` when it equals the whole id,
//! its `group/function` prefix, the group alone, or the function alone: `raw_fiber_switch=30`,
//! `context_switch=30` (the whole group) and `work_stealing/imbalanced=20` all work.
//!
//! The extra time is added inside the timed region after the real work, proportional to the time the real
//! work took, so the measured time rises by `percent` whatever the iteration count: a sleep for all but the
//! last 0.5 ms, then a spin. (Spinning alone overshoots on a busy machine: a thread that burns its whole time
//! slice is descheduled and resumes milliseconds late.)

use std::time::{Duration, Instant};

/// Parses the switch's text. Entries are separated by `,` or `;`; each is `name=percent` (percent may be
/// fractional, and a trailing `%` is accepted). Malformed entries are ignored.
pub fn parse(spec: &str) -> Vec<(String, f64)> {
    spec.split(|c| c == ',' || c == ';')
        .filter_map(|entry| {
            let mut parts = entry.splitn(2, '=');
            let name = parts.next()?.trim();
            let pct = parts.next()?.trim().trim_end_matches('%').trim();
            let pct: f64 = pct.parse().ok()?;
            if name.is_empty() || !pct.is_finite() || pct <= 0.0 {
                return None;
            }
            Some((name.to_string(), pct))
        })
        .collect()
}

/// The percentage for a benchmark id under the given entries (the first matching entry wins), or 0.
pub fn percent_in(entries: &[(String, f64)], id: &str) -> f64 {
    let segments: Vec<&str> = id.split('/').collect();
    let group_function = if segments.len() >= 2 { Some(format!("{}/{}", segments[0], segments[1])) } else { None };
    for (name, pct) in entries {
        if name == id
            || group_function.as_deref() == Some(name.as_str())
            || segments.first() == Some(&name.as_str())
            || (segments.len() >= 2 && segments[1] == name.as_str())
        {
            return *pct;
        }
    }
    0.0
}

/// The percentage `PERF_SLOWDOWN` asks for the benchmark id, or 0.
pub fn percent(id: &str) -> f64 {
    match std::env::var("PERF_SLOWDOWN") {
        Ok(spec) => {
            let pct = percent_in(&parse(&spec), id);
            if pct > 0.0 {
                eprintln!("PERF_SLOWDOWN: {} slowed down by {}%", id, pct);
            }
            pct
        }
        Err(_) => 0.0,
    }
}

/// Waits from `start` until `work * (1 + pct/100)` has passed, where `work` is the time since `start`.
/// Returns the total time since `start`.
#[inline]
pub fn stretch(start: Instant, pct: f64) -> Duration {
    let work = start.elapsed();
    if pct <= 0.0 {
        return work;
    }
    let target = work.mul_f64(1.0 + pct / 100.0);
    let spin_tail = Duration::from_micros(500);
    let extra = target - work;
    if extra > spin_tail * 2 {
        std::thread::sleep(extra - spin_tail);
    }
    loop {
        let now = start.elapsed();
        if now >= target {
            return now;
        }
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_matches() {
        let e = parse("raw_fiber_switch=30, work_stealing/imbalanced=20;startup=5%,bad,x=abc");
        assert_eq!(e.len(), 3);
        assert_eq!(percent_in(&e, "context_switch/raw_fiber_switch"), 30.0);
        assert_eq!(percent_in(&e, "context_switch/raw_fiber_with_work"), 0.0);
        assert_eq!(percent_in(&e, "work_stealing/imbalanced/1000"), 20.0);
        assert_eq!(percent_in(&e, "startup/threads/2"), 5.0);
        assert_eq!(percent_in(&e, "throughput/spawn_1m_jobs"), 0.0);
    }

    #[test]
    fn stretch_adds_time() {
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(2) {}
        let total = stretch(start, 50.0);
        assert!(total >= Duration::from_millis(3));
    }
}
