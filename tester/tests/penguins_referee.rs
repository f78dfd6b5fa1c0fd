//! The referee against scripted fake bots (`tester penguins --fake-bot KIND`): it must reject
//! illegal and late answers, report them, and play clean games to the end.

use std::process::Command;

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

fn fake(kind: &str) -> String {
    format!("{TESTER} penguins --fake-bot {kind}")
}

/// Run `tester penguins` with `args`; return stdout, and the replay written to a temp file.
fn referee(args: &[&str], name: &str) -> (String, serde_json::Value) {
    let path = std::env::temp_dir().join(format!(
        "penguins-referee-test-{name}-{}.json",
        std::process::id()
    ));
    let path_text = path.to_str().unwrap().to_string();
    let mut full: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    if full.iter().any(|a| a == "-p1") {
        full.extend(["-l".to_string(), path_text.clone()]);
    } else {
        full.extend(["--replay".to_string(), path_text.clone()]);
    }
    let output = Command::new(TESTER)
        .arg("penguins")
        .args(&full)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let replay = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let _ = std::fs::remove_file(&path);
    (String::from_utf8(output.stdout).unwrap(), replay)
}

/// The game ran out (nobody can move) or ended early (one player left moving, ahead).
fn ended_normally(replay: &serde_json::Value) -> bool {
    let reason = replay["end_reason"].as_str().unwrap();
    reason == "no player can move" || reason.starts_with("early end: only seat")
}

/// The game was played to its end and no seat failed.
fn assert_played_out(replay: &serde_json::Value) {
    assert!(ended_normally(replay), "{}", replay["end_reason"]);
    let failures = replay["failures"].as_array().unwrap();
    assert!(failures.iter().all(|f| f.is_null()), "{failures:?}");
}

#[test]
fn an_illegal_action_loses_and_is_reported() {
    let (a, b) = (fake("first"), fake("illegal"));
    let (stdout, replay) = referee(
        &["--turn-ms", "5000", "-p1", &a, "-p2", &b, "-d", "seed=3"],
        "illegal",
    );
    assert_eq!(stdout.lines().collect::<Vec<_>>(), vec!["0", "-1"]);
    assert_eq!(replay["failures"][1]["kind"], "invalid");
    assert_eq!(replay["failures"][1]["turn"], 1);
    assert!(replay["failures"][0].is_null());
    assert_eq!(replay["ranks"], serde_json::json!([1, 2]));
}

#[test]
fn garbage_and_a_closed_output_lose() {
    let (a, b) = (fake("garbage"), fake("exit"));
    let (_, replay) = referee(&["--bot", &a, "--bot", &b, "--turn-ms", "5000"], "garbage");
    assert_eq!(replay["failures"][0]["kind"], "invalid");
    let (_, replay) = referee(&["--bot", &b, "--bot", &a], "exit");
    assert_eq!(replay["failures"][0]["kind"], "ended");
}

#[test]
fn a_late_answer_loses_but_the_first_turn_gets_its_longer_limit() {
    // Seat 0 answers every turn after 300 ms: fine on its first turn (1000 ms), late on its second.
    let (slow, ok) = (fake("late:0:300"), fake("first"));
    let (stdout, replay) = referee(
        &[
            "--bot",
            &slow,
            "--bot",
            &ok,
            "--turn-ms",
            "50",
            "--first-ms",
            "1000",
        ],
        "late",
    );
    assert!(
        stdout.contains("LOST BY DEFAULT: timeout at turn 2"),
        "{stdout}"
    );
    assert_eq!(replay["failures"][0]["kind"], "timeout");
    assert_eq!(replay["turns"].as_array().unwrap().len(), 2);
    // A silent bot times out on its very first turn.
    let silent = fake("silent");
    let (_, replay) = referee(
        &["--bot", &ok, "--bot", &silent, "--first-ms", "300"],
        "silent",
    );
    assert_eq!(replay["failures"][1]["kind"], "timeout");
    assert_eq!(replay["failures"][1]["turn"], 1);
}

