//! `bot scruffle` end to end: a valid case prints valid-looking placements; broken files give a
//! one-line error naming the file and line, and a non-zero exit.

use std::process::Command;

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("bot-scruffle-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(board: &std::path::Path, words: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bot"))
        .args(["scruffle", "--seconds", "0.2", "--board"])
        .arg(board)
        .arg("--words")
        .arg(words)
        .output()
        .unwrap()
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
