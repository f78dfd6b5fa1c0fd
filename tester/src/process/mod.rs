//! One bot as a child process, whatever it does: lines in on stdin (written by a thread, so a bot
//! that never reads cannot block us), lines out read by a thread (so the caller waits with a
//! deadline), stderr collected by another thread up to a cap or passed through. Memory is bounded
//! however much the bot prints: each line keeps at most `MAX_LINE_BYTES` (the rest is counted and
//! dropped) and at most `QUEUED_LINES` lines wait for the caller (then the bot waits, as on a full
//! pipe). Used by the Penguins referee and the Splitter tester.

pub mod cpu_time;
pub mod interrupt;
mod lines;
pub mod load;
pub mod outputs;

use std::borrow::Cow;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bot::source_error::quote;
pub use lines::{LineFramer, RawLine};

/// Bytes kept of one output line (answers are a few dozen bytes; a longer line is cut).
pub const MAX_LINE_BYTES: usize = 4096;
/// Lines read ahead of the caller.
const QUEUED_LINES: usize = 256;
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

/// One output line with the moment the reader thread took it from the pipe.
#[derive(Clone, Debug)]
pub struct Line {
    pub read_at: Instant,
    /// At most `MAX_LINE_BYTES`, without the line end.
    pub bytes: Vec<u8>,
    /// Bytes beyond `MAX_LINE_BYTES` dropped from this line.
    pub cut: u64,
}

impl Line {
    /// The line as text (bytes that are not UTF-8 become U+FFFD, so they never match an answer).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// The line quoted for a message (short, escaped), with its full length when it was cut.
    pub fn quoted(&self) -> String {
        match self.cut {
            0 => quote(&self.bytes),
            cut => format!(
                "{} (a line of {} bytes, cut to {MAX_LINE_BYTES})",
                quote(&self.bytes[..self.bytes.len().min(40)]),
                self.bytes.len() as u64 + cut
            ),
        }
    }
}

/// Why a bot produced no usable line.
#[derive(Debug, Clone)]
pub enum ReadFailure {
    /// Nothing (or only a line read after the deadline) by the deadline.
    Timeout,
    /// Its stdout closed (exited or crashed); `partial` holds an unterminated last line.
    Ended { partial: Option<Line> },
}

/// What the reader thread hands over.
enum Event {
    Line(Line),
    End(Option<Line>),
}

