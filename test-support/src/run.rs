//! Running a command under test with a time limit.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `command` for at most `limit`, stdin closed and stdout dropped; (exit code, stderr), or a
/// panic naming what ran too long.
pub fn within(command: &mut Command, limit: Duration) -> (Option<i32>, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let started = Instant::now();
    while child.try_wait().expect("the child's status").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?}: still working after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("the child's output");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Run `program ARGS` (for at most a minute) where a file written may be at most `blocks` x 512
/// bytes, with the signal of an overlong write ignored: the write fails as on a full disk ("File
/// too large").
pub fn with_file_limit(program: &str, blocks: u32, args: &[&str]) -> (Option<i32>, String) {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(program)
        .args(args);
    within(&mut command, Duration::from_secs(60))
}

/// Run `program ARGS` with `input` on stdin and stdout on `/dev/full` (every write fails with
/// "No space left on device"); (exit code, stderr).
pub fn with_full_stdout(program: &str, args: &[&str], input: &str) -> (Option<i32>, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg("input=$1; shift; printf '%s' \"$input\" | \"$0\" \"$@\" > /dev/full")
        .arg(program)
        .arg(input)
        .args(args)
        .output()
        .expect("sh starts");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
