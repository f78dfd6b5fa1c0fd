//! Ctrl-C (SIGINT) and SIGTERM for the commands that run bots. Each bot runs in its own process
//! group, so the terminal's Ctrl-C reaches only the tester; without this, an interrupted tester
//! left its bots running, adopted by init. `catch` blocks both signals in every thread and waits
//! for them on a thread of its own: on the first, every live bot group is killed (and any bot
//! started later is killed at once), the flag `signal()` reads is set, and the command stops its
//! games and writes what it knows; if it has not ended `GRACE` later, or on a second signal, the
//! process exits with status 128 + signal. Children start with an empty signal mask (std resets
//! it before exec), so the bots themselves still see signals normally.

use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How long the command has to stop its games and write its files after the first signal.
const GRACE: Duration = Duration::from_secs(5);

/// The signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Process groups of the bots alive now. The flag is set and the groups killed under this lock,
/// and a new bot registers under it, so no bot started around the signal escapes.
static GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Handle SIGINT and SIGTERM from now on (call before any thread is started, so every thread
/// inherits the blocked mask and only the waiting thread receives them). A signal the tester was
/// started with ignored (a background job of a script ignores SIGINT) stays ignored.
pub fn catch() {
    // SAFETY: sigset_t and sigaction are plain data, initialised by sigemptyset and filled by
    // sigaction; the calls only read or write them.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in [libc::SIGINT, libc::SIGTERM] {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut current);
            if current.sa_sigaction != libc::SIG_IGN {
                libc::sigaddset(&mut set, signal);
            }
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    std::thread::spawn(move || loop {
        let mut received = 0;
        // SAFETY: `set` is a valid signal set and `received` a valid out-parameter.
        if unsafe { libc::sigwait(&set, &mut received) } != 0 {
            continue;
        }
        let first = SIGNAL.load(Ordering::SeqCst) == 0;
        stop_all(received);
        if !first {
            std::process::exit(128 + received);
        }
        std::thread::spawn(move || {
            std::thread::sleep(GRACE);
            eprintln!(
                "tester: still running {GRACE:?} after {}: exiting",
                name(received)
            );
            std::process::exit(128 + received);
        });
    });
}

/// Record the signal and kill every bot group alive.
fn stop_all(signal: i32) {
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    for &group in groups.iter() {
        kill_group(group);
    }
}

fn kill_group(group: libc::pid_t) {
    // SAFETY: a plain kill(2) of a process group this process created.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// A bot's process group was created: remember it (killed at once after a signal).
pub(super) fn register(group: libc::pid_t) {
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    if SIGNAL.load(Ordering::SeqCst) != 0 {
        kill_group(group);
    }
    groups.push(group);
}

/// A bot's process group was killed and reaped.
pub(super) fn unregister(group: libc::pid_t) {
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    groups.retain(|&g| g != group);
}

/// The signal that interrupted the command, if one did.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Whether a signal interrupted the command (its games in progress were cut short).
pub fn interrupted() -> bool {
    signal().is_some()
}

fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// After a signal: one line saying what became of the run, and the exit status 128 + signal.
/// `None` when no signal came.
pub fn stopped(command: &str, kept: &str) -> Option<ExitCode> {
    let signal = signal()?;
    eprintln!(
        "{command}: interrupted by {}: every bot was stopped; {kept}",
        name(signal)
    );
    Some(ExitCode::from((128 + signal) as u8))
}
