//! Property-based fuzzing of every input parser and protocol loop of the `bot` library that this
//! file owns: the Splitter bot's turn loop (header, layout rows and dice lines), Splitter layout
//! files, `.cwg` grids, Honey level files, word lists and letter-value files. Each property feeds
//! random and half-valid inputs and asserts no panic (proptest turns one into a failure with the
//! smallest input) and either a result or a one-line error. Case count and seed: `FUZZ_CASES`,
//! `FUZZ_SEED` (see `test_support::fuzz`).

use bot::crossword::grid::Grid;
use bot::crossword::rate::rate;
use bot::honey::{solve, Level, Rules};
use bot::splitter::protocol;
use bot::splitter::{Layout, PolicyKind, Settings};
use bot::words::{parse_words, LetterValues, Trie};
use test_support::fuzz::config;
use test_support::proptest::collection::vec;
use test_support::proptest::prelude::*;

/// A one-line error of sane length (inputs are quoted short).
fn one_line(e: &str) -> Result<(), TestCaseError> {
    prop_assert!(!e.contains('\n'), "multi-line error: {e:?}");
    prop_assert!(
        e.chars().count() <= 400,
        "error too long: {} chars",
        e.len()
    );
    prop_assert!(
        !e.chars().any(|c| c.is_control()),
        "raw control character in {e:?}"
    );
    Ok(())
}

/// Text lines assembled from tokens that are valid somewhere, almost valid, or junk.
fn token_lines(tokens: &'static [&'static str], rows: usize) -> impl Strategy<Value = String> {
    let token = prop::sample::select(tokens);
    let sep = prop::sample::select(&[" ", "  ", "\t", ","][..]);
    let line = vec((token, sep), 0..7).prop_map(|cells| {
        cells
            .into_iter()
            .flat_map(|(t, s)| [t, s])
            .collect::<String>()
    });
    let eol = prop::sample::select(&["\n", "\r\n", "", "\n\n"][..]);
    vec((line, eol), 0..rows).prop_map(|lines| {
        lines
            .into_iter()
            .flat_map(|(l, e)| [l, e.to_string()])
            .collect()
    })
}

/// Any bytes, as text the way the file readers see it (lossy UTF-8).
fn any_text(max: usize) -> impl Strategy<Value = String> {
    vec(any::<u8>(), 0..max).prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

const GRID_A: &str = "8 7 22\n0 0 1 1 1 1 0 0\n0 1 1 1 1 1 1 0\n1 1 1 1 1 1 1 1\n2 1 1 1 1 1 1 2\n1 1 1 1 1 1 1 1\n0 1 1 1 1 1 1 0\n0 0 1 1 1 1 0 0\n";

/// A Splitter header and layout: the official one, or a small random one (often invalid).
fn splitter_header() -> impl Strategy<Value = String> {
    let small = (1usize..6, 1usize..6, 0usize..30, vec(0u8..5, 36)).prop_map(|(w, h, r, codes)| {
        let mut s = format!("{w} {h} {r}\n");
        for y in 0..h {
            let row: Vec<String> = (0..w).map(|x| codes[y * 6 + x].to_string()).collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    });
    prop_oneof![Just(GRID_A.to_string()), small, any_text(60)]
}

/// Dice lines in both dialects, near misses and junk.
fn splitter_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => (1u8..=6, 1u8..=6).prop_map(|(a, b)| format!("{a} {b}\n").into_bytes()),
        2 => (1u8..=6, 1u8..=6).prop_map(|(a, b)| format!("d {a},{b}\r\n").into_bytes()),
        2 => "[ 0-9dDp,#x\t\r\u{feff}é]{0,14}\n".prop_map(String::into_bytes),
        1 => vec(any::<u8>(), 0..30),
        1 => Just(b"# comment\n\n".to_vec()),
    ]
}