pub struct BotProcess {
    child: Child,
    /// Text for the writer thread; `None` once stdin is to be closed.
    input: Option<Sender<String>>,
    /// The first error writing to the bot's stdin.
    input_error: Arc<Mutex<Option<String>>>,
    events: Receiver<Event>,
    /// A line read after the deadline of the read that received it, kept for the next read.
    held: Option<Line>,
    /// Bytes of the output line being read, before its newline arrives (for timeout messages).
    pending_bytes: Arc<AtomicU64>,
    /// Collected stderr (stays empty with `Stderr::PassThrough`).
    stderr: Arc<Mutex<String>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// How much of `stderr` `new_stderr` has already handed out.
    stderr_seen: usize,
    /// Killed and reaped already (by `finish`; `Drop` then has nothing to do).
    stopped: bool,
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
            .map_err(|e| format!("cannot start {shell} -c {}: {e}", quote(command)))?;
        if let Ok(group) = libc::pid_t::try_from(child.id()) {
            interrupt::register(group);
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, events) = mpsc::sync_channel(QUEUED_LINES);
        let pending_bytes = Arc::new(AtomicU64::new(0));
        let pending = Arc::clone(&pending_bytes);
        std::thread::spawn(move || read_lines(stdout, &sender, &pending));
        let stdin = child.stdin.take().expect("piped stdin");
        let (input, texts) = mpsc::channel::<String>();
        let input_error = Arc::new(Mutex::new(None));
        let write_error = Arc::clone(&input_error);
        std::thread::spawn(move || write_input(stdin, &texts, &write_error));
        let collected = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&collected);
        let stderr_thread = child
            .stderr
            .take()
            .map(|stderr| std::thread::spawn(move || collect_stderr(stderr, &sink)));
        Ok(BotProcess {
            child,
            input: Some(input),
            input_error,
            events,
            held: None,
            pending_bytes,
            stderr: collected,
            stderr_thread,
            stderr_seen: 0,
            stopped: false,
        })
    }

    /// Send text (complete lines) to the bot. Returns at once: a thread writes it, so a bot
    /// that does not read cannot hold us. `Err` once writing has failed (the bot closed its
    /// stdin or ended).
    pub fn send(&mut self, text: &str) -> Result<(), String> {
        if let Some(e) = self.input_error.lock().unwrap().as_ref() {
            return Err(format!("cannot write to the bot: {e}"));
        }
        let input = self.input.as_ref().ok_or("stdin already closed")?;
        input
            .send(text.to_string())
            .map_err(|_| "cannot write to the bot: its input is closed".to_string())
    }

    /// The next output line read from the pipe by `deadline`. Waits until then at most; a line
    /// read later is not handed out (it is kept for the next call), so a bot that floods cannot
    /// stretch the deadline. The line's `read_at` may be a little before this returns.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Line, ReadFailure> {
        let event = match self.held.take() {
            Some(line) => Event::Line(line),
            None => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match self.events.recv_timeout(wait) {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => return Err(ReadFailure::Timeout),
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(ReadFailure::Ended { partial: None })
                    }
                }
            }
        };
        match event {
            Event::Line(line) if line.read_at > deadline => {
                self.held = Some(line);
                Err(ReadFailure::Timeout)
            }
            Event::Line(line) => Ok(line),
            Event::End(partial) => Err(ReadFailure::Ended { partial }),
        }
    }

    /// CPU time used so far by the bot's whole process group (see `cpu_time`).
    pub fn cpu_time(&self) -> Option<Duration> {
        cpu_time::group_cpu_time(self.child.id())
    }

    /// Why a bot has not answered, as far as can be seen: a line without its newline, or a bot
    /// that has exited while something it started holds its output open. Empty if neither.
    pub fn silence_cause(&mut self) -> String {
        let pending = self.pending_bytes.load(Ordering::Relaxed);
        let mut causes = Vec::new();
        if pending > 0 {
            causes.push(format!(
                "it printed {pending} bytes without a newline (at most {MAX_LINE_BYTES} kept)"
            ));
        }
        if let Ok(Some(status)) = self.child.try_wait() {
            causes.push(format!(
                "the bot {} but a process it started still holds its output open",
                describe_exit(status)
            ));
        }
        causes.join("; ")
    }

    /// Why the bot's output ended: how it exited (waiting a moment for it), and an unfinished
    /// last line.
    pub fn end_cause(&mut self, partial: Option<&Line>) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // Its stderr is read by a thread: let it reach the end so the caller sees the last words.
        while status.is_some()
            && self
                .stderr_thread
                .as_ref()
                .is_some_and(|t| !t.is_finished())
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        let mut cause = match status {
            Some(s) => format!("the bot {}", describe_exit(s)),
            None => "the bot closed its output (it is still running)".to_string(),
        };
        if let Some(line) = partial {
            cause.push_str(&format!(", in the middle of the line {}", line.quoted()));
        }
        // A bot that exited cannot be written to: the broken pipe is a consequence, not a cause.
        if status.is_none() {
            if let Some(e) = self.input_error.lock().unwrap().as_ref() {
                cause.push_str(&format!("; writing to it failed: {e}"));
            }
        }
        cause
    }

    /// The exit status code, once the bot has exited (`None` while it runs or after a signal).
    pub fn exit_code(&mut self) -> Option<i32> {
        self.child.try_wait().ok().flatten().and_then(|s| s.code())
    }

    /// Stderr written since the last call (what arrived so far: a line written just before the
    /// answer may show up with the next call).
    pub fn new_stderr(&mut self) -> String {
        let text = self.stderr.lock().unwrap();
        let fresh = text[self.stderr_seen..].to_string();
        self.stderr_seen = text.len();
        fresh
    }

    /// Close stdin, give the bot a moment to exit, then kill it; return its stderr.
    pub fn finish(mut self) -> String {
        self.input = None;
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
        self.input = None;
        // Kill the whole group: `sh -c` may have left the real bot as a grandchild, or a child
        // holding the pipes.
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a plain kill(2) of the group we created; no memory is involved.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        // Forgotten before it is reaped: until then its number cannot go to another process.
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            interrupt::unregister(group);
        }
        let _ = self.child.wait();
        // A process that left the group may keep stderr open: wait briefly, never forever.
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

/// "exited with status 3", "was killed by signal 9".
fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(127), _) => "exited with status 127 (command not found?)".to_string(),
        (Some(126), _) => "exited with status 126 (command not executable?)".to_string(),
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => format!("ended ({status})"),
    }
}

