//! `tester scruffle bench` end to end: every phase keeps its clock, a phase that cannot finish
//! is an error with its cause, and the exact search's summary never averages nothing.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

fn bench(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let output = Command::new(TESTER)
        .args(["scruffle", "bench", "--seeds", "1"])
        .args(args)
        .output()
        .unwrap();
    (output, started.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn u4_sweeps_beyond_the_clock_stop_at_the_clock() {
    // 100,000 sweeps of U4 on a 40x40 board with 2,000 words take hours; the clock stops them.
    let (output, took) = bench(&[
        "--width",
        "40",
        "--height",
        "40",
        "--words",
        "2000",
        "--seconds",
        "0.3",
        "--phase-seconds",
        "0.5",
        "--u4-sweeps",
        "100000",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(took < Duration::from_secs(60), "{took:?}");
    assert!(
        stdout.contains("(seed 1: the bounds' clock ran out: U3 and U4 are looser, U4 after"),
        "{stdout}"
    );
    assert!(stdout.contains("of 100000 sweeps)"), "{stdout}");
    assert!(stdout.contains("U4 100000 sweeps within 0.5 s"), "{stdout}");
}

#[test]
fn a_naive_reference_past_its_clock_is_an_error_not_a_row() {
    // A 1000x1000 board with 100,000 words: the complete position table takes minutes.
    let (output, took) = bench(&[
        "--width",
        "1000",
        "--height",
        "1000",
        "--words",
        "100000",
        "--seconds",
        "0.1",
        "--phase-seconds",
        "0.1",
    ]);
    assert!(!output.status.success());
    assert!(took < Duration::from_secs(60), "{took:?}");
    let stderr = text(&output.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        ["error: seed 1: the position table of the naive reference did not end within --phase-seconds 0.1"],
        "{stderr}"
    );
    assert!(!text(&output.stdout).contains("outputs valid"));
}

#[test]
fn an_exact_search_that_proves_nothing_says_so() {
    // Fixed work and one node: nothing is proven on this case (and no mean of nothing shows).
    let (output, _) = bench(&[
        "--width",
        "12",
        "--height",
        "12",
        "--words",
        "40",
        "--work",
        "0",
        "--exact-nodes",
        "1",
        "--u4-sweeps",
        "0",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("score/(optimum or bound)"))
        .unwrap_or_else(|| panic!("no summary: {stdout}"));
    assert!(
        summary.ends_with("optimum proven on none of 1"),
        "{summary}"
    );
    assert!(
        !summary.contains("inf") && !summary.contains("-0.0"),
        "{summary}"
    );
}
