//! Hostile bots against the Penguins referee (`tester penguins`) and the arena: bots that flood
//! lines, flood without a newline, write binary, close stdout, never answer, exit mid-line, or
//! leave a child holding the pipe. Each game ends within its time limit plus a margin, the
//! failure is reported with its cause, and no other game's result is lost.

use std::process::Command;
use std::time::{Duration, Instant};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

/// (name, command, failure kind, words the failure detail must hold).
const HOSTILE: [(&str, &str, &str, &[&str]); 7] = [
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

/// A bot that writes its process id to `pids` (one line each) and then waits, never answering.
fn waiting_bot(pids: &std::path::Path) -> String {
    format!("echo $$ >> {}; exec sleep 120", pids.display())
}

/// The process ids the waiting bots wrote, once `count` of them have started (or 20 s passed).
fn started_bots(pids: &std::path::Path, count: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(pids).unwrap_or_default();
        let ids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if ids.len() >= count || Instant::now() > deadline {
            return ids;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let exists = unsafe { libc::kill(pid, 0) == 0 };
    // A zombie has ended: once the tester is gone its bots are reaped by init, which may take a
    // while on a busy machine.
    exists && !zombie(pid)
}

/// Whether `pid` has ended and waits to be reaped (state `Z` in /proc/PID/stat).
fn zombie(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses and may hold spaces.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// Run `args` (playing games between waiting bots) with a previous run's files at `outputs`,
/// send `signal` once `bots` bots have started, and check: the tester ends within seconds with
/// status 128 + signal, every bot it started is gone, and no output still holds the previous
/// run's content (it is gone, or rewritten and marked partial).
fn interrupt_run(name: &str, args: &[String], pids: &std::path::Path, bots: usize, signal: i32) {
    let outputs: Vec<String> = args
        .windows(2)
        .filter(|w| ["--json", "--html", "--replay", "--csv"].contains(&w[0].as_str()))
        .map(|w| w[1].clone())
        .collect();
    for path in &outputs {
        std::fs::write(path, "the previous run's results").unwrap();
    }
    let mut child = Command::new(TESTER)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ids = started_bots(pids, bots);
    assert!(ids.len() >= bots, "{name}: the bots did not start");
    // SAFETY: a plain kill(2) of the tester we started.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let stopped = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if stopped.elapsed() > Duration::from_secs(8) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Every bot started, also after the signal; the tester reaps those it ended, but give the
    // kernel a moment all the same.
    let ids = started_bots(pids, 0);
    let deadline = Instant::now() + Duration::from_secs(2);
    while ids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<i32> = ids.iter().copied().filter(|&p| alive(p)).collect();
    for &pid in &left {
        // SAFETY: clean up what the tester left behind, so a failing test leaks nothing.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    let _ = std::fs::remove_file(pids);
    let stale: Vec<&String> = outputs
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.contains("the previous run's") || !t.contains("partial"))
        })
        .collect();
    for path in &outputs {
        let _ = std::fs::remove_file(path);
    }
    assert!(left.is_empty(), "{name}: bots {left:?} still running");
    let status = status.unwrap_or_else(|| panic!("{name}: still running 8 s after the signal"));
    assert_eq!(status.code(), Some(128 + signal), "{name}: {status:?}");
    assert!(stale.is_empty(), "{name}: stale outputs {stale:?}");
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn an_interrupted_tester_ends_its_bots_and_leaves_no_stale_results() {
    let long = ["--first-ms", "60000", "--turn-ms", "60000"];
    // `--json NAME`-style pairs with each NAME a scratch file.
    let outputs = |pairs: &[(&str, &str)]| -> Vec<String> {
        (pairs.iter())
            .flat_map(|(option, name)| [option.to_string(), temp(name).display().to_string()])
            .collect()
    };
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let pids = temp("sigint-penguins-pids");
            let bots = ["--bot", &waiting_bot(&pids), "--bot", &good_bot()].map(String::from);
            let files = [
                ("--replay", "sigint-penguins"),
                ("--html", "sigint-penguins-html"),
            ];
            let args = [
                strings(&["penguins"]),
                bots.to_vec(),
                strings(&long),
                outputs(&files),
            ];
            interrupt_run("penguins", &args.concat(), &pids, 1, libc::SIGINT);
        });
        scope.spawn(|| {
            let pids = temp("sigterm-arena-pids");
            let bot = waiting_bot(&pids);
            let bots = [
                "--bot".into(),
                format!("a={bot}"),
                "--bot".into(),
                format!("b={bot}"),
            ];
            let files = [("--json", "sigterm-arena"), ("--csv", "sigterm-arena-csv")];
            let head = strings(&["arena", "--quiet", "--games", "4", "--workers", "2"]);
            let args = [head, strings(&long), bots.to_vec(), outputs(&files)];
            interrupt_run("arena", &args.concat(), &pids, 2, libc::SIGTERM);
        });
        scope.spawn(|| {
            let pids = temp("sigint-splitter-pids");
            let head = strings(&["splitter", "--games", "4", "--jobs", "2", "--seed", "x"]);
            let bot = [
                "--timeout-ms".into(),
                "60000".into(),
                "--command".into(),
                waiting_bot(&pids),
            ];
            let args = [
                head,
                outputs(&[("--json", "sigint-splitter")]),
                bot.to_vec(),
            ];
            let args = args.concat();
            interrupt_run("splitter", &args, &pids, 2, libc::SIGINT);
        });
    });
}