#[test]
fn clean_games_run_to_the_end_for_2_3_and_4_players() {
    for seats in 2..=4 {
        let bots: Vec<String> = (0..seats).map(|_| fake("first")).collect();
        // Generous limits: this test is about rules, not speed, and CI machines are loaded.
        let mut args = vec!["--turn-ms", "5000"];
        for (k, bot) in bots.iter().enumerate() {
            args.push(["-p1", "-p2", "-p3", "-p4"][k]);
            args.push(bot.as_str());
        }
        args.extend(["-d", "seed=11"]);
        let (stdout, replay) = referee(&args, &format!("clean{seats}"));
        let scores: Vec<i64> = stdout.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(scores.len(), seats);
        assert!(scores.iter().all(|&s| s > 0), "{scores:?}");
        assert!(ended_normally(&replay), "{}", replay["end_reason"]);
        assert_eq!(replay["seed"], 11);
        // Every player placed all its penguins before the movement phase.
        let turns = replay["turns"].as_array().unwrap();
        assert!(turns.len() > seats * (6 - seats));
        let last = turns.last().unwrap();
        let final_scores: Vec<i64> = replay["final_scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(final_scores, scores);
        assert_eq!(last["scores"].as_array().unwrap().len(), seats);
    }
}

#[test]
fn a_replay_renders_to_a_self_contained_page_and_bad_replays_are_refused() {
    let dir = std::env::temp_dir();
    let json = dir.join(format!("penguins-view-{}.json", std::process::id()));
    let html = dir.join(format!("penguins-view-{}.html", std::process::id()));
    let bot = fake("first");
    let status = Command::new(TESTER)
        .args([
            "penguins",
            "--turn-ms",
            "5000",
            "--seed",
            "4",
            "--bot",
            &bot,
            "--bot",
            &bot,
        ])
        .arg("--replay")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let output = Command::new(TESTER)
        .args(["penguins", "--view"])
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<svg") && page.contains("\"seed\":4"));
    assert!(
        !page.contains("src=\"http"),
        "no external scripts or images"
    );
    // A file that is not a replay: one-line error, non-zero exit.
    std::fs::write(&json, "{\"seed\": 1}").unwrap();
    let output = Command::new(TESTER)
        .args(["penguins", "--view"])
        .arg(&json)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not a Penguins replay"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1);
    let _ = std::fs::remove_file(json);
    let _ = std::fs::remove_file(html);
}

#[test]
fn the_independent_checker_accepts_real_replays_and_catches_tampering() {
    let bot = fake("first");
    for (seats, rules) in [(2, "default"), (3, "push,score-under"), (4, "one-fish")] {
        let dir = std::env::temp_dir();
        let json = dir.join(format!(
            "penguins-check-{seats}-{}.json",
            std::process::id()
        ));
        let mut command = Command::new(TESTER);
        command.args([
            "penguins",
            "--turn-ms",
            "5000",
            "--seed",
            "12",
            "--rules",
            rules,
        ]);
        for _ in 0..seats {
            command.args(["--bot", &bot]);
        }
        let status = command
            .arg("--replay")
            .arg(&json)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let check = |path: &std::path::Path| {
            let out = Command::new(TESTER)
                .args(["penguins", "--check"])
                .arg(path)
                .output()
                .unwrap();
            (
                out.status.success(),
                String::from_utf8_lossy(&out.stdout).to_string()
                    + &String::from_utf8_lossy(&out.stderr),
            )
        };
        let (ok, text) = check(&json);
        assert!(ok && text.contains("turns verified"), "{rules}: {text}");
        let original: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let tampered = |edit: &dyn Fn(&mut serde_json::Value), expected: &str| {
            let mut replay = original.clone();
            edit(&mut replay);
            std::fs::write(&json, replay.to_string()).unwrap();
            let (ok, text) = check(&json);
            assert!(!ok, "{rules}: tampering not caught ({expected})");
            assert!(text.contains(expected), "{rules}: {text}");
        };
        tampered(
            &|r| r["turns"][12]["scores"][0] = 9999.into(),
            "turn 12: scores",
        );
        tampered(&|r| r["turns"][3]["action"] = "MOVE 0 A1".into(), "turn 3:");
        tampered(
            &|r| r["turns"][20]["board"][0] = "33333330".into(),
            "turn 20: board",
        );
        tampered(
            &|r| {
                let turns = r["turns"].as_array_mut().unwrap();
                turns.truncate(turns.len() - 1);
            },
            "could still move",
        );
        tampered(&|r| r["final_scores"][1] = 1.into(), "final scores");
        let _ = std::fs::remove_file(json);
    }
}

