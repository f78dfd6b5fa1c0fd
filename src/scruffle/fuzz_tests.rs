//! Property-based fuzzing of the board and word-list parsers (proptest): any bytes give a board or
//! a word list, or a one-line error `source:line: problem` whose quoted input is short and
//! escaped. `FUZZ_CASES` and `FUZZ_SEED` as in `test_support::fuzz`.

use super::input::{parse_words_bytes, Board, MAX_SIDE};
use crate::source_error::SourceError;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn runner(name: &str) -> TestRunner {
    TestRunner::new(test_support::fuzz::config(name))
}

/// The error is one line naming the source (and the line when there is one), with no control
/// characters and no long echo of the input.
fn assert_one_line(e: &SourceError, source: &str) {
    let text = e.to_string();
    assert!(text.chars().all(|c| !c.is_control()), "{text:?}");
    let prefix = match e.line {
        0 => format!("{source}: "),
        n => format!("{source}:{n}: "),
    };
    assert!(text.starts_with(&prefix), "{text:?}");
    assert!(text.chars().count() <= prefix.len() + 200, "{text:?}");
}

/// Bytes that look like a file of `alphabet` lines, with line ends, blanks, a BOM now and then
/// and arbitrary bytes.
fn file_bytes(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        12 => prop::sample::select(alphabet),
        3 => Just(b'\n'),
        1 => prop::sample::select(&b"\r \t\xEF\xBB\xBF\xFF\xC3\xA9\x00\x1bx'\""[..]),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..400)
}

/// A well-formed board file, possibly with one byte changed.
fn board_file() -> impl Strategy<Value = Vec<u8>> {
    (
        1..15usize,
        1..15usize,
        any::<u64>(),
        prop::option::of((any::<usize>(), any::<u8>())),
    )
        .prop_map(|(w, h, seed, change)| {
            let cells = b"#0123456789DT";
            let mut x = seed;
            let mut out = Vec::new();
            for _ in 0..h {
                for _ in 0..w {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    out.push(cells[(x >> 33) as usize % cells.len()]);
                }
                out.extend_from_slice(b"\r\n");
            }
            if let Some((at, b)) = change {
                let n = out.len();
                out[at % n] = b;
            }
            out
        })
}

#[test]
fn fuzz_board_parser() {
    let strategy = prop_oneof![file_bytes(b"#0123456789DT"), board_file()];
    runner("board")
        .run(&strategy, |bytes| {
            match Board::parse_bytes(&bytes, "f.board") {
                Ok(b) => {
                    prop_assert!(b.width >= 1 && b.height >= 1);
                    prop_assert!(b.width <= MAX_SIDE && b.height <= MAX_SIDE);
                    prop_assert_eq!(b.cells.len(), b.width * b.height);
                    // What was read is what is written back.
                    let again = Board::parse(&b.to_text(), "again").unwrap();
                    prop_assert_eq!(again, b);
                }
                Err(e) => assert_one_line(&e, "f.board"),
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_words_parser() {
    let strategy = file_bytes(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
    runner("words")
        .run(&strategy, |bytes| {
            match parse_words_bytes(&bytes, "f.words") {
                Ok(words) => {
                    prop_assert!(!words.is_empty());
                    for w in &words {
                        prop_assert!(!w.is_empty() && w.iter().all(u8::is_ascii_uppercase));
                    }
                }
                Err(e) => assert_one_line(&e, "f.words"),
            }
            Ok(())
        })
        .unwrap();
}
