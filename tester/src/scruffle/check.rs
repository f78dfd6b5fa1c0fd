//! The independent scorer: its own parsing of the three files and its own reading of the rules and
//! the scoring. It deliberately shares no code with the solver (`bot::scruffle`); only the helper
//! that quotes input in messages (`bot::source_error::quote`) is borrowed.

use bot::source_error::quote;
use num_bigint::BigUint;

/// A valid play's totals. The score is exact whatever its size (a board of triple cells with long
/// words totals far beyond any machine integer).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    #[serde(with = "decimal")]
    pub score: BigUint,
    pub placements: usize,
    pub new_cells: usize,
    /// Cells covered by a row placement and by a column placement (a crossing). Absent from the
    /// JSON of older runs.
    #[serde(default)]
    pub crossed_cells: usize,
}

/// Exact totals in results files: written as decimal strings, read from strings or (older files)
/// plain numbers.
pub mod decimal {
    use num_bigint::BigUint;
    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &BigUint, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&value.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BigUint, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Number(u64),
            Text(String),
        }
        match Either::deserialize(d)? {
            Either::Number(n) => Ok(BigUint::from(n)),
            Either::Text(t) => t
                .parse()
                .map_err(|_| de::Error::custom(format!("{t:?} is not a whole number"))),
        }
    }
}

/// Letter values of the statement.
fn letter_value(letter: u8) -> u32 {
    match letter {
        b'A' | b'E' | b'I' | b'L' | b'N' | b'O' | b'R' | b'S' | b'T' | b'U' => 1,
        b'D' | b'G' => 2,
        b'B' | b'C' | b'M' | b'P' => 3,
        b'F' | b'H' | b'V' | b'W' | b'Y' => 4,
        b'K' => 5,
        b'J' | b'X' => 8,
        b'Q' | b'Z' => 10,
        _ => 0,
    }
}

/// Non-blank lines with their 1-based numbers (surrounding ASCII whitespace and `\r` removed),
/// after a UTF-8 byte order mark, if the text starts with one.
fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    text.split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_ascii()))
        .filter(|(_, l)| !l.is_empty())
}

/// One valid placement, as checked: what the plan page shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub vertical: bool,
    pub index: usize,
    pub x: usize,
    pub y: usize,
    /// Its score, and the total of the plan up to and with it.
    pub score: BigUint,
    pub total: BigUint,
    /// Per letter: true when it went on an empty cell (the placement adds it), false when the
    /// letter was already there (the placement crosses it).
    pub new: Vec<bool>,
}

/// Validate `placements` against the board and word list texts; the names label error messages.
pub fn check(
    board: (&str, &[u8]),
    words: (&str, &[u8]),
    placements: (&str, &[u8]),
) -> Result<Verdict, String> {
    check_each(board, words, placements, |_| {})
}