/// Every recorded turn time of a replay, with the limit that applied to it.
fn turn_times(replay: &serde_json::Value) -> Vec<(f64, f64)> {
    let (first, later) = (
        replay["first_turn_ms"].as_f64().unwrap(),
        replay["turn_ms"].as_f64().unwrap(),
    );
    let mut seen = Vec::new();
    replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let player = t["player"].as_u64().unwrap();
            let limit = if seen.contains(&player) { later } else { first };
            seen.push(player);
            (t["time_ms"].as_f64().unwrap(), limit)
        })
        .collect()
}

#[test]
fn an_answer_just_over_the_limit_loses_on_time_and_its_time_is_not_recorded() {
    // Seat 1 sleeps 55 ms before every answer from its second turn on: a sleep never ends
    // early, so that answer is always over the 50 ms limit, however loaded the machine.
    let (ok, late) = (fake("first"), fake("late:1:55"));
    let (stdout, replay) = referee(
        &[
            "--bot",
            &ok,
            "--bot",
            &late,
            "--turn-ms",
            "50",
            "--first-ms",
            "5000",
        ],
        "just-late",
    );
    assert_eq!(replay["failures"][1]["kind"], "timeout", "{stdout}");
    assert_eq!(replay["failures"][1]["turn"], 3);
    let detail = replay["failures"][1]["detail"].as_str().unwrap();
    // "answered after .. ms, over the 50 ms limit" (or, on a very loaded machine, "no answer
    // within 50 ms" once the referee stops waiting).
    assert!(detail.contains("50 ms"), "{detail}");
    // The verdict and the recorded times agree: no recorded turn is over its limit.
    for (time, limit) in turn_times(&replay) {
        assert!(
            time <= limit,
            "{time} ms recorded against a {limit} ms limit"
        );
    }
}

#[test]
fn an_answer_well_inside_the_limit_never_loses_on_time() {
    // 10 ms answers against a 400 ms limit: a wide margin even on a loaded machine.
    let (a, b) = (fake("late:0:10"), fake("late:0:10"));
    let (_, replay) = referee(
        &["--bot", &a, "--bot", &b, "--turn-ms", "400", "--seed", "5"],
        "well-inside",
    );
    assert_played_out(&replay);
    let times = turn_times(&replay);
    assert!(times.len() > 10);
    // Each recorded time covers at least the bot's own sleep, and stays inside the limit.
    for (time, limit) in times {
        assert!((10.0..=limit).contains(&time), "{time} ms, limit {limit}");
    }
}

