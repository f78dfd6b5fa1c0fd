//! The bot's side of the wire: header `W H R` and H layout rows, then one answer per dice line.
//! A dice line `d A B` (first-week Tester) is answered `p N X,Y`; a bare `A B` (current Tester)
//! is answered `N X Y`. Lines are cleaned of BOM, `\r` and stray spaces; anything else is reported
//! on the error stream (quoted short) and skipped, so the bot stays in step with the Tester. Lines
//! are read with bounded memory: a line longer than `MAX_LINE_BYTES` is cut.

use super::game::{Board, Dice, Move};
use super::layout::{clean_line, Layout};
use super::policy::{Player, Settings};
use super::trace::MoveTrace;
use crate::source_error::{quote, read_line_capped};
use std::io::{BufRead, Write};

/// Bytes kept of one input line (a layout row of `MAX_SIDE` cells takes 128).
pub const MAX_LINE_BYTES: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `d A B` -> `p N X,Y`
    Old,
    /// `A B` -> `N X Y`
    Current,
}

/// Format an answer in the dialect of the dice line it answers. Single spaces only.
pub fn format_answer(dialect: Dialect, mv: Move) -> String {
    match dialect {
        Dialect::Old => format!("p {} {},{}", mv.die, mv.x, mv.y),
        Dialect::Current => format!("{} {} {}", mv.die, mv.x, mv.y),
    }
}

/// Parse a cleaned dice line. `Err` explains why it is not one.
pub fn parse_dice(line: &str) -> Result<(Dialect, Dice), String> {
    let mut tokens = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty());
    let mut dialect = Dialect::Current;
    let mut first = tokens.next().ok_or("empty line")?;
    if first.eq_ignore_ascii_case("d") {
        dialect = Dialect::Old;
        first = tokens.next().ok_or("'d' without dice")?;
    }
    let die = |t: &str| match t.parse::<u8>() {
        Ok(v) if (1..=6).contains(&v) => Ok(v),
        _ => Err(format!("{} is not a die value 1..6", quote(t))),
    };
    let a = die(first)?;
    let b = die(tokens.next().ok_or("only one die")?)?;
    Ok((dialect, Dice(a, b)))
}

/// Anything after the two dice (reported, but the dice are still answered).
fn trailing_junk(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    let skip = if rest.starts_with(['d', 'D']) { 3 } else { 2 };
    for _ in 0..skip {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        rest = rest.trim_start_matches(|c: char| !(c.is_whitespace() || c == ','));
    }
    let rest = rest.trim_matches(|c: char| c.is_whitespace() || c == ',');
    (!rest.is_empty()).then_some(rest)
}

/// Reads lines as bytes so invalid UTF-8 is reported, not fatal; numbers them from 1; keeps at
/// most `MAX_LINE_BYTES` of each.
struct Lines<R> {
    input: R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    fn next_line(&mut self) -> std::io::Result<Option<String>> {
        if read_line_capped(&mut self.input, MAX_LINE_BYTES, &mut self.buf)?.is_none() {
            return Ok(None);
        }
        self.number += 1;
        Ok(Some(String::from_utf8_lossy(&self.buf).into_owned()))
    }

    /// Next line that is neither blank nor a `#` comment, cleaned.
    fn next_content(&mut self) -> std::io::Result<Option<String>> {
        while let Some(raw) = self.next_line()? {
            let line = clean_line(&raw);
            if !line.is_empty() && !line.starts_with('#') {
                return Ok(Some(line.to_string()));
            }
        }
        Ok(None)
    }
}

/// Read the header and layout. Errors name the line.
fn read_layout<R: BufRead>(lines: &mut Lines<R>) -> Result<(Layout, usize), String> {
    let header = lines
        .next_content()
        .map_err(|e| e.to_string())?
        .ok_or("no header line before end of input")?;
    let at = lines.number;
    let nums: Vec<usize> = header
        .split_whitespace()
        .map(|t| t.parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "line {at}: header {} is not 'W H R' (numbers)",
                quote(&header)
            )
        })?;
    if nums.len() != 2 && nums.len() != 3 {
        return Err(format!(
            "line {at}: header {} is not 'W H R'",
            quote(&header)
        ));
    }
    let (mut w, mut h) = (nums[0], nums[1]);
    if w == 0 || h == 0 || w > super::layout::MAX_SIDE || h > super::layout::MAX_SIDE {
        return Err(format!(
            "line {at}: board size {w} x {h} is not in 1..={}",
            super::layout::MAX_SIDE
        ));
    }
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let mut first_row_line = 0;
    while rows.len() < h {
        let line = lines
            .next_content()
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("end of input after {} of {h} layout rows", rows.len()))?;
        if rows.is_empty() {
            first_row_line = lines.number;
        }
        let row = super::layout::parse_codes(&line, lines.number).map_err(|e| e.to_string())?;
        // The first-week Tester sent "H W" without rounds: accept rows as wide as the first number.
        if rows.is_empty() && row.len() != w && row.len() == h && nums.len() == 2 {
            std::mem::swap(&mut w, &mut h);
        }
        if row.len() != w {
            return Err(format!(
                "line {}: layout row has {} cells, expected {w}",
                lines.number,
                row.len()
            ));
        }
        rows.push(row);
    }
    let layout =
        Layout::new(&rows).map_err(|e| format!("layout from line {first_row_line}: {e}"))?;
    let rounds = nums
        .get(2)
        .copied()
        .unwrap_or_else(|| layout.default_rounds());
    Ok((layout, rounds))
}