/// `check`, handing each valid placement to `each` in play order.
pub fn check_each(
    board: (&str, &[u8]),
    words: (&str, &[u8]),
    placements: (&str, &[u8]),
    mut each: impl FnMut(Step),
) -> Result<Verdict, String> {
    let (board_name, board_text) = board;
    let rows: Vec<&[u8]> = lines(board_text).map(|(_, l)| l).collect();
    if rows.is_empty() {
        return Err(format!("{board_name}: no rows"));
    }
    for (n, l) in lines(board_text) {
        if l.len() != rows[0].len() {
            return Err(format!("{board_name}:{n}: ragged row"));
        }
        if let Some(&b) = l
            .iter()
            .find(|b| !matches!(b, b'#' | b'0'..=b'9' | b'D' | b'T'))
        {
            return Err(format!("{board_name}:{n}: bad cell {}", quote([b])));
        }
    }
    let (words_name, words_text) = words;
    let mut list: Vec<Vec<u8>> = Vec::new();
    for (n, l) in lines(words_text) {
        if !l.iter().all(|b| b.is_ascii_alphabetic()) {
            return Err(format!("{words_name}:{n}: bad word {}", quote(l)));
        }
        list.push(l.to_ascii_uppercase());
    }
    if list.is_empty() {
        // The statement has 10-10,000 entries; `bot scruffle` refuses an empty list too.
        return Err(format!("{words_name}: no words"));
    }
    let (width, height) = (rows[0].len(), rows.len());
    let mut letters = vec![vec![0u8; width]; height];
    // Per cell: bit 0 set by a row placement, bit 1 by a column placement.
    let mut directions = vec![vec![0u8; width]; height];
    let mut used = vec![false; list.len()];
    let (name, text) = placements;
    let mut verdict = Verdict {
        score: BigUint::ZERO,
        placements: 0,
        new_cells: 0,
        crossed_cells: 0,
    };
    for (n, l) in lines(text) {
        let at = |problem: String| format!("{name}:{n}: {problem}");
        let parts: Vec<&[u8]> = l
            .split(|b| b.is_ascii_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let [dir, idx, x, y] = parts[..] else {
            return Err(at(format!("expected `H|V index x y`, got {}", quote(l))));
        };
        let vertical = match dir {
            b"H" => false,
            b"V" => true,
            _ => return Err(at(format!("direction {} is not H or V", quote(dir)))),
        };
        let number = |s: &[u8]| {
            std::str::from_utf8(s)
                .ok()
                .and_then(|t| t.parse::<usize>().ok())
                .ok_or_else(|| at(format!("{} is not a number", quote(s))))
        };
        let (idx, x, y) = (number(idx)?, number(x)?, number(y)?);
        let Some(word) = list.get(idx) else {
            return Err(at(format!("word index {idx} is out of range")));
        };
        if used[idx] {
            return Err(at(format!("word index {idx} is used twice")));
        }
        used[idx] = true;
        let mut letter_sum: u64 = 0;
        let (mut doubles, mut triples) = (0u32, 0u32);
        let mut new = 0;
        let mut added = Vec::with_capacity(word.len());
        for (k, &letter) in word.iter().enumerate() {
            let (cx, cy) = if vertical { (x, y + k) } else { (x + k, y) };
            if cx >= width || cy >= height {
                return Err(at(format!("letter {} leaves the board", k + 1)));
            }
            let multiplier = match rows[cy][cx] {
                b'#' => return Err(at(format!("letter {} is on an obstacle", k + 1))),
                b'D' => {
                    doubles += 1;
                    1
                }
                b'T' => {
                    triples += 1;
                    1
                }
                digit => (digit - b'0') as u32,
            };
            letter_sum += (letter_value(letter) * multiplier) as u64;
            added.push(letters[cy][cx] == 0);
            match letters[cy][cx] {
                0 => {
                    letters[cy][cx] = letter;
                    new += 1;
                }
                have if have != letter => {
                    return Err(at(format!(
                        "letter {} {:?} disagrees with {:?} at ({cx}, {cy})",
                        k + 1,
                        letter as char,
                        have as char
                    )))
                }
                _ => {}
            }
            directions[cy][cx] |= 1 << vertical as u8;
        }
        if new == 0 {
            return Err(at("no new cell".to_string()));
        }
        let factor = BigUint::from(2u32).pow(doubles) * BigUint::from(3u32).pow(triples);
        let score = BigUint::from(letter_sum) * factor;
        verdict.score += &score;
        verdict.placements += 1;
        verdict.new_cells += new;
        each(Step {
            vertical,
            index: idx,
            x,
            y,
            score,
            total: verdict.score.clone(),
            new: added,
        });
    }
    verdict.crossed_cells = directions.iter().flatten().filter(|&&d| d == 3).count();
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(board: &str, words: &str, plays: &str) -> Result<Verdict, String> {
        check(
            ("b", board.as_bytes()),
            ("w", words.as_bytes()),
            ("p", plays.as_bytes()),
        )
    }

    #[test]
    fn scores_a_hand_computed_play() {
        // CAT at (1,0): C on D (3), A on 0 (0), T on T (1): (3 + 0 + 1) * 2 * 3 = 24.
        // AT vertical at (2,0)... A is on the 0 cell already holding A, T below on 5: (0 + 5) = 5.
        let v = run("2D0T\n1151\n", "cat\nat\n", "H 0 1 0\nV 1 2 0\n").unwrap();
        assert_eq!(v.score, BigUint::from(24u32 + 5));
        assert_eq!((v.placements, v.new_cells), (2, 4));
        assert_eq!(v.crossed_cells, 1, "the A of CAT is crossed by AT");
    }

    #[test]
    fn counts_a_cell_as_crossed_only_when_both_directions_cover_it() {
        // CATS and its sub-word AT along one row: no crossing. SO down from the S: one.
        let board = "11111\n11111\n";
        let words = "cats\nat\nso\nto\n";
        let v = run(board, words, "H 1 1 0\nH 0 0 0\n").unwrap();
        assert_eq!((v.placements, v.crossed_cells), (2, 0));
        let v = run(board, words, "H 1 1 0\nH 0 0 0\nV 2 3 0\n").unwrap();
        assert_eq!(v.crossed_cells, 1);
        // TO down from the T as well: two crossed cells.
        let v = run(board, words, "H 1 1 0\nH 0 0 0\nV 2 3 0\nV 3 2 0\n").unwrap();
        assert_eq!(v.crossed_cells, 2);
    }

    #[test]
    fn a_verdict_saved_before_crossings_were_counted_still_reads() {
        let v: Verdict =
            serde_json::from_str(r#"{"score": 29, "placements": 2, "new_cells": 4}"#).unwrap();
        assert_eq!((v.score, v.crossed_cells), (BigUint::from(29u32), 0));
    }

    #[test]
    fn totals_beyond_any_machine_integer_are_exact() {
        // 100 Z's down a column of triple cells: 10 x 100 x 3^100, about 5e50, and then the same
        // across the first row (the Z's agree on the corner): twice that. No overflow, no error.
        let board = "T".repeat(100) + "\n" + &("T".to_string() + &"1".repeat(99) + "\n").repeat(99);
        let words = "Z".repeat(100) + "\n" + &"Z".repeat(100) + "\n";
        let v = run(&board, &words, "V 0 0 0\nH 1 0 0\n").unwrap();
        let one = BigUint::from(1000u32) * BigUint::from(3u32).pow(100);
        assert_eq!(v.score, &one * 2u32);
        assert!(v.score > BigUint::from(u128::MAX));
        // Results files keep it exactly, as a decimal string.
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains(&format!("\"{}\"", v.score)), "{json}");
        let back: Verdict = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn a_byte_order_mark_is_accepted_at_the_start_of_every_file() {
        let bom = |text: &str| format!("\u{feff}{text}");
        let plain = run("1111\n", "cat\n", "H 0 0 0\n").unwrap();
        let marked = run(&bom("1111\n"), &bom("cat\n"), &bom("H 0 0 0\n")).unwrap();
        assert_eq!(marked, plain);
        // Only at the start: inside a file it is a stray character.
        let err = run("1111\n", "cat\n", &format!("H 0 0 0\n{}", bom("H 0 1 0\n"))).unwrap_err();
        assert!(err.starts_with("p:2: "), "{err}");
    }

    #[test]
    fn an_empty_word_list_is_refused_in_one_line() {
        for words in ["", "\n\n", "\u{feff}", " \r\n"] {
            assert_eq!(run("1111\n", words, "").unwrap_err(), "w: no words");
        }
    }

    #[test]
    fn every_rule_is_enforced() {
        let board = "1111\n1#11\n";
        let words = "cat\nat\nta\n";
        let err = |plays: &str| run(board, words, plays).unwrap_err();
        assert!(err("H 0 2 0\n").contains("leaves the board"));
        assert!(err("V 1 1 0\n").contains("obstacle"));
        assert!(err("H 3 0 0\n").contains("out of range"));
        assert!(err("H 0 0 0\nH 0 1 1\n").contains("used twice"));
        assert!(err("H 0 0 0\nH 1 1 0\n").starts_with("p:2: no new cell"));
        assert!(err("H 0 0 0\nH 2 1 0\n").contains("disagrees"));
        assert!(err("X 0 0 0\n").contains("not H or V"));
        assert!(err("H 0 0\n").contains("expected"));
        assert!(err("H 0 -1 0\n").contains("not a number"));
        assert!(run(board, words, "H 0 0 0\nV 1 3 0\n").is_ok());
    }
}

/// Property-based fuzzing of the checker's three parsers (proptest): any bytes give a verdict or a
/// one-line error naming the file and line. `FUZZ_CASES` and `FUZZ_SEED` as in `test_support::fuzz`.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::TestRunner;

    fn runner(name: &str) -> TestRunner {
        TestRunner::new(test_support::fuzz::config(name))
    }

    /// One line, starting with the file name (and a line number for the placements), no control
    /// characters, no long echo of the input.
    fn assert_one_line(message: &str) {
        assert!(message.chars().all(|c| !c.is_control()), "{message:?}");
        assert!(
            ["b:", "w:", "p:"].iter().any(|p| message.starts_with(p)),
            "{message:?}"
        );
        assert!(message.chars().count() <= 220, "{message:?}");
    }

    /// Placement lines: mostly well formed with small or absurd numbers, sometimes any bytes.
    fn placements() -> impl Strategy<Value = Vec<u8>> {
        let number = prop_oneof![
            6 => (0..6usize).prop_map(|n| n.to_string()),
            1 => any::<u64>().prop_map(|n| n.to_string()),
            1 => Just("-1".to_string()),
            1 => Just("99999999999999999999999".to_string()),
        ];
        let line = prop_oneof![
            8 => (prop::sample::select(vec!["H", "V", "h", "X"]), number.clone(), number.clone(), number)
                .prop_map(|(d, i, x, y)| format!("{d} {i} {x} {y}\n").into_bytes()),
            1 => prop::collection::vec(any::<u8>(), 0..30),
            1 => Just(b"\r\n".to_vec()),
        ];
        prop::collection::vec(line, 0..12).prop_map(|lines| lines.concat())
    }

    #[test]
    fn fuzz_placements_parser() {
        let board = b"1D2#\n3T45\n6789\n";
        let words = b"cat\nat\nta\nzoo\nox\n";
        runner("placements")
            .run(&placements(), |plays| {
                match check(("b", board), ("w", words), ("p", &plays)) {
                    Ok(v) => prop_assert!(v.placements <= 5 && v.new_cells <= 11),
                    Err(e) => {
                        assert_one_line(&e);
                        prop_assert!(e.starts_with("p:"), "{}", e);
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn fuzz_board_and_words_parsers() {
        let text = |alphabet: &'static [u8]| {
            let byte = prop_oneof![
                10 => prop::sample::select(alphabet),
                3 => Just(b'\n'),
                1 => any::<u8>(),
            ];
            prop::collection::vec(byte, 0..200)
        };
        let strategy = (text(b"#0123456789DT"), text(b"abcXYZ"));
        runner("board and words")
            .run(&strategy, |(board, words)| {
                if let Err(e) = check(("b", &board), ("w", &words), ("p", b"H 0 0 0\n")) {
                    assert_one_line(&e);
                }
                Ok(())
            })
            .unwrap();
    }
}