/// 3 players, one of which times out on its fourth turn: it is deactivated, the others play the
/// game to its end, its penguins stay on the board, it ranks last, and the replay re-plays.
#[test]
fn a_timed_out_seat_in_a_3_player_game_is_deactivated_and_play_goes_on() {
    let (ok, late) = (fake("first"), fake("late:3:400"));
    let (stdout, replay) = referee(
        &[
            "--bot",
            &ok,
            "--bot",
            &late,
            "--bot",
            &ok,
            "--turn-ms",
            "150",
            "--first-ms",
            "5000",
            "--seed",
            "6",
        ],
        "deactivated",
    );
    let failure = &replay["failures"][1];
    assert_eq!(failure["kind"], "timeout", "{stdout}");
    let failed_at = failure["turn"].as_u64().unwrap() as usize;
    let turns = replay["turns"].as_array().unwrap();
    assert!(
        turns.len() > failed_at + 10,
        "the others played on: {stdout}"
    );
    // Seat 1 never moves again, and its penguins are still listed after it failed.
    assert!(turns[failed_at..].iter().all(|t| t["player"] != 1));
    let seat1 = |t: &serde_json::Value| {
        t["penguins"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p[1] == 1)
            .count()
    };
    assert!(seat1(&turns[failed_at]) > 0);
    assert_eq!(replay["ranks"][1], 3);
    assert!(replay["failures"][0].is_null() && replay["failures"][2].is_null());
    let reason = replay["end_reason"].as_str().unwrap();
    assert!(reason.ends_with("(deactivated: seat 1)"), "{reason}");
    assert!(
        stdout.contains("LOST BY DEFAULT: timeout at turn"),
        "{stdout}"
    );
    assert!(stdout.contains("deactivated"), "{stdout}");
    let path =
        std::env::temp_dir().join(format!("penguins-deactivated-{}.json", std::process::id()));
    std::fs::write(&path, replay.to_string()).unwrap();
    let out = Command::new(TESTER)
        .args(["penguins", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A replay that hides the deactivation does not re-play.
    let mut hidden = replay.clone();
    hidden["failures"][1] = serde_json::Value::Null;
    std::fs::write(&path, hidden.to_string()).unwrap();
    let out = Command::new(TESTER)
        .args(["penguins", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let _ = std::fs::remove_file(path);
}

/// A bot command that does not exist (or cannot be executed) plays no game: the referee fails in
/// one line naming the seat, the bot's exit and its stderr (not a broken pipe), writes no
/// replay, and prints no score for either side; in both command-line forms.
#[test]
fn a_bot_that_cannot_start_is_no_game_and_is_reported_with_its_exit_and_stderr() {
    let ok = fake("first");
    let dir = std::env::temp_dir().join(format!("penguins-not-started-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_executable = dir.join("bot.txt");
    std::fs::write(&not_executable, "not a program").unwrap();
    let replay = dir.join("replay.json");
    let replay_text = replay.to_str().unwrap();
    for (bot, status, words) in [
        (
            "/nonexistent/penguin-bot --fast",
            "127",
            ["not found", "No such file"],
        ),
        (
            not_executable.to_str().unwrap(),
            "126",
            ["Permission denied", "denied"],
        ),
    ] {
        for args in [
            vec!["--bot", bot, "--bot", &ok, "--replay", replay_text],
            vec!["-p1", &ok, "-p2", bot, "-l", replay_text],
        ] {
            let output = Command::new(TESTER)
                .arg("penguins")
                .args(&args)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
            let seat = if args[0] == "--bot" { 0 } else { 1 };
            let error = stderr
                .lines()
                .find(|l| l.starts_with("error: "))
                .unwrap_or_else(|| panic!("{args:?}: {stderr}"));
            assert!(
                error.starts_with(&format!("error: referee: seat {seat} did not start: ")),
                "{error}"
            );
            assert!(
                error.contains(&format!("exited with status {status}")),
                "{error}"
            );
            assert!(words.iter().any(|w| error.contains(w)), "{error}");
            assert!(!error.contains("Broken pipe"), "{error}");
            assert!(
                stdout.is_empty(),
                "{args:?}: no score for a game not played: {stdout}"
            );
            assert!(!replay.exists(), "{args:?}: a replay of a game not played");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// League 2 (the default): pushes happen and are recorded; the independent checker re-plays them
/// and catches a replay that hides or invents one; `--view` refuses a replay that does not
/// re-play, naming the problem.
#[test]
fn pushes_are_recorded_checked_and_viewed() {
    let bot = fake("push");
    let mut found = None;
    for seed in 1..40 {
        let (_, replay) = referee(
            &[
                "--bot",
                &bot,
                "--bot",
                &bot,
                "--turn-ms",
                "5000",
                "--seed",
                &seed.to_string(),
            ],
            "pushes",
        );
        assert_eq!(replay["rules"], "league2");
        let turns = replay["turns"].as_array().unwrap();
        if let Some(at) = turns.iter().position(|t| !t["pushed"].is_null()) {
            found = Some((replay.clone(), at));
            break;
        }
    }
    let (replay, at) = found.expect("a league-2 game with a push among 39 seeds");
    let pushed = &replay["turns"][at]["pushed"];
    let id = pushed["id"].as_u64().unwrap();
    // The pushed penguin is gone from that turn on.
    for t in &replay["turns"].as_array().unwrap()[at..] {
        assert!(t["penguins"].as_array().unwrap().iter().all(|p| p[0] != id));
    }
    let dir = std::env::temp_dir();
    let json = dir.join(format!("penguins-push-{}.json", std::process::id()));
    let html = dir.join(format!("penguins-push-{}.html", std::process::id()));
    let run = |args: &[&str], replay: &serde_json::Value| {
        std::fs::write(&json, replay.to_string()).unwrap();
        let out = Command::new(TESTER)
            .arg("penguins")
            .args(args)
            .arg(&json)
            .args(["--html", html.to_str().unwrap()])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, err) = run(&["--check"], &replay);
    assert!(ok, "{err}");
    let (ok, err) = run(&["--view"], &replay);
    assert!(ok, "{err}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("last.pushed") && page.contains("\"pushed\":{"));
    let mut hidden = replay.clone();
    hidden["turns"][at]["pushed"] = serde_json::Value::Null;
    let (ok, err) = run(&["--check"], &hidden);
    assert!(!ok && err.contains(&format!("turn {at}:")), "{err}");
    let mut invented = replay.clone();
    invented["turns"][0]["pushed"] = serde_json::json!({"id": 1, "owner": 0, "cell": "A2"});
    let (ok, err) = run(&["--check"], &invented);
    assert!(!ok && err.contains("turn 0:"), "{err}");
    // --view validates too: an illegal replay is not drawn.
    let _ = std::fs::remove_file(&html);
    let mut illegal = replay.clone();
    illegal["turns"][2]["action"] = "MOVE 0 A1".into();
    let (ok, err) = run(&["--view"], &illegal);
    assert!(
        !ok && err.contains("does not re-play") && err.contains("turn 2"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!html.exists());
    let _ = std::fs::remove_file(json);
}

#[test]
fn the_cpu_time_judge_tells_a_descheduled_bot_from_a_slow_one() {
    // Seat 1 sleeps 120 ms before each later answer (like a bot descheduled on a busy machine:
    // wall time passes, its CPU time does not), seat 0 plays at once.
    let sleeper = |extra: &[&str], name: &str| {
        let (ok, sleepy) = (fake("first"), fake("late:1:120"));
        let mut args = vec!["--bot", &ok, "--bot", &sleepy, "--first-ms", "5000"];
        args.extend(extra);
        referee(&args, name).1
    };
    // The wall clock judges: a timeout, whose detail names the small CPU time.
    let replay = sleeper(&[], "cpu-judge-wall");
    assert_eq!(replay["failures"][1]["kind"], "timeout");
    let detail = replay["failures"][1]["detail"].as_str().unwrap();
    assert!(detail.contains("CPU time"), "{detail}");
    // The CPU-time judge: the sleeper plays the whole game, and its turns are recorded with
    // their wall time over the limit and their CPU time under it.
    let replay = sleeper(&["--cpu-time"], "cpu-judge-sleep");
    assert_played_out(&replay);
    let late_turns: Vec<_> = replay["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["player"] == 1 && t["time_ms"].as_f64().unwrap() > 50.0)
        .collect();
    assert!(!late_turns.is_empty());
    for t in late_turns {
        assert!(t["cpu_ms"].as_f64().unwrap() < 50.0, "{t}");
    }
    // A bot that computes 80 ms of CPU time is late under the CPU-time judge too.
    let (ok, busy) = (fake("first"), fake("busy:1:80"));
    let args = [
        "--bot",
        &ok,
        "--bot",
        &busy,
        "--first-ms",
        "5000",
        "--cpu-time",
    ];
    let (_, replay) = referee(&args, "cpu-judge-busy");
    assert_eq!(replay["failures"][1]["kind"], "timeout");
    // "used 80.3 ms of CPU time, over the 50 ms limit", or on a machine so busy that 80 ms of
    // CPU take more than 4 x 50 ms of wall time, the wall-clock cap's message with the CPU time.
    let detail = replay["failures"][1]["detail"].as_str().unwrap();
    let number = |text: &str| -> f64 {
        let digits: String = text
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        digits.parse().unwrap_or(0.0)
    };
    let cpu_ms = match (detail.strip_prefix("used "), detail.find("(CPU time ")) {
        (Some(rest), _) => number(rest),
        (None, Some(at)) => number(&detail[at + "(CPU time ".len()..]),
        _ => 0.0,
    };
    assert!(cpu_ms >= 79.0, "{detail}");
}
