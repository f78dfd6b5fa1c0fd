//! The files tester commands write: a path that cannot be written is refused before the first
//! game (or generation), in one line, touching no other output; a write that fails (here a
//! file-size limit, as a full disk would) leaves no fragment, no empty file and no temporary file.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

/// The `bot` binary built beside the tester (`cargo test --workspace` builds both).
fn bot() -> String {
    let path = Path::new(TESTER).with_file_name("bot");
    assert!(path.exists(), "{} is missing", path.display());
    path.display().to_string()
}

/// `/proc` exists but takes no new file, whoever runs the test (root may write anywhere else).
#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_first_game() {
    let dir = test_support::scratch_dir("tester-outputs-before");
    let json = dir.join("ok.json");
    std::fs::write(&json, "the previous run's results").unwrap();
    let json_text = json.to_str().unwrap();
    // Bots that would hold every game for seconds.
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "arena",
                "--games",
                "4",
                "--bot",
                "a=sleep 5",
                "--bot",
                "b=sleep 5",
                "--replays",
                "/proc",
                "--json",
                json_text,
            ],
            "--replays: cannot write in /proc",
        ),
        (
            &[
                "splitter",
                "--games",
                "4",
                "--seed",
                "x",
                "--json",
                "/proc/x.json",
                "--command",
                "sleep 5",
            ],
            "cannot write /proc/x.json",
        ),
        (
            &[
                "honey", "gen", "--seed", "1", "--size", "64", "--out", "/proc",
            ],
            "cannot write in /proc",
        ),
        (
            &["scruffle", "gen", "--seed", "1", "-o", "/proc"],
            "cannot write /proc/scruffle-1.board",
        ),
    ];
    for (args, words) in cases {
        let (code, stderr) =
            test_support::within(Command::new(TESTER).args(args), Duration::from_secs(4));
        // 1, or 2 for an option's value refused by the argument parser.
        assert!(matches!(code, Some(1 | 2)), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        assert!(
            errors[0].contains(words),
            "{args:?}: {words:?} not in {}",
            errors[0]
        );
    }
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "the previous run's results",
        "a refused run touches no other output"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_write_that_fails_leaves_no_fragment_and_no_temporary_file() {
    let dir = test_support::scratch_dir("tester-outputs-atomic");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (json, html, csv) = (path("r.json"), path("r.html"), path("r.csv"));
    let greedy = format!("{} penguins --policy greedy", bot());
    let splitter = format!("{} splitter --policy greedy", bot());
    let (a, b) = (format!("a={greedy}"), format!("b={greedy}"));
    let runs: [&[&str]; 5] = [
        &[
            "splitter",
            "--games",
            "2",
            "--seed",
            "x",
            "--silent",
            "--json",
            &json,
            "--command",
            &splitter,
        ],
        &[
            "splitter",
            "--games",
            "2",
            "--seed",
            "x",
            "--silent",
            "--html",
            &html,
            "--command",
            &splitter,
        ],
        &[
            "arena",
            "--quiet",
            "--games",
            "2",
            "--workers",
            "1",
            "--bot",
            &a,
            "--bot",
            &b,
            "--json",
            &json,
            "--csv",
            &csv,
        ],
        &[
            "penguins", "--bot", &greedy, "--bot", &greedy, "--replay", &json,
        ],
        &[
            "penguins", "--bot", &greedy, "--bot", &greedy, "--html", &html,
        ],
    ];
    for args in runs {
        for file in [&json, &html, &csv] {
            std::fs::write(file, "the previous run's results").unwrap();
        }
        let (code, stderr) = test_support::with_file_limit(TESTER, 1, args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("File too large"), "{args:?}: {stderr}");
        assert!(!stderr.contains(".tmp"), "{stderr}");
        // Outputs of a failed run: gone (never a fragment, an empty file, or the previous
        // run's results as if they were this run's).
        for file in [&json, &html, &csv] {
            if args.contains(&file.as_str()) {
                assert!(!Path::new(file).exists(), "{args:?}: {file} is left");
            }
        }
        let left = test_support::file_names(&dir);
        assert!(
            left.iter()
                .all(|n| ["r.json", "r.html", "r.csv"].contains(&n.as_str())),
            "{args:?}: {left:?}"
        );
    }
    // A generator has no previous run to hide: its previous files stay as they were.
    let board = dir.join("scruffle-1.board");
    std::fs::write(&board, "the previous board").unwrap();
    let (code, stderr) = test_support::with_file_limit(
        TESTER,
        1,
        &[
            "scruffle",
            "gen",
            "--seed",
            "1",
            "--width",
            "40",
            "--height",
            "40",
            "-o",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&board).unwrap(),
        "the previous board"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Standard output that cannot be written (`/dev/full`) ends the tester with one line naming the
/// stream and the cause, and status 1: no panic.
#[test]
fn an_unwritable_stdout_is_one_line_and_status_1() {
    let dir = test_support::scratch_dir("tester-outputs-full-stdout");
    let out = dir.to_str().unwrap();
    let (code, stderr) =
        test_support::with_full_stdout(TESTER, &["honey", "gen", "--seed", "1", "--out", out], "");
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: tester: cannot write to stdout: No space left on device (os error 28)"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
