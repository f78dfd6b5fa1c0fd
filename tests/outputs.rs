//! The files `bot` commands write: a path that cannot be written is refused before the work
//! (training, a bench, a grid search), in one line; a write that fails (here a file-size limit,
//! as a full disk would) leaves the previous file and no fragment or temporary file.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

const BOT: &str = env!("CARGO_BIN_EXE_bot");
const GRID: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/crossword/test_cases/15x15_1.cwg"
);

/// `/proc` exists but takes no new file, whoever runs the test (root may write anywhere else).
#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_work() {
    let dir = test_support::scratch_dir("bot-outputs-before");
    let batch = dir.join("grids");
    std::fs::create_dir(&batch).unwrap();
    std::fs::copy(GRID, batch.join("g.cwg")).unwrap();
    let ok = dir.join("ok.cwg");
    let (batch, ok) = (batch.to_str().unwrap(), ok.to_str().unwrap());
    // Each would work for a minute or more before writing.
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "train",
                "splitter",
                "--layout",
                "1",
                "--games",
                "100000000",
                "-o",
                "/proc/v.bin",
            ],
            "cannot write /proc/v.bin",
        ),
        (
            &[
                "train",
                "splitter-blend",
                "--layout",
                "1",
                "--table",
                "/nonexistent/t.bin",
                "--with",
                "/nonexistent/w.bin",
                "-o",
                "/proc/b.bin",
            ],
            "cannot write /proc/b.bin",
        ),
        (
            &[
                "bench",
                "splitter",
                "--games",
                "100000",
                "--save-scores",
                "/proc/s.txt",
            ],
            "cannot write /proc/s.txt",
        ),
        (
            &[
                "crossword",
                "generate",
                GRID,
                "-o",
                "/proc/x.cwg",
                "--seconds",
                "60",
            ],
            "cannot write /proc/x.cwg",
        ),
        (
            &[
                "crossword",
                "generate",
                GRID,
                "-o",
                ok,
                "--svg",
                "/proc/x.svg",
                "--seconds",
                "60",
            ],
            "cannot write /proc/x.svg",
        ),
        (
            &[
                "crossword",
                "generate",
                batch,
                "--out-dir",
                "/proc",
                "--seconds",
                "60",
            ],
            "cannot write in /proc",
        ),
    ];
    for (args, words) in cases {
        let (code, stderr) =
            test_support::within(Command::new(BOT).args(args), Duration::from_secs(20));
        assert!(code.is_some_and(|c| c != 0), "{args:?}: {code:?} {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with("error: "), "{args:?}: {stderr}");
        assert!(first.contains(words), "{args:?}: {words:?} not in {first}");
        assert!(
            !stderr.contains("panicked") && !first.contains(".tmp"),
            "{stderr}"
        );
    }
    assert!(!Path::new(ok).exists(), "no grid was made");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_write_that_fails_leaves_the_previous_file_and_nothing_else() {
    let dir = test_support::scratch_dir("bot-outputs-atomic");
    let grid = dir.join("g.cwg");
    let weights = dir.join("v.bin");
    let svg = dir.join("g.svg");
    for path in [&grid, &weights, &svg] {
        std::fs::write(path, "the previous file").unwrap();
    }
    let (grid_text, weights_text, svg_text) = (
        grid.to_str().unwrap(),
        weights.to_str().unwrap(),
        svg.to_str().unwrap(),
    );
    let runs: [&[&str]; 3] = [
        &[
            "crossword",
            "generate",
            GRID,
            "-o",
            grid_text,
            "--seconds",
            "5",
            "--first",
        ],
        &["crossword", "rate", GRID, "--svg", svg_text],
        &[
            "train",
            "splitter",
            "--layout",
            "1",
            "--games",
            "20",
            "--curve-games",
            "1",
            "-o",
            weights_text,
        ],
    ];
    for args in runs {
        let (code, stderr) = test_support::with_file_limit(BOT, 1, args);
        assert!(code.is_some_and(|c| c != 0), "{args:?}: {code:?} {stderr}");
        assert!(stderr.contains("File too large"), "{args:?}: {stderr}");
        assert!(!stderr.contains(".tmp"), "{stderr}");
    }
    for path in [&grid, &weights, &svg] {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text, "the previous file", "{}", path.display());
    }
    assert_eq!(
        test_support::file_names(&dir),
        ["g.cwg", "g.svg", "v.bin"],
        "no fragment, no temporary file"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Standard output that cannot be written (a full disk: `/dev/full`) ends the bot with one line
/// naming the stream and the cause, and status 1: no panic.
#[test]
fn an_unwritable_stdout_is_one_line_and_status_1() {
    let board = "8 7 22\n0 0 1 1 1 1 0 0\n0 1 1 1 1 1 1 0\n1 1 1 1 1 1 1 1\n2 1 1 1 1 1 1 2\n\
                 1 1 1 1 1 1 1 1\n0 1 1 1 1 1 1 0\n0 0 1 1 1 1 0 0\n3 5\n";
    let (code, stderr) =
        test_support::with_full_stdout(BOT, &["splitter", "--policy", "greedy"], board);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: bot: cannot write to stdout: No space left on device (os error 28)"
    );
}
