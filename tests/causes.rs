//! Answers and refusals that say what they are: exact Honey values past u64, Crossword fields
//! counted as characters with the odd one named, a fill that did not happen with its reason, and
//! a bench that refuses to divide by nothing.

mod common;

use common::run_bot;

#[test]
fn honey_values_past_u64_are_exact_and_order_the_moves() {
    // A 64x64 board of triple-word cells, one A on it, 200 A's in hand: A^k is worth
    // (3^(k+1) - 3) / 2 on a path of k cells, so longer words score more.
    let dir = test_support::scratch_dir("causes-honey");
    let n = 64;
    let mut letters = vec![vec!["-"; n]; n];
    letters[0][0] = "A";
    let grid = |rows: &[Vec<&str>]| rows.iter().map(|r| r.join(" ") + "\n").collect::<String>();
    std::fs::write(dir.join("t_letters.txt"), grid(&letters)).unwrap();
    std::fs::write(dir.join("t_bonuses.txt"), grid(&vec![vec!["tw"; n]; n])).unwrap();
    std::fs::write(dir.join("t_hand.txt"), "A".repeat(200)).unwrap();
    let words: String = (2..=n).map(|k| "A".repeat(k) + "\n").collect();
    std::fs::write(dir.join("t_words.txt"), words).unwrap();
    let (code, out, err) = run_bot(
        &[
            "honey",
            "--dir",
            dir.to_str().unwrap(),
            "--id",
            "t",
            "--top",
            "3",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let values: Vec<(usize, &str)> = out
        .lines()
        .map(|l| {
            let (word, value) = l.split_once('_').unwrap();
            (word.len(), value.rsplit('_').next().unwrap())
        })
        .collect();
    // (3^65 - 3) / 2 and (3^64 - 3) / 2, past u64::MAX; both directions tie on the longest.
    assert_eq!(
        values,
        [
            (64, "5150525730438768726986773633920"),
            (64, "5150525730438768726986773633920"),
            (63, "1716841910146256242328924544639"),
        ],
        "{out}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_crossword_field_is_a_character_and_an_odd_one_is_named() {
    let dir = test_support::scratch_dir("causes-crossword-field");
    let grid = dir.join("g.cwg");
    std::fs::write(&grid, "3\n3\n?.?\n?\u{c4}.\n?..\n").unwrap();
    let (code, _, err) = run_bot(&["crossword", "rate", grid.to_str().unwrap()], "");
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!(
            "error: {}: line 4: column 1: unexpected character \"\u{c4}\" (expected ? . A-Z - or space)",
            grid.display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_crossword_fill_that_does_not_happen_says_why() {
    let dir = test_support::scratch_dir("causes-crossword-fill");
    let (layout, broken, words) = (dir.join("l.cwg"), dir.join("b.cwg"), dir.join("w.txt"));
    // The solved 3x3 example of the challenge README as a layout, and without its last question.
    let text = "3\n3\n?.?\n?..\n?..\n0 0 4\n0 2 0\n1 0 3\n2 0 3\n";
    std::fs::write(&layout, text).unwrap();
    std::fs::write(&broken, text.strip_suffix("2 0 3\n").unwrap()).unwrap();
    // Without AD the last word has no candidate.
    std::fs::write(&words, "LEA\nID\nEI\n").unwrap();
    let (layout, broken, words) = (
        layout.to_str().unwrap(),
        broken.to_str().unwrap(),
        words.to_str().unwrap(),
    );
    let (code, out, err) = run_bot(&["crossword", "fill", broken, "--words", words], "");
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.trim(),
        format!("error: {broken}: not filled: the layout breaks a rule: question field (2, 0) has no question")
    );
    let (code, out, _) = run_bot(&["crossword", "fill", layout, "--words", words], "");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("seed 1: NOT filled: the search ran out of candidates in "),
        "{out}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_penguins_bench_of_no_positions_measures_no_speed() {
    // Nothing to measure: refused, where it printed a table of NaN rates.
    let (code, out, err) = run_bot(&["bench", "penguins", "--positions", "0"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.trim(),
        "error: bench penguins: --positions 0 and no --games: nothing to measure"
    );
    // The games alone: no speed table, no NaN.
    let (code, out, err) = run_bot(
        &[
            "bench",
            "penguins",
            "--positions",
            "0",
            "--games",
            "2",
            "--policy",
            "greedy",
            "--ms",
            "5",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("NaN") && !out.contains("knps"), "{out}");
    let (code, _, err) = run_bot(&["bench", "penguins", "--positions", "10001"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("must be a whole number from 0 to 10000"),
        "{err}"
    );
}
