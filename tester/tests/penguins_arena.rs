//! The arena end to end with scripted fake bots: seat rotation, failure counting, JSON/CSV out.

use std::process::Command;

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

#[test]
fn arena_counts_timeouts_and_writes_json_and_csv() {
    let dir = std::env::temp_dir();
    let json = dir.join(format!("penguins-arena-test-{}.json", std::process::id()));
    let csv = dir.join(format!("penguins-arena-test-{}.csv", std::process::id()));
    let output = Command::new(TESTER)
        .args([
            "arena",
            "--quiet",
            "--games",
            "4",
            "--seed",
            "7",
            "--players",
            "2",
            "--slow-ms",
            "0",
            // A second per turn, so the steady bot answers in time on a loaded machine too.
            "--turn-ms",
            "1000",
        ])
        .arg("--bot")
        .arg(format!("steady={TESTER} penguins --fake-bot first"))
        .arg("--bot")
        .arg(format!("slow={TESTER} penguins --fake-bot late:2:4000"))
        .arg("--json")
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let section = &summary["sections"][0];
    assert_eq!(section["games"], 4);
    assert_eq!(section["referee_errors"], 0);
    assert_eq!(section["first_seed"], 7);
    assert_eq!(section["last_seed"], 8);
    let steady = &section["bots"][0];
    let slow = &section["bots"][1];
    assert_eq!(slow["timeouts"], 4, "the slow bot times out in every game");
    assert_eq!(steady["timeouts"], 0);
    assert_eq!(
        (steady["wins"].as_u64(), slow["losses"].as_u64()),
        (Some(4), Some(4))
    );
    assert!(steady["rating"].as_f64().unwrap() > slow["rating"].as_f64().unwrap());
    // Both seatings of each seed were played.
    let games = summary["games"].as_array().unwrap();
    let seatings: Vec<(u64, u64)> = games
        .iter()
        .map(|g| (g["seed"].as_u64().unwrap(), g["seats"][0].as_u64().unwrap()))
        .collect();
    for seed in [7, 8] {
        assert!(
            seatings.contains(&(seed, 0)) && seatings.contains(&(seed, 1)),
            "{seatings:?}"
        );
    }
    // Timing from the recorded turns: the slow bot answered only its first two turns of each
    // game (its third is the timeout), so one later turn per game; with --slow-ms 0 every
    // recorded later turn counts as slow.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("p99.9") && stdout.contains(">0") && stdout.contains("desched"),
        "{stdout}"
    );
    let (steady_t, slow_t) = (&section["timing"][0], &section["timing"][1]);
    assert_eq!(
        (
            slow_t["later_turns"].as_u64(),
            slow_t["first_turns"].as_u64()
        ),
        (Some(4), Some(4))
    );
    let steady_later = steady_t["later_turns"].as_u64().unwrap();
    assert!(steady_later >= 4, "{steady_t}");
    assert_eq!(steady_t["slow_turns"].as_u64(), Some(steady_later));
    assert!(steady_t["p50_ms"].as_f64() <= steady_t["p99_ms"].as_f64());
    assert!(steady_t["p99_ms"].as_f64() <= steady_t["max_ms"].as_f64());
    assert!(steady_t["max_first_ms"].as_f64().unwrap() > 0.0);
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 1 + 4 * 2);
    assert_eq!(csv_text.matches(",timeout,").count(), 4);
    let _ = std::fs::remove_file(json);
    let _ = std::fs::remove_file(csv);
}

#[test]
fn arena_rejects_bad_arguments_with_one_line() {
    for args in [
        vec!["arena", "--bot", "a=x"],
        vec!["arena", "--bot", "a=x", "--bot", "a=y"],
        vec!["arena", "--bot", "a=x", "--bot", "noequals"],
        vec!["arena", "--bot", "a=x", "--bot", "b=y", "--players", "5"],
        vec!["arena", "--bot", "a,b=x", "--bot", "b=y"],
    ] {
        let output = Command::new(TESTER).args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error: tester arena:"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
}