/// Whether a bot command that marks its start in `marker` was ever started by `args`, and what
/// the tester said; the bots answer nothing, so a started game takes its whole first turn.
fn outputs_refused(args: &[String], marker: &std::path::Path) -> (bool, String) {
    let started = Instant::now();
    let output = Command::new(TESTER).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let ran = marker.exists();
    let _ = std::fs::remove_file(marker);
    assert!(!output.status.success(), "{args:?}: {stderr}");
    assert!(started.elapsed() < MARGIN, "{args:?}");
    (ran, stderr)
}

#[test]
fn outputs_are_checked_before_the_first_game() {
    let marker = temp("outputs-marker");
    let bot = format!("touch {}; exec sleep 30", marker.display());
    let same = temp("outputs-same");
    let same = same.display().to_string();
    let arena = |outputs: &[&str]| -> Vec<String> {
        let head = strings(&["arena", "--quiet", "--games", "2", "--first-ms", "2000"]);
        let bots = [
            "--bot".into(),
            format!("a={bot}"),
            "--bot".into(),
            format!("b={bot}"),
        ];
        [head, bots.to_vec(), strings(outputs)].concat()
    };
    let penguins = strings(&[
        "penguins",
        "--bot",
        &bot,
        "--bot",
        &bot,
        "--first-ms",
        "2000",
    ]);
    let splitter = strings(&[
        "splitter",
        "--games",
        "1",
        "--seed",
        "x",
        "--timeout-ms",
        "2000",
    ]);
    let cases: Vec<(Vec<String>, &str)> = vec![
        // A folder that exists but takes no new file (root may write anywhere else).
        (
            arena(&["--json", "/proc/no-such.json"]),
            "cannot write /proc/no-such.json",
        ),
        (
            strings(&[
                "penguins",
                "-p1",
                &bot,
                "-p2",
                &bot,
                "-l",
                "/nonexistent/x.json",
            ]),
            "-l: folder /nonexistent does not exist",
        ),
        (
            [penguins, strings(&["--replay", &same, "--html", &same])].concat(),
            "--replay and --html both name",
        ),
        (
            arena(&["--json", &same, "--csv", &same]),
            "--json and --csv both name",
        ),
        (
            [
                splitter,
                strings(&["--json", &same, "--html", &same, "--command", &bot]),
            ]
            .concat(),
            "--json and --html both name",
        ),
    ];
    for (args, needle) in cases {
        let (ran, stderr) = outputs_refused(&args, &marker);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            !ran,
            "{args:?}: a bot was started before the outputs were checked"
        );
    }
    let _ = std::fs::remove_file(&same);
}

#[test]
fn replays_are_read_up_to_the_file_cap() {
    // Under a 1.5 GB address-space limit: reading /dev/zero whole fails by running out of it.
    for args in ["--check /dev/zero", "--view /dev/zero --html /dev/null"] {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 1500000; exec {TESTER} penguins {args}"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args}: {stderr}");
        assert_eq!(
            stderr.trim(),
            "error: /dev/zero: larger than 256 MiB, not read",
            "{args}"
        );
    }
}
