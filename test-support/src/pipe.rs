//! Running a command whose stdout is a pipe nobody reads (`cmd | head -0`), to check it ends
//! quietly, as Unix tools do.

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// Run `command` with stdout a pipe whose reading end is already closed; return how it ended
/// (the signal that killed it, if one did; else its exit code) and its stderr.
pub fn with_closed_stdout(command: &mut Command) -> (Result<i32, i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = command
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("the command starts");
    let ended = match output.status.signal() {
        Some(signal) => Ok(signal),
        None => Err(output.status.code().unwrap_or(-1)),
    };
    (ended, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// SIGPIPE's number, what a quiet end by a closed pipe reports.
pub const SIGPIPE: i32 = 13;
