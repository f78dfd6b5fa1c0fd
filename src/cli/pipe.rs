//! A closed output (`tester honey gen | head -1`) ends the program at once and silently, as it
//! ends `cat` or `yes`: killed by SIGPIPE, which a shell reports as status 141.

use std::io;

/// For `bot`, which writes to no pipe but its own output: the default SIGPIPE action again (Rust
/// ignores it, so every `println!` after the reader left would panic), and any other output
/// that cannot be written (a full disk) ends the program with one line and status 1.
pub fn die_quietly_on_broken_pipe() {
    // SAFETY: setting a signal's disposition to the default has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        fail_on_unwritable_output(panic_message(info));
        default_hook(info);
    }));
}

/// For `tester`, which writes to bots: SIGPIPE stays ignored there (a bot that quits must not
/// kill the tester), and a panic from `println!`/`eprintln!` on a closed pipe ends the process
/// as SIGPIPE would. Other panics go to the default hook. Code that writes its own output with
/// the error in hand (the Splitter session) stops its games first and then calls
/// `die_of_broken_pipe`.
pub fn quiet_exit_on_closed_output() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info);
        if is_closed_output_panic(message) {
            die_of_broken_pipe();
        }
        fail_on_unwritable_output(message);
        default_hook(info);
    }));
}

fn panic_message<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> &'a str {
    info.payload()
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| info.payload().downcast_ref::<&str>().copied())
        .unwrap_or("")
}

/// std's panic for `print!` that could not write (other than a closed pipe): one line naming the
/// stream and the cause on stderr (if stderr itself can take it), then status 1.
fn fail_on_unwritable_output(message: &str) {
    if let Some(rest) = message.strip_prefix("failed printing to ") {
        let (stream, cause) = rest.split_once(": ").unwrap_or((rest, "unknown error"));
        let program = std::env::args().next().unwrap_or_default();
        let program = std::path::Path::new(&program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        use std::io::Write;
        let _ = writeln!(
            io::stderr(),
            "error: {program}: cannot write to {stream}: {cause}"
        );
        std::process::exit(1);
    }
}

/// std's panic message for `print!` to a closed stdout or stderr.
fn is_closed_output_panic(message: &str) -> bool {
    let epipe = io::Error::from_raw_os_error(libc::EPIPE).to_string();
    message.starts_with("failed printing to std") && message.ends_with(&epipe)
}

/// Whether a write error means the reader went away.
pub fn is_broken_pipe(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
}

/// End the process the way a closed pipe ends other Unix tools.
pub fn die_of_broken_pipe() -> ! {
    // SAFETY: restoring the default action and raising the signal have no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    // Not reached (the default action terminates); a clean exit if it ever were.
    std::process::exit(141)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_stds_closed_output_panic_only() {
        let epipe = io::Error::from_raw_os_error(libc::EPIPE);
        assert!(is_closed_output_panic(&format!(
            "failed printing to stdout: {epipe}"
        )));
        assert!(is_closed_output_panic(&format!(
            "failed printing to stderr: {epipe}"
        )));
        let other = io::Error::from_raw_os_error(libc::ENOSPC);
        assert!(!is_closed_output_panic(&format!(
            "failed printing to stdout: {other}"
        )));
        assert!(!is_closed_output_panic("index out of bounds"));
        assert!(is_broken_pipe(&epipe.kind().into()));
    }
}