/// Run the bot's turn loop on `input` (greedy, so a case takes microseconds).
fn run_loop(input: &[u8]) -> (Result<(), String>, String, String) {
    let settings = Settings {
        kind: PolicyKind::Greedy,
        ..Settings::default()
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let result = protocol::run(input, &mut out, &mut err, settings);
    (
        result,
        String::from_utf8(out).expect("answers are text"),
        String::from_utf8(err).expect("reports are text"),
    )
}

fn check_loop(input: &[u8]) -> Result<(), TestCaseError> {
    let (result, out, err) = run_loop(input);
    if let Err(e) = &result {
        one_line(e)?;
    }
    for answer in out.lines() {
        let numbers: Vec<&str> = match answer.strip_prefix("p ") {
            Some(old) => old.split([' ', ',']).collect(),
            None => answer.split(' ').collect(),
        };
        prop_assert_eq!(numbers.len(), 3, "answer {:?}", answer);
        prop_assert!(
            numbers.iter().all(|n| n.parse::<u32>().is_ok()),
            "{answer:?}"
        );
        prop_assert!((1..=6).contains(&numbers[0].parse::<u32>().unwrap()));
    }
    for report in err.lines() {
        prop_assert!(report.starts_with("splitter: line "), "{report:?}");
        one_line(report)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config("splitter turn loop"))]
    #[test]
    fn splitter_turn_loop_answers_legibly_or_reports(
        header in splitter_header(),
        lines in vec(splitter_line(), 0..40),
    ) {
        let mut input = header.into_bytes();
        input.extend(lines.concat());
        check_loop(&input)?;
    }
}

proptest! {
    #![proptest_config(config("splitter turn loop, raw bytes"))]
    #[test]
    fn splitter_turn_loop_survives_any_bytes(input in vec(any::<u8>(), 0..400)) {
        check_loop(&input)?;
    }
}

proptest! {
    #![proptest_config(config("splitter dice line"))]
    #[test]
    fn dice_lines_parse_or_say_why(line in "[ 0-9dD,a-z\t]{0,12}|\\PC{0,20}") {
        match protocol::parse_dice(&line) {
            Ok((_, dice)) => prop_assert!((1..=6).contains(&dice.0) && (1..=6).contains(&dice.1)),
            Err(e) => one_line(&e)?,
        }
    }
}

proptest! {
    #![proptest_config(config("splitter layout file"))]
    #[test]
    fn splitter_layout_files_parse_or_name_the_line(
        text in prop_oneof![token_lines(&["0", "1", "2", "3", "4", "#", "x", "-1"], 9), any_text(200)],
    ) {
        match Layout::parse_rows(&text, 1) {
            Ok(layout) => prop_assert!(layout.width() >= 1 && layout.height() >= 1),
            Err(e) => one_line(&e.to_string())?,
        }
    }
}

/// A real grid of the challenge, to mutate.
fn cwg_sample() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/crossword/test_cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cwg"))
        .collect();
    files.sort();
    std::fs::read_to_string(&files[0]).expect("a .cwg test case")
}

