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

/// A bot that cannot run plays no game: the arena names it with its cause, starts no game after
/// it, gives no SPRT verdict, writes no results file and fails. The same when no bot process can
/// be started at all (too few file descriptors).
#[test]
fn games_not_played_are_no_result_and_the_arena_fails_with_their_cause() {
    let dir = test_support::scratch_dir("arena-not-played");
    let json = dir.join("r.json");
    let ok = format!("ok={TESTER} penguins --fake-bot first");
    let output = Command::new(TESTER)
        .args(["arena", "--quiet", "--workers", "1", "--sprt", "ok,typo"])
        .args(["--bot", "typo=/nonexistent/bot", "--bot", &ok, "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("accepted"), "{stdout}");
    assert!(
        stdout.contains("SPRT ok vs typo: no verdict: 20 of 20 games were not played"),
        "{stdout}"
    );
    let not_started = stderr
        .lines()
        .find(|l| l.starts_with("not played: typo did not start in 1 of 20 games"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        not_started.contains("status 127") && not_started.contains("/nonexistent/bot"),
        "{not_started}"
    );
    assert!(
        stderr.contains("not played: 19 of 20 games skipped"),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with(
            "error: tester arena: 20 of 20 games were not played (causes above): the tables hold only the games played, no verdict; --json and --csv not written"
        ),
        "{stderr}"
    );
    assert!(!json.exists(), "no results file from games not played");
    // Eight file descriptors: the tester runs, but a game cannot get both bots' pipes (a clean
    // environment needs about ten; descriptors inherited from the harness only take more).
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 8; exec \"$0\" \"$@\"")
        .arg(TESTER)
        .args(["arena", "--quiet", "--workers", "1", "--games", "4"])
        .args(["--bot", &ok, "--bot", &ok.replacen("ok=", "other=", 1)])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("did not start in 1 of 4 games") && stderr.contains("Too many open files"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: tester arena: 4 of 4 games were not played"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `scripts/opponents.sh command|fixed` prints a command only for an adapter that was built.
#[test]
fn the_opponents_script_refuses_an_adapter_never_built() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/opponents.sh");
    let dir = test_support::scratch_dir("opponents-unbuilt");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(args)
            .env("OPPONENTS_DIR", &dir)
            .output()
            .unwrap()
    };
    for (args, missing) in [
        (["command", "htmf", "40"], "htmf-adapter-bin"),
        (["fixed", "gameframe", "100"], "GameframeAdapter.class"),
    ] {
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: a command was printed");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(missing) && stderr.contains("build"),
            "{stderr}"
        );
    }
    std::fs::write(dir.join("htmf-adapter-bin"), "").unwrap();
    let output = run(&["command", "htmf", "40"]);
    assert!(output.status.success());
    let command = String::from_utf8_lossy(&output.stdout);
    assert!(
        command.trim().ends_with("htmf-adapter-bin --ms 40"),
        "{command}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
