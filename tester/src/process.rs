//! One bot as a child process: lines in on stdin, lines out read by a thread (so the caller can
//! wait with a timeout), stderr collected by another thread up to a cap or passed through. Used by
//! the Penguins referee and the Splitter tester.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stderr kept per bot (the rest is dropped, with a marker).
const STDERR_CAP: usize = 64 * 1024;

/// What happens to the bot's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stderr {
    /// Kept (up to a cap) for `new_stderr` / `finish`.
    Collect,
    /// Written straight to ours (as the official Splitter Tester does).
    PassThrough,
}

pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each output line with the moment the reader thread took it from the pipe.
    lines: Receiver<(Instant, String)>,
    /// Collected stderr (stays empty with `Stderr::PassThrough`).
    stderr: Arc<Mutex<String>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// How much of `stderr` `new_stderr` has already handed out.
    stderr_seen: usize,
    /// Killed and reaped already (by `finish`; `Drop` then has nothing to do).
    stopped: bool,
}

/// Why a bot produced no usable line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadFailure {
    Timeout,
    /// Its stdout closed (exited or crashed).
    Ended,
}

impl BotProcess {
    /// Start `command` through `sh -c`, so commands with arguments and pipes work as typed;
    /// stderr is collected.
    pub fn spawn(command: &str) -> Result<BotProcess, String> {
        BotProcess::spawn_with("sh", command, Stderr::Collect)
    }

    /// Start `command` through `shell -c`.
    pub fn spawn_with(shell: &str, command: &str, stderr: Stderr) -> Result<BotProcess, String> {
        let mut child = Command::new(shell)
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Collect => Stdio::piped(),
                Stderr::PassThrough => Stdio::inherit(),
            })
            // Its own process group, so stopping it stops whatever the shell started too.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {shell} -c {command:?}: {e}"))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a bot printing invalid UTF-8 gets an invalid action, not a
            // silently closed output.
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Stamped here, before any channel or referee delay, so the turn time
                        // charged to the bot ends when its line reached us.
                        let read_at = Instant::now();
                        let line = String::from_utf8_lossy(&buffer);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send((read_at, line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let collected = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&collected);
        let stderr_thread = child
            .stderr
            .take()
            .map(|stderr| std::thread::spawn(move || collect_stderr(stderr, &sink)));
        let stdin = child.stdin.take();
        Ok(BotProcess {
            child,
            stdin,
            lines,
            stderr: collected,
            stderr_thread,
            stderr_seen: 0,
            stopped: false,
        })
    }

    /// Send text (complete lines) to the bot.
    pub fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        stdin
            .write_all(text.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the bot: {e}"))
    }

    /// The next output line within `limit`, with the moment it was read from the pipe (which
    /// may be a little before this returns, and even a little after `limit` ran out).
    pub fn read_line(&mut self, limit: Duration) -> Result<(Instant, String), ReadFailure> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadFailure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadFailure::Ended),
        }
    }

    /// Stderr written since the last call (what arrived so far: a line written just before the
    /// answer may show up with the next call).
    pub fn new_stderr(&mut self) -> String {
        let text = self.stderr.lock().unwrap();
        let fresh = text[self.stderr_seen..].to_string();
        self.stderr_seen = text.len();
        fresh
    }

    /// How the bot ended, after waiting up to `within` for it to exit (and for its stderr to be
    /// read to the end): `exit code N` or `killed by signal N`; `None` while it still runs.
    pub fn exit_status(&mut self, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => return None,
            }
        };
        while self
            .stderr_thread
            .as_ref()
            .is_some_and(|t| !t.is_finished())
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        use std::os::unix::process::ExitStatusExt;
        Some(match (status.code(), status.signal()) {
            (Some(code), _) => format!("exit code {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            _ => status.to_string(),
        })
    }

    /// Close stdin, give the bot a moment to exit, then kill it; return its stderr.
    pub fn finish(mut self) -> String {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        let text = self.stderr.lock().unwrap().clone();
        text
    }

    /// Kill the bot now (the whole process group) and reap it; once.
    fn kill(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.stdin = None;
        // Kill the whole group: `sh -c` may have left the real bot as a grandchild.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        // A grandchild may keep stderr open: wait briefly, never forever.
        if let Some(thread) = self.stderr_thread.take() {
            let deadline = Instant::now() + Duration::from_millis(100);
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

/// A bot dropped without `finish` (its game ended early, or the caller does not want its stderr,
/// like the Splitter Tester, which kills the bot right after the last move) is killed.
impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Copy the bot's stderr into `sink` until it closes, up to `STDERR_CAP`.
fn collect_stderr(stderr: impl Read, sink: &Mutex<String>) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = [0u8; 4096];
    while let Ok(n) = reader.read(&mut buffer) {
        if n == 0 {
            break;
        }
        let mut text = sink.lock().unwrap();
        if text.len() < STDERR_CAP {
            text.push_str(&String::from_utf8_lossy(&buffer[..n]));
            if text.len() >= STDERR_CAP {
                text.push_str("\n[stderr truncated]\n");
            }
        }
    }
}
