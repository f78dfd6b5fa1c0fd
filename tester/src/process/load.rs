//! A warning for timed runs on a busy machine: answer times, timeouts and anytime solvers' results
//! all depend on the CPU a run gets, and a run during a build looked like a weak or late bot. One
//! line on stderr, at most once per run: when the load average is above the cores as the run
//! starts, or when a time budget was overrun.

use std::sync::atomic::{AtomicBool, Ordering};

static WARNED: AtomicBool = AtomicBool::new(false);

/// The 1-minute load average (`/proc/loadavg`), if the system tells it.
pub fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The warning for a load average `load` on `cores` cores, if it is over them.
fn busy(load: f64, cores: usize) -> Option<String> {
    (load > cores as f64).then(|| {
        format!(
            "load average {load:.2} on {cores} cores: timed results (answer times, timeouts, \
             what a budget buys) are not those of a quiet machine"
        )
    })
}

fn warn_once(message: &str) {
    if !WARNED.swap(true, Ordering::SeqCst) {
        eprintln!("warning: {message}");
    }
}

/// Call as a timed run starts: warns when the machine is already busier than its cores.
pub fn warn_if_busy() {
    if let Some(message) = load_average().and_then(|load| busy(load, cores())) {
        warn_once(&message);
    }
}

/// Call when a time budget was overrun (`what`, e.g. "3 answers over the time limit"): warns,
/// with the load average, unless the run already warned.
pub fn warn_overrun(what: &str) {
    let load = load_average().map_or(String::new(), |l| {
        format!(" (load average {l:.2} on {} cores)", cores())
    });
    warn_once(&format!(
        "{what}{load}: on a busy machine a time budget buys less"
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_load_above_the_cores_is_busy() {
        assert_eq!(busy(2.0, 2), None);
        assert_eq!(busy(0.3, 1), None);
        let warning = busy(3.5, 2).unwrap();
        assert!(
            warning.starts_with("load average 3.50 on 2 cores"),
            "{warning}"
        );
        assert!(
            load_average().is_some_and(|l| l >= 0.0),
            "Linux tells the load"
        );
    }
}
