//! CPU time used by a bot's whole process group, read from /proc (Linux): every process whose
//! group is the bot's, every thread of each, the first field of `/proc/PID/task/TID/schedstat`
//! (nanoseconds run on a CPU). Read before a turn's input is sent and after its answer arrives,
//! the difference is the CPU time the bot spent on the turn, whatever the machine's load: a
//! descheduled bot's wall time grows, its CPU time does not. (Threads that ended during the turn
//! are not counted; the bots here keep theirs.)

use std::fs;
use std::time::Duration;

/// CPU time of every thread of every process in process group `group`, or `None` when /proc
/// cannot tell (not Linux, or the group is gone).
pub fn group_cpu_time(group: u32) -> Option<Duration> {
    let mut total = 0u64;
    let mut found = false;
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if process_group(pid) != Some(group) {
            continue;
        }
        found = true;
        total += process_cpu_ns(pid);
    }
    found.then(|| Duration::from_nanos(total))
}

/// The process group of process `pid` (field 5 of /proc/PID/stat, after the parenthesised name,
/// which may itself hold spaces and parentheses).
fn process_group(pid: &str) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(2)?.parse().ok()
}

/// CPU time of every thread of process `pid`, or `None` when /proc cannot tell.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    fs::metadata(format!("/proc/{pid}/task")).ok()?;
    Some(Duration::from_nanos(process_cpu_ns(&pid.to_string())))
}

/// Nanoseconds on a CPU of every thread of process `pid`.
fn process_cpu_ns(pid: &str) -> u64 {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|task| fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::Instant;

    /// A busy loop in its own group gains CPU time about as fast as the wall clock; a sleeping
    /// one gains almost none.
    #[test]
    fn a_spinning_group_gains_cpu_time_and_a_sleeping_one_does_not() {
        if fs::metadata("/proc/self/task").is_err() {
            return; // not Linux: nothing to measure
        }
        let start = |script: &str| {
            Command::new("sh")
                .arg("-c")
                .arg(script)
                .process_group(0)
                .spawn()
                .unwrap()
        };
        let mut spin = start("while :; do :; done");
        let mut sleep = start("sleep 5");
        let (spin_id, sleep_id) = (spin.id(), sleep.id());
        std::thread::sleep(Duration::from_millis(50));
        let (spin0, sleep0) = (group_cpu_time(spin_id), group_cpu_time(sleep_id));
        let wall = Instant::now();
        std::thread::sleep(Duration::from_millis(300));
        let (spin1, sleep1) = (group_cpu_time(spin_id), group_cpu_time(sleep_id));
        let elapsed = wall.elapsed();
        for child in [&mut spin, &mut sleep] {
            // SAFETY: a plain kill(2) of the group this test created; no memory is involved.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.wait();
        }
        let spun = spin1.unwrap() - spin0.unwrap();
        let slept = sleep1.unwrap() - sleep0.unwrap();
        // On a loaded machine the spinner gets less than the wall time, never more.
        assert!(
            spun <= elapsed + Duration::from_millis(20),
            "{spun:?} > {elapsed:?}"
        );
        assert!(
            spun >= Duration::from_millis(10),
            "spinner got only {spun:?}"
        );
        assert!(slept < Duration::from_millis(10), "sleeper got {slept:?}");
        assert_eq!(
            group_cpu_time(spin_id),
            None,
            "a killed group has no CPU time"
        );
    }
}