/// `text` with byte edits: (position, new byte, insert or replace or delete).
fn mutated(text: String, edits: Vec<(usize, u8, u8)>) -> String {
    let mut bytes = text.into_bytes();
    for (at, byte, kind) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn check_cwg(text: &str) -> Result<(), TestCaseError> {
    match Grid::parse(text) {
        Ok(grid) => {
            // What parses writes back and parses to the same grid, and can be rated.
            let again = Grid::parse(&grid.to_text());
            prop_assert_eq!(again.as_ref(), Ok(&grid));
            let r = rate(&grid, None);
            prop_assert!(r.mean().is_finite());
        }
        Err(e) => one_line(&e.to_string())?,
    }
    Ok(())
}

proptest! {
    #![proptest_config(config("cwg grid"))]
    #[test]
    fn cwg_mutations_parse_or_name_the_line(
        edits in vec((any::<usize>(), prop::sample::select(&b"?.-ABZ \n\r09x\xff"[..]), any::<u8>()), 0..6),
    ) {
        check_cwg(&mutated(cwg_sample(), edits))?;
    }

    #[test]
    fn small_cwg_texts_parse_or_name_the_line(
        rows in 0usize..6, cols in 0usize..6,
        cells in vec(prop::sample::select(&b"?.-A Z#"[..]), 36),
        questions in token_lines(&["0", "1", "2", "5", "6", "99", "x", "-1"], 5),
    ) {
        let mut text = format!("{rows}\n{cols}\n");
        for r in 0..rows {
            text.push_str(&String::from_utf8_lossy(&cells[r * 6..r * 6 + cols]));
            text.push('\n');
        }
        text.push_str(&questions);
        check_cwg(&text)?;
    }

    #[test]
    fn any_text_is_a_cwg_or_an_error(text in any_text(300)) {
        check_cwg(&text)?;
    }
}

const HONEY_TOKENS: &[&str] = &[
    "-", "-", "-", "a", "H", "z", "dl", "tl", "dw", "tw", "m", "pr", "pl", "pur", "pul", "pdr",
    "pdl", "xx", "é", "\u{1}", "ab", "PR",
];

const PORTAL_PAIRS: [(&str, &str); 3] = [("pr", "pl"), ("pur", "pdl"), ("pdr", "pul")];

/// A letters and a bonuses grid of one shape, mostly valid: portals come in pairs (which may
/// collide), and a few cells may be replaced by any token.
fn honey_grids() -> impl Strategy<Value = (String, String)> {
    let letters = prop::sample::select(&["-", "-", "-", "-", "A", "h", "Z", "E"][..]);
    let bonuses = prop::sample::select(&["-", "-", "-", "dl", "tl", "dw", "tw", "m"][..]);
    (
        1usize..7,
        1usize..7,
        vec(letters, 36),
        vec(bonuses, 36),
        vec((0usize..36, 0usize..36, 0usize..3), 0..4),
        vec(
            (
                any::<bool>(),
                0usize..36,
                prop::sample::select(HONEY_TOKENS),
            ),
            0..2,
        ),
    )
        .prop_map(|(w, h, mut l, mut b, portals, junk)| {
            for (from, to, kind) in portals {
                b[from] = PORTAL_PAIRS[kind].0;
                b[to] = PORTAL_PAIRS[kind].1;
            }
            for (in_letters, at, token) in junk {
                match in_letters {
                    true => l[at] = token,
                    false => b[at] = token,
                }
            }
            let grid = |cells: &[&str]| -> String {
                (0..h)
                    .map(|y| cells[y * w..y * w + w].join(" ") + "\n")
                    .collect()
            };
            (grid(&l), grid(&b))
        })
}

proptest! {
    #![proptest_config(config("honey level"))]
    #[test]
    fn honey_levels_parse_or_name_file_and_line(
        (letters, bonuses) in prop_oneof![
            3 => honey_grids(),
            1 => (token_lines(HONEY_TOKENS, 6), token_lines(HONEY_TOKENS, 6)),
            1 => (any_text(80), any_text(80)),
        ],
        hand in prop_oneof!["[A-Za-z ]{0,9}", any_text(20)],
    ) {
        match Level::parse((&letters, "l.txt"), (&bonuses, "b.txt"), (&hand, "h.txt")) {
            Ok(level) => {
                let texts = (level.letters_text(), level.bonuses_text(), level.hand_text());
                let again = Level::parse((&texts.0, "l"), (&texts.1, "b"), (&texts.2, "h"));
                prop_assert_eq!(again.as_ref(), Ok(&level));
                // Whatever the grid (portals, loops, full rows), the solver answers.
                let trie = Trie::from_words(["HA", "AH", "ZA", "HAH"]);
                let values = LetterValues::scrabble_english();
                for rules in Rules::all() {
                    let moves = solve(&level, rules, &trie, &values, 3);
                    prop_assert!(moves.len() <= 3);
                }
            }
            Err(e) => {
                let text = e.to_string();
                one_line(&text)?;
                prop_assert!(["l.txt", "b.txt", "h.txt"].iter().any(|f| text.starts_with(f)), "{text}");
            }
        }
    }

    #[test]
    fn word_lists_keep_words_and_report_the_rest(text in prop_oneof![
        token_lines(&["house", "HOSE", "ho-se", "é", "a1", "\u{1}", "Zz"], 6),
        any_text(200),
    ]) {
        let (list, rejected) = parse_words(&text);
        let entries = text.strip_prefix('\u{feff}').unwrap_or(&text).split_whitespace().count();
        prop_assert_eq!(list.words.len() + rejected.len(), entries);
        prop_assert!(list.words.iter().all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_uppercase())));
        prop_assert!(rejected.iter().all(|r| r.line >= 1 && !r.entry.is_empty()));
    }

    #[test]
    fn letter_values_parse_or_name_the_line(text in prop_oneof![
        token_lines(&["A", "z", "Q", "3", "10", "-1", "x", "99999999999", "é"], 8),
        any_text(120),
    ]) {
        match LetterValues::parse(&text, "v.txt") {
            Ok(values) => prop_assert_eq!(values.0.len(), 26),
            Err(e) => {
                prop_assert!(e.line >= 1);
                one_line(&e.to_string())?;
            }
        }
    }
}