/// Play one game over `input`/`output`; problems go to `errors`. Returns Err only when no game can
/// be played (missing or broken header/layout) or the output is gone.
pub fn run<R: BufRead, W: Write, E: Write>(
    input: R,
    output: &mut W,
    errors: &mut E,
    settings: Settings,
) -> Result<(), String> {
    run_traced(input, output, errors, settings, None)
}

/// `run`, and when `trace` is given, one line per answered move on it (`trace.rs`), written and
/// flushed before the answer: the Tester stops the bot as soon as it has the last one.
pub fn run_traced<R: BufRead, W: Write, E: Write>(
    input: R,
    output: &mut W,
    errors: &mut E,
    settings: Settings,
    mut trace: Option<&mut dyn Write>,
) -> Result<(), String> {
    let mut lines = Lines {
        input,
        number: 0,
        buf: Vec::new(),
    };
    let (layout, rounds) = read_layout(&mut lines)?;
    let mut board = Board::new(&layout, rounds);
    let mut player = Player::new(&layout, settings);
    player.trace = trace.is_some().then(MoveTrace::default);
    let mut answered = 0;
    while let Some(line) = lines.next_content().map_err(|e| e.to_string())? {
        let line = line.as_str();
        let (dialect, dice) = match parse_dice(line) {
            Ok(parsed) => parsed,
            Err(why) => {
                let _ = writeln!(
                    errors,
                    "splitter: line {}: ignoring {}: {why}",
                    lines.number,
                    quote(line)
                );
                continue;
            }
        };
        if let Some(junk) = trailing_junk(line) {
            let _ = writeln!(
                errors,
                "splitter: line {}: ignoring {} after the dice",
                lines.number,
                quote(junk)
            );
        }
        let Some(mv) = player.choose(&board, dice) else {
            // No legal move exists, so none is answered: an illegal one would only be refused.
            // The Tester never rolls for a full board; this input is out of step with the game.
            let _ = writeln!(
                errors,
                "splitter: line {}: dice {} {} but the board is full: no move is possible, none answered",
                lines.number, dice.0, dice.1
            );
            continue;
        };
        board
            .place(&layout, dice, mv)
            .map_err(|e| format!("internal error: own move refused: {e}"))?;
        // The game's time, before the last answer: the Tester stops the bot when it has that.
        let over = board.rounds_left == 0 || board.free_cells(&layout) == 0;
        if let (true, Some(clock)) = (over, &player.clock) {
            let _ = writeln!(
                errors,
                "splitter: line {}: end of game: {}",
                lines.number,
                clock.report()
            );
        }
        answered += 1;
        if let (Some(out), Some(record)) = (trace.as_mut(), &player.trace) {
            writeln!(out, "{}", record.json_line(&layout, answered, dice, mv))
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write the trace: {e}"))?;
        }
        writeln!(output, "{}", format_answer(dialect, mv))
            .and_then(|_| output.flush())
            .map_err(|e| format!("cannot write answer: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::policy::PolicyKind;
    use super::*;

    fn settings() -> Settings {
        Settings {
            kind: PolicyKind::Greedy,
            ..Settings::default()
        }
    }

    const GRID_A: &str = "0 0 1 1 1 1 0 0\n0 1 1 1 1 1 1 0\n1 1 1 1 1 1 1 1\n2 1 1 1 1 1 1 2\n1 1 1 1 1 1 1 1\n0 1 1 1 1 1 1 0\n0 0 1 1 1 1 0 0\n";

    /// Run the loop on `input`; return (stdout lines, stderr text).
    fn drive(input: &str) -> (Vec<String>, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        run(input.as_bytes(), &mut out, &mut err, settings()).unwrap();
        let out = String::from_utf8(out).unwrap();
        (
            out.lines().map(str::to_string).collect(),
            String::from_utf8(err).unwrap(),
        )
    }

    /// Replays answers with the rules (an independent check of legality and the dialect format).
    fn replay(layout: &Layout, dice: &[Dice], answers: &[String], old: &[bool]) {
        assert_eq!(answers.len(), dice.len());
        let mut board = Board::new(layout, dice.len());
        for ((d, a), &o) in dice.iter().zip(answers).zip(old) {
            assert!(
                !a.contains("  ") && !a.ends_with(' '),
                "single spaces only: '{a}'"
            );
            let nums: Vec<usize> = if o {
                let rest = a
                    .strip_prefix("p ")
                    .unwrap_or_else(|| panic!("old dialect answer '{a}'"));
                rest.split([' ', ',']).map(|t| t.parse().unwrap()).collect()
            } else {
                a.split(' ').map(|t| t.parse().unwrap()).collect()
            };
            assert_eq!(nums.len(), 3, "'{a}'");
            if o {
                assert!(a.contains(','), "'{a}'");
            }
            board
                .place(
                    layout,
                    *d,
                    Move {
                        die: nums[0] as u8,
                        x: nums[1],
                        y: nums[2],
                    },
                )
                .unwrap();
        }
    }

    fn game_input(dice: &[Dice], old: &[bool], eol: &str) -> String {
        let mut s = format!("8 7 22{eol}");
        for row in GRID_A.lines() {
            s.push_str(row);
            s.push_str(eol);
        }
        for (d, &o) in dice.iter().zip(old) {
            s.push_str(&if o {
                format!("d {} {}{eol}", d.0, d.1)
            } else {
                format!("{} {}{eol}", d.0, d.1)
            });
        }
        s
    }

    #[test]
    fn both_dialects_and_mixed_lines_get_legal_answers() {
        let layout = super::super::layout::official(1);
        let dice = super::super::dotnet_random::game_dice("protocol", 0, 22);
        for old in [
            vec![false; 22],
            vec![true; 22],
            (0..22).map(|i| i % 3 == 0).collect(),
        ] {
            let (answers, err) = drive(&game_input(&dice, &old, "\n"));
            assert_eq!(err, "");
            replay(&layout, &dice, &answers, &old);
        }
    }

    #[test]
    fn crlf_bom_and_extra_spaces_are_tolerated() {
        let layout = super::super::layout::official(1);
        let dice = super::super::dotnet_random::game_dice("crlf", 3, 22);
        let old: Vec<bool> = (0..22).map(|i| i % 2 == 0).collect();
        let mut input = String::from("\u{feff}");
        input.push_str(&game_input(&dice, &old, "\r\n"));
        let input = input.replace("d ", "  d   ").replace("\r\n", "  \r\n");
        let (answers, err) = drive(&input);
        assert_eq!(err, "");
        replay(&layout, &dice, &answers, &old);
    }

    #[test]
    fn garbage_lines_are_reported_and_play_stays_legal() {
        let layout = super::super::layout::official(1);
        let dice = super::super::dotnet_random::game_dice("garbage", 1, 22);
        let old = vec![false; 22];
        let mut input = String::new();
        for (i, line) in game_input(&dice, &old, "\n").lines().enumerate() {
            input.push_str(line);
            input.push('\n');
            if i >= 8 && i % 4 == 0 {
                input.push_str("hello there\n7 3\nd\n3\n1 x 3\n\n# comment\n\u{1}\u{fffd}\n");
            }
        }
        let (answers, err) = drive(&input);
        replay(&layout, &dice, &answers, &old);
        assert!(err.contains("ignoring \"hello there\""), "{err}");
        assert!(err.contains("\"7\" is not a die value"), "{err}");
        assert!(err.contains("ignoring \"\\u{1}\u{fffd}\""), "{err}");
        assert!(
            err.lines().all(|l| l.starts_with("splitter: line ")),
            "{err}"
        );
        assert!(!err.contains("comment"));
    }

    #[test]
    fn a_full_board_is_reported_and_never_answered() {
        // One mirror pair: the first roll fills the board; later rolls cannot be played.
        let (answers, err) = drive("2 1 3\n1 1\n3 4\n5 6\nd 2 2\n");
        assert_eq!(answers, vec!["3 0 0".to_string()], "{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{err}");
        assert_eq!(
            lines[0],
            "splitter: line 4: dice 5 6 but the board is full: no move is possible, none answered"
        );
        assert!(lines[1].starts_with("splitter: line 5: dice 2 2"), "{err}");
    }

    /// The search reports its game's time once, when its last move is made (the line of the last
    /// dice), and not for a game cut short.
    #[test]
    fn the_search_reports_its_game_time_at_the_end_of_the_game() {
        let search = Settings {
            batches: Some(1),
            ..Settings::default()
        };
        let dice = super::super::dotnet_random::game_dice("clock", 0, 22);
        let whole = game_input(&dice, &[false; 22], "\n");
        let cut: String = whole.lines().take(20).map(|l| format!("{l}\n")).collect();
        for (input, answers, report) in [(&whole, 22, true), (&cut, 12, false)] {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            run(input.as_bytes(), &mut out, &mut err, search.clone()).unwrap();
            let (out, err) = (
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            );
            assert_eq!(out.lines().count(), answers);
            let lines: Vec<&str> = err.lines().collect();
            match report {
                true => {
                    assert_eq!(lines.len(), 1, "{err}");
                    let head = "splitter: line 30: end of game: ";
                    assert!(lines[0].starts_with(head), "{err}");
                    assert!(lines[0].contains("(22 moves, longest "), "{err}");
                }
                false => assert_eq!(err, ""),
            }
        }
    }

    #[test]
    fn huge_and_binary_lines_are_reported_short_and_escaped() {
        let mut input = format!("8 7 22\n{GRID_A}");
        input.push_str(&"9".repeat(1 << 20));
        input.push_str("\n\x1b[2J\x07\n3 4\n");
        let (answers, err) = drive(&input);
        assert_eq!(answers.len(), 1, "the dice after the junk are answered");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{err}");
        assert!(lines.iter().all(|l| l.len() < 300), "{err}");
        assert!(
            lines[0].starts_with("splitter: line 9: ignoring \"9999"),
            "{err}"
        );
        assert!(lines[1].contains("\\u{1b}[2J\\u{7}"), "{err}");
        assert!(!err.contains('\x1b') && !err.contains('\x07'));
    }

    #[test]
    fn odd_boards_and_old_header_order() {
        // A 6x3 board with hearts, no rounds in the header; and a 2x3 board sent as "H W".
        for (input, rolls) in [
            ("6 3\n0 1 1 1 1 0\n3 1 1 3 1 1\n0 1 1 1 1 0\n", 7),
            ("3 2\n3 3\n1 1\n2 2\n", 3),
        ] {
            let mut s = input.to_string();
            for i in 0..rolls {
                s.push_str(&format!("{} {}\n", i % 6 + 1, (i * 5) % 6 + 1));
            }
            let (answers, err) = drive(&s);
            assert_eq!(answers.len(), rolls, "{err}");
        }
    }

    #[test]
    fn broken_headers_are_errors_naming_the_line() {
        for (input, needle) in [
            ("", "no header"),
            ("8 x 22\n", "line 1"),
            ("# c\n8 7 22\n0 0 1\n", "line 3"),
            ("2 2 1\n1 1\n", "end of input after 1 of 2"),
            ("2 1 1\n1 9\n", "line 2"),
            ("2 1 1\n1 0\n", "mirror"),
        ] {
            let mut out = Vec::new();
            let mut err = Vec::new();
            let e = run(input.as_bytes(), &mut out, &mut err, settings()).unwrap_err();
            assert!(e.contains(needle), "{input:?}: {e}");
            assert!(out.is_empty());
        }
    }

    #[test]
    fn dice_parsing() {
        assert_eq!(parse_dice("3 4"), Ok((Dialect::Current, Dice(3, 4))));
        assert_eq!(parse_dice("d 6 1"), Ok((Dialect::Old, Dice(6, 1))));
        assert_eq!(parse_dice("D 2,2"), Ok((Dialect::Old, Dice(2, 2))));
        for bad in ["", "d", "3", "0 1", "7 1", "a b", "p 1 2,3", "1 x"] {
            assert!(parse_dice(bad).is_err(), "{bad}");
        }
        // Extra fields: the dice are answered, the rest is reported.
        assert_eq!(parse_dice("1 2 3"), Ok((Dialect::Current, Dice(1, 2))));
        assert_eq!(trailing_junk("1 2 3"), Some("3"));
        assert_eq!(trailing_junk("d 1,2  x y "), Some("x y"));
        assert_eq!(trailing_junk("d 1 2"), None);
        assert_eq!(trailing_junk("4 5"), None);
    }
}
