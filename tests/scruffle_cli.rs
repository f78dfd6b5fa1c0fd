//! `bot scruffle` end to end: a valid case prints valid-looking placements; broken files give a
//! one-line error naming the file and line, and a non-zero exit.

use std::process::Command;

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("bot-scruffle-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(board: &std::path::Path, words: &std::path::Path) -> std::process::Output {
    let (board, words) = (board.to_str().unwrap(), words.to_str().unwrap());
    run_args(&["--seconds", "0.2", "--board", board, "--words", words])
}

#[test]
fn solves_a_small_case() {
    let board = write("ok.board", "1D2\n3T4\n567\n");
    let words = write("ok.words", "cat\nat\nzoo\n");
    let out = run(&board, &words);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.is_empty());
    for line in text.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 4, "{line}");
        assert!(parts[0] == "H" || parts[0] == "V");
        assert!(parts[1..].iter().all(|p| p.parse::<usize>().is_ok()));
    }
}

#[test]
fn broken_files_fail_with_file_and_line() {
    let good_board = write("good.board", "123\n456\n");
    let good_words = write("good.words", "cat\n");
    let bad_board = write("bad.board", "123\n4x6\n");
    let bad_words = write("bad.words", "cat\nx-ray\n");
    let out = run(&bad_board, &good_words);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.board:2:"), "{err}");
    let out = run(&good_board, &bad_words);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.words:2:"), "{err}");
    let out = run(&good_board, std::path::Path::new("/nonexistent/words"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/words"));
}

#[test]
fn an_oversized_words_file_is_refused_before_parsing() {
    // 3 MiB of valid words, over the 2 MiB cap: refused in one line naming the file, at once.
    let board = write("cap.board", "123\n456\n");
    let words = write("cap.words", &"cat\n".repeat(3 << 18));
    let started = std::time::Instant::now();
    let out = run(&board, &words);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("cap.words: larger than 2 MiB, not read"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

fn run_args(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bot"))
        .arg("scruffle")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn absurd_budgets_are_one_line_errors() {
    let board = write("budget.board", "1D2\n3T4\n567\n");
    let words = write("budget.words", "cat\nat\n");
    let (b, w) = (board.to_str().unwrap(), words.to_str().unwrap());
    for bad in ["1e30", "nan", "inf", "-1", "0", "abc", "86401"] {
        let out = run_args(&["--board", b, "--words", w, "--seconds", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--seconds {bad} was accepted");
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--seconds"), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{bad}: {err}");
    }
    let out = run_args(&["--board", b, "--words", w, "--seconds", "0.05"]);
    assert!(out.status.success());
}

#[test]
fn a_word_longer_than_the_board_does_not_slow_the_solver() {
    // One 100,000-letter word (it fits nowhere) among ordinary ones, 0.2 s: the budget holds.
    let board = write("long.board", &"1D23T45678\n".repeat(10));
    let mut list = "A".repeat(100_000);
    list.push_str("\ncat\nzebra\nat\n");
    let words = write("long.words", &list);
    let started = std::time::Instant::now();
    let out = run(&board, &words);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).is_empty());
    // Generous: a hang or a quadratic scan would take minutes (it took 79 s before).
    assert!(started.elapsed().as_secs_f64() < 10.0);
}

/// The last stderr line's total: `scruffle: score N with ...`.
fn reported_total(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("scruffle: score "))
        .unwrap_or("");
    let rest = line
        .strip_prefix("scruffle: score ")
        .unwrap_or_else(|| panic!("{stderr}"));
    rest.split(' ').next().unwrap().to_string()
}

#[test]
fn totals_beyond_any_machine_integer_are_reported_exactly() {
    // A board of triple cells and words as long as its sides: every placement is a whole row or
    // column, worth 100 letters x 10 points x 3^100 (about 5e50), far beyond u64 and u128.
    let board = write("triple.board", &("T".repeat(100) + "\n").repeat(100));
    let words = write("triple.words", &("Z".repeat(100) + "\n").repeat(6));
    let (b, w) = (board.to_str().unwrap(), words.to_str().unwrap());
    let out = run_args(&["--board", b, "--words", w, "--seconds", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let plays = String::from_utf8(out.stdout).unwrap().lines().count();
    assert!(plays > 0, "{stderr}");
    let each = num_bigint::BigUint::from(1000u32) * num_bigint::BigUint::from(3u32).pow(100);
    assert_eq!(
        reported_total(&stderr),
        (each * plays).to_string(),
        "{stderr}"
    );
}

/// A square board of digits with a few double and triple cells and no obstacle, so that empty
/// runs are as long as the board (the gap-filling scan over them used to ignore the clock).
fn open_board(side: usize) -> String {
    let mut state = 12345u64;
    (0..side)
        .map(|_| {
            let row: String = (0..side)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    match (state >> 33) % 100 {
                        0 | 1 => 'D',
                        2 => 'T',
                        r => (b'0' + (r % 10) as u8) as char,
                    }
                })
                .collect();
            row + "\n"
        })
        .collect()
}

#[test]
fn a_huge_open_board_of_repeated_letters_keeps_the_budget() {
    // 1000 x 1000 cells and 10,000 entries of ten A's at 2 s: every phase watches the clock (the
    // gap filling alone took over 10 s here).
    let board = write("open.board", &open_board(1000));
    let words = write("open.words", &("A".repeat(10) + "\n").repeat(10_000));
    let (b, w) = (board.to_str().unwrap(), words.to_str().unwrap());
    let started = std::time::Instant::now();
    let out = run_args(&["--board", b, "--words", w, "--seconds", "2"]);
    let elapsed = started.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty());
    // Generous for a loaded machine, far below the unbounded phase's time.
    assert!(elapsed < 6.0, "took {elapsed:.1} s for a 2 s budget");
}
