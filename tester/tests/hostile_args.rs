//! Absurd arguments against the tester's own commands: seed ranges at the end of the u64 range.

use std::process::{Command, Output};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

fn honey_check(seed: &str, count: &str) -> Output {
    Command::new(TESTER)
        .args([
            "honey", "check", "--seed", seed, "--count", count, "--size", "5",
        ])
        .output()
        .unwrap()
}

#[test]
fn a_honey_seed_range_never_runs_past_the_last_seed() {
    let output = honey_check("18446744073709551613", "5");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // All five levels (each under 12 settings), or a clear refusal; never two.
    if output.status.success() {
        assert!(
            stdout.contains("compared: 60 (level, setting) pairs"),
            "{stdout}"
        );
    } else {
        assert!(
            stderr.contains("--count 5") && stderr.contains("18446744073709551615"),
            "{stderr}"
        );
        assert!(!stdout.contains("compared"), "{stdout}");
    }
    let output = honey_check("18446744073709551615", "1");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("compared: 12 (level, setting) pairs"),
        "{stdout}"
    );
}