/// The reader thread: cut the output into bounded lines, stamp and queue them; on end of output
/// (or a read error) queue the unfinished last line. Stops when the `BotProcess` is gone.
fn read_lines(mut stdout: impl Read, sender: &SyncSender<Event>, pending: &AtomicU64) {
    let mut framer = LineFramer::new(MAX_LINE_BYTES);
    let mut chunk = vec![0u8; 16 * 1024];
    let mut lines = Vec::new();
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // Stamped here, before any queue or caller delay, so the time charged to the bot ends
        // when its line reached us.
        let read_at = Instant::now();
        framer.push(&chunk[..n], &mut lines);
        pending.store(framer.pending_bytes(), Ordering::Relaxed);
        for raw in lines.drain(..) {
            if sender.send(Event::Line(line(raw, read_at))).is_err() {
                return;
            }
        }
    }
    let last = framer.finish().map(|raw| line(raw, Instant::now()));
    let _ = sender.send(Event::End(last));
}

fn line(raw: RawLine, read_at: Instant) -> Line {
    Line {
        read_at,
        bytes: raw.bytes,
        cut: raw.cut,
    }
}

/// The writer thread: write each text to the bot's stdin; on the first error record it and stop
/// (closing stdin). Ends, closing stdin, when the `BotProcess` drops its sender.
fn write_input(mut stdin: impl Write, texts: &Receiver<String>, error: &Mutex<Option<String>>) {
    for text in texts {
        if let Err(e) = stdin.write_all(text.as_bytes()).and_then(|_| stdin.flush()) {
            *error.lock().unwrap() = Some(e.to_string());
            return;
        }
    }
}

/// Copy the bot's stderr into `sink` until it closes, up to `STDERR_CAP`.
fn collect_stderr(mut stderr: impl Read, sink: &Mutex<String>) {
    let mut buffer = [0u8; 4096];
    loop {
        let n = match stderr.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut text = sink.lock().unwrap();
        if text.len() < STDERR_CAP {
            text.push_str(&String::from_utf8_lossy(&buffer[..n]));
            if text.len() >= STDERR_CAP {
                text.push_str("\n[stderr truncated]\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn soon(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    #[test]
    fn a_flood_cannot_stretch_the_deadline_nor_the_memory() {
        let mut bot = BotProcess::spawn("yes hello").unwrap();
        let started = Instant::now();
        let deadline = soon(300);
        let mut lines = 0u64;
        let failure = loop {
            match bot.read_line(deadline) {
                Ok(line) => {
                    assert_eq!(line.text(), "hello");
                    lines += 1;
                }
                Err(e) => break e,
            }
        };
        assert!(matches!(failure, ReadFailure::Timeout), "{failure:?}");
        assert!(lines > 0);
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn a_line_without_end_is_cut_and_the_cause_reported() {
        let mut bot = BotProcess::spawn("head -c 3000000 /dev/zero; sleep 5").unwrap();
        let failure = bot.read_line(soon(400)).unwrap_err();
        assert!(matches!(failure, ReadFailure::Timeout), "{failure:?}");
        let cause = bot.silence_cause();
        assert!(cause.contains("3000000 bytes without a newline"), "{cause}");
        // A long line that does end is handed out cut, with its length.
        let mut bot = BotProcess::spawn("head -c 10000 /dev/zero | tr '\\0' x; echo").unwrap();
        let line = bot.read_line(soon(2000)).unwrap();
        assert_eq!(
            (line.bytes.len(), line.cut),
            (MAX_LINE_BYTES, 10_000 - 4096)
        );
        assert!(
            line.quoted().contains("a line of 10000 bytes"),
            "{}",
            line.quoted()
        );
    }

    #[test]
    fn ending_mid_line_exit_status_and_a_child_holding_the_pipe_are_told() {
        let mut bot = BotProcess::spawn("printf 'MOVE 0'; exit 3").unwrap();
        let ReadFailure::Ended { partial } = bot.read_line(soon(2000)).unwrap_err() else {
            panic!("expected the end of output");
        };
        let cause = bot.end_cause(partial.as_ref());
        assert!(
            cause.contains("exited with status 3") && cause.contains("\"MOVE 0\""),
            "{cause}"
        );
        let mut bot = BotProcess::spawn("sleep 30 & exit 0").unwrap();
        let started = Instant::now();
        assert!(matches!(
            bot.read_line(soon(300)),
            Err(ReadFailure::Timeout)
        ));
        let cause = bot.silence_cause();
        assert!(cause.contains("still holds its output open"), "{cause}");
        drop(bot);
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the group is killed"
        );
    }

    #[test]
    fn a_bot_that_never_reads_cannot_block_sending() {
        let mut bot = BotProcess::spawn("sleep 30").unwrap();
        let big = "x".repeat(1 << 20);
        let started = Instant::now();
        for _ in 0..4 {
            bot.send(&big).unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(2));
        let mut closed = BotProcess::spawn("exec 0<&-; sleep 30").unwrap();
        let deadline = soon(3000);
        while closed.send("1 2\n").is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(closed.send("1 2\n").is_err(), "a closed stdin is noticed");
    }
}
