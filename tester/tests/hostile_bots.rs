//! Hostile bots against the Penguins referee (`tester penguins`) and the arena: bots that flood
//! lines, flood without a newline, write binary, close stdout, never answer, exit mid-line, or
//! leave a child holding the pipe. Each game ends within its time limit plus a margin, the
//! failure is reported with its cause, and no other game's result is lost.

use std::process::Command;
use std::time::{Duration, Instant};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

/// (name, command, failure kind, words the failure detail must hold).
const HOSTILE: [(&str, &str, &str, &[&str]); 8] = [
    (
        "flood",
        "yes hello",
        "invalid",
        &["invalid action \"hello\""],
    ),
    (
        "no-newline",
        "cat /dev/zero",
        "timeout",
        &["no answer within 300 ms", "bytes without a newline"],
    ),
    (
        "binary",
        "printf 'MOVE \\377\\033[2J\\001\\n'; sleep 30",
        "invalid",
        &["invalid action \"MOVE \\xff\\u{1b}[2J\\u{1}\""],
    ),
    (
        "closed-stdout",
        "exec >&-; sleep 30",
        "ended",
        &["output closed without an answer", "it is still running"],
    ),
    (
        "silent",
        "sleep 30",
        "timeout",
        &["no answer within 300 ms"],
    ),
    (
        "mid-line",
        "printf 'MOVE 0'",
        "ended",
        &["exited with status 0, in the middle of the line \"MOVE 0\""],
    ),
    (
        "child-holds-pipe",
        "sleep 30 & exit 0",
        "timeout",
        &["a process it started still holds its output open"],
    ),
    (
        "not-found",
        "no-such-bot-command-xyz",
        "ended",
        &["exited with status 127 (command not found?)"],
    ),
];

/// Time limits used for every game here: short, so the suite stays fast.
const LIMITS: [&str; 4] = ["--first-ms", "300", "--turn-ms", "300"];

/// What "finishes within its timeout plus a small margin" allows for a whole command: the
/// bot's limit, the referee's grace, start-up and shutdown of both bots, a loaded machine.
const MARGIN: Duration = Duration::from_secs(3);

fn good_bot() -> String {
    format!("{TESTER} penguins --fake-bot first")
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("hostile-{name}-{}.json", std::process::id()))
}

#[test]
fn the_referee_reports_each_hostile_bot_with_its_cause() {
    std::thread::scope(|scope| {
        for (name, command, kind, needles) in HOSTILE {
            scope.spawn(move || {
                let replay = temp(&format!("referee-{name}"));
                let started = Instant::now();
                let output = Command::new(TESTER)
                    .args(["penguins", "--seed", "4"])
                    .args(LIMITS)
                    .args(["--bot", &good_bot(), "--bot", command, "--replay"])
                    .arg(&replay)
                    .output()
                    .unwrap();
                let took = started.elapsed();
                assert!(
                    took < Duration::from_millis(300) + MARGIN,
                    "{name}: {took:?}"
                );
                let stdout = String::from_utf8_lossy(&output.stdout);
                assert!(output.status.success(), "{name}: {stdout}");
                let seat1 = stdout.lines().find(|l| l.starts_with("seat 1:")).unwrap();
                assert!(
                    seat1.contains(&format!("LOST BY DEFAULT: {kind}")),
                    "{name}: {seat1}"
                );
                for needle in needles {
                    assert!(seat1.contains(needle), "{name}: {needle:?} not in {seat1}");
                }
                assert!(
                    seat1.len() < 600 && !seat1.contains('\u{1b}'),
                    "{name}: {seat1}"
                );
                let text = std::fs::read_to_string(&replay).unwrap();
                std::fs::remove_file(&replay).unwrap();
                let replay: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(replay["failures"][1]["kind"], kind, "{name}");
                assert!(replay["failures"][0].is_null(), "{name}");
                assert_eq!(replay["ranks"], serde_json::json!([1, 2]), "{name}");
            });
        }
    });
}

#[test]
fn the_arena_keeps_every_game_when_bots_are_hostile() {
    // One good bot and four hostile ones, every pairing played both ways: each game ends, each
    // failure is counted with its cause, and the JSON holds every game.
    let json = temp("arena");
    let picks = ["flood", "no-newline", "mid-line", "child-holds-pipe"];
    let mut command = Command::new(TESTER);
    command
        .args([
            "arena",
            "--quiet",
            "--games",
            "10",
            "--seed",
            "11",
            "--workers",
            "2",
        ])
        .args(LIMITS)
        .arg("--bot")
        .arg(format!("good={}", good_bot()));
    for (name, cmd, _, _) in HOSTILE.iter().filter(|h| picks.contains(&h.0)) {
        command.arg("--bot").arg(format!("{name}={cmd}"));
    }
    let started = Instant::now();
    let output = command.arg("--json").arg(&json).output().unwrap();
    let took = started.elapsed();
    // 10 games on 2 workers, each at most one 300 ms limit plus shutdown.
    assert!(took < 5 * (Duration::from_millis(300) + MARGIN), "{took:?}");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).unwrap();
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 10);
    let names: Vec<&str> = summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    for game in games {
        assert!(game["referee_error"].is_null(), "{game}");
        let seats: Vec<usize> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        let failed: Vec<usize> = (0..seats.len())
            .filter(|&s| !game["failures"][s].is_null())
            .collect();
        // A game with a hostile bot ends by a failure, and it is the hostile bot's; a game
        // between two hostile bots ends with the first to move failing.
        assert_eq!(failed.len(), 1, "{game}");
        let loser = names[seats[failed[0]]];
        assert_ne!(loser, "good", "{game}");
        let (_, _, kind, needles) = HOSTILE.iter().find(|h| h.0 == loser).unwrap();
        assert_eq!(game["failures"][failed[0]], *kind, "{game}");
        let detail = game["failure_details"][failed[0]].as_str().unwrap();
        assert!(detail.contains(needles[0]), "{loser}: {detail}");
    }
    let section = &summary["sections"][0];
    assert_eq!(section["games"], 10);
    assert_eq!(section["referee_errors"], 0);
}
