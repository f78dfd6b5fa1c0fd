//! Reading the CodinGame input into plain records: the init lines, then per turn the board,
//! scores, penguins and listed actions. A malformed line is recorded as a problem naming its line
//! (input quoted short and escaped) and skipped over; only an input that ends inside a turn is an
//! error.

use std::io::BufRead;

use crate::penguins::board::{parse_cell, Cell, CELLS, COLS, ROWS, VALID};

/// The three init lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Init {
    pub players: usize,
    pub me: usize,
    pub per_player: usize,
}

/// One penguin line: `id ownerId pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PenguinLine {
    pub id: u32,
    pub owner: usize,
    pub cell: Cell,
}

/// One listed action as sent, and what we understood of it (penguin id, target cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub text: String,
    pub parsed: Option<(u32, Cell)>,
}

/// One turn's input. `problems` lists what was malformed (each names its line).
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub fish: Vec<u8>,
    pub scores: Vec<u32>,
    pub penguins: Vec<PenguinLine>,
    pub actions: Vec<Action>,
    /// False when the action count line was unreadable (then `actions` is empty but unknown).
    pub actions_known: bool,
    pub problems: Vec<String>,
}

/// Longest line kept (the protocol's longest is 16 characters); the rest of a longer line is
/// read and dropped, so a flood without newlines costs no memory.
const MAX_LINE: usize = 4096;

/// Bytes that are not UTF-8 are kept in a line as characters of this private-use range, so that
/// `quote` can show them as `\xNN` (and no parser mistakes them for anything).
const RAW_BYTE_BASE: u32 = 0x10_FF00;

/// Reads lines and counts them, for error messages.
pub struct LineReader<R> {
    input: R,
    line_no: usize,
    /// A line read ahead and given back (resynchronising after a bad count).
    pending: Option<String>,
    /// Why reading stopped, when it was not the end of the input.
    read_error: Option<String>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            line_no: 0,
            pending: None,
            read_error: None,
        }
    }

    /// The next line without its end-of-line (at most `MAX_LINE` bytes of it), or `None` at the
    /// end of the input or on a read error (see `read_error`).
    pub fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.pending.take() {
            self.line_no += 1;
            return Some(line);
        }
        let mut raw = Vec::new();
        let mut read_any = false;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.read_error = Some(e.to_string());
                    break;
                }
            };
            if buffer.is_empty() {
                break;
            }
            read_any = true;
            let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            };
            let room = MAX_LINE.saturating_sub(raw.len());
            raw.extend_from_slice(&buffer[..taken.min(room)]);
            self.input.consume(taken);
            if complete {
                break;
            }
        }
        if !read_any {
            return None;
        }
        self.line_no += 1;
        while raw.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            raw.pop();
        }
        Some(decode(&raw))
    }

    /// Block until input is available (or ended): the turn's clock starts when its first line
    /// arrives, not when the whole turn has been parsed.
    pub fn wait_for_input(&mut self) {
        if self.pending.is_none() {
            let _ = self.input.fill_buf();
        }
    }

    /// Give back the line just read; the next `next_line` returns it again.
    fn unread(&mut self, line: String) {
        self.line_no -= 1;
        self.pending = Some(line);
    }

    pub fn line_no(&self) -> usize {
        self.line_no
    }

    /// The read error that ended the input early, if any.
    pub fn read_error(&self) -> Option<&str> {
        self.read_error.as_deref()
    }

    fn require(&mut self, what: &str) -> Result<String, String> {
        self.next_line().ok_or_else(|| match &self.read_error {
            Some(e) => format!("cannot read line {}: {e}", self.line_no + 1),
            None => format!(
                "input ended after line {} while reading {what}",
                self.line_no
            ),
        })
    }

    /// A line holding one integer in `range`; `Err` text names the line.
    fn number(&mut self, what: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, String> {
        let line = self.require(what)?;
        match line.trim().parse::<i64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(format!(
                "line {}: {what}: expected an integer in {}..{}, got {}",
                self.line_no,
                range.start(),
                range.end(),
                quote(&line)
            )),
        }
    }
}

/// Text with every byte that is not UTF-8 kept as a `RAW_BYTE_BASE` character.
fn decode(raw: &[u8]) -> String {
    let mut text = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        text.push_str(chunk.valid());
        for &byte in chunk.invalid() {
            text.push(char::from_u32(RAW_BYTE_BASE + byte as u32).expect("a valid scalar"));
        }
    }
    text
}

/// Input quoted for a one-line message: at most 80 characters (then `...`), control characters
/// and bytes that are not UTF-8 escaped (`\n`, `\u{1b}`, `\x89`).
pub fn quote(text: &str) -> String {
    const SHOWN: usize = 80;
    let mut out = String::from("\"");
    for (k, ch) in text.chars().enumerate() {
        if k == SHOWN {
            out.push_str("\"...");
            return out;
        }
        let code = ch as u32;
        if (RAW_BYTE_BASE..RAW_BYTE_BASE + 256).contains(&code) {
            out.push_str(&format!("\\x{:02x}", code - RAW_BYTE_BASE));
        } else if ch == '"' || ch == '\\' || ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out.push('"');
    out
}

/// Read the three init lines; the first bad line is an error.
pub fn read_init<R: BufRead>(reader: &mut LineReader<R>) -> Result<Init, String> {
    let players = reader.number("nbPlayers", 2..=4)? as usize;
    let me = reader.number("playerId", 0..=(players as i64 - 1))? as usize;
    let per_player = reader.number("nbPenguinsPerPlayer", 1..=4)? as usize;
    Ok(Init {
        players,
        me,
        per_player,
    })
}

/// Read the three init lines for the turn loop. The player count must be readable (otherwise
/// this is not a Penguins game's input: `Err`). A bad or missing playerId or penguin count is
/// reported in the problems and replaced by a default (me = 0; the statement's count for the
/// player count: 4, 3 or 2), and the three lines are consumed whatever they hold, so the turns
/// that follow are read in step.
pub fn read_init_lenient<R: BufRead>(
    reader: &mut LineReader<R>,
) -> Result<(Init, Vec<String>), String> {
    let players = reader.number("nbPlayers", 2..=4)? as usize;
    let mut problems = Vec::new();
    let mut field = |what: &str, range: std::ops::RangeInclusive<i64>, default: usize| {
        reader.number(what, range).map_or_else(
            |e| {
                problems.push(format!("{e}; assuming {default}"));
                default
            },
            |n| n as usize,
        )
    };
    let me = field("playerId", 0..=(players as i64 - 1), 0);
    let per_player = field("nbPenguinsPerPlayer", 1..=4, 6 - players);
    let init = Init {
        players,
        me,
        per_player,
    };
    Ok((init, problems))
}

/// Read one turn. `Ok(None)` at a clean end of input (the game is over); `Err` only when the
/// input ends inside the turn. Malformed lines are recorded in `problems` and skipped over.
pub fn read_turn<R: BufRead>(
    reader: &mut LineReader<R>,
    init: &Init,
) -> Result<Option<Turn>, String> {
    let mut turn = Turn {
        fish: vec![0; CELLS],
        ..Turn::default()
    };
    // Action lines left over from a turn whose action count was unreadable are skipped.
    let first = loop {
        let Some(line) = reader.next_line() else {
            return match reader.read_error() {
                Some(e) => Err(format!("cannot read line {}: {e}", reader.line_no() + 1)),
                None => Ok(None),
            };
        };
        if parse_action(&line).is_none() {
            break line;
        }
        turn.problems.push(format!(
            "line {}: skipped a leftover action line {}",
            reader.line_no(),
            quote(&line)
        ));
    };
    let rows = match first.trim().parse::<usize>() {
        Ok(n) if n <= 64 => n,
        _ => {
            turn.problems.push(format!(
                "line {}: nbRows: expected an integer (8), got {}; assuming 8",
                reader.line_no(),
                quote(&first)
            ));
            ROWS
        }
    };
    if rows != ROWS {
        turn.problems.push(format!(
            "line {}: nbRows is {rows}, expected {ROWS}",
            reader.line_no()
        ));
    }
    for row in 0..rows {
        let line = reader.require("a board row")?;
        if row < ROWS {
            read_row(&line, row, reader.line_no(), &mut turn);
        }
    }
    for player in 0..init.players {
        let line = reader.require("a score")?;
        let score = match line.trim().parse::<i64>() {
            Ok(n) => n.clamp(0, u32::MAX as i64) as u32,
            Err(_) => {
                turn.problems.push(format!(
                    "line {}: score of player {player}: expected an integer, got {}",
                    reader.line_no(),
                    quote(&line)
                ));
                0
            }
        };
        turn.scores.push(score);
    }
    match counted(reader, "nbPenguins", 64, &mut turn.problems)? {
        Some(penguins) => {
            for _ in 0..penguins {
                let line = reader.require("a penguin line")?;
                match parse_penguin(&line, init) {
                    Ok(p) => turn.penguins.push(p),
                    Err(e) => turn
                        .problems
                        .push(format!("line {}: penguin: {e}", reader.line_no())),
                }
            }
        }
        None => {
            // Unknown count: take penguin-shaped lines until the one-number action count.
            loop {
                let line = reader.require("a penguin line or actionCount")?;
                match parse_penguin(&line, init) {
                    Ok(p) => turn.penguins.push(p),
                    Err(_) => {
                        reader.unread(line);
                        break;
                    }
                }
            }
        }
    }
    let actions = counted(reader, "actionCount", 1024, &mut turn.problems)?;
    turn.actions_known = actions.is_some();
    for _ in 0..actions.unwrap_or(0) {
        let line = reader.require("an action line")?;
        let parsed = parse_action(&line);
        if parsed.is_none() {
            turn.problems.push(format!(
                "line {}: action: expected \"[MOVE] <id> <cell> [...]\", got {}",
                reader.line_no(),
                quote(&line)
            ));
        }
        turn.actions.push(Action {
            text: line.trim().to_string(),
            parsed,
        });
    }
    Ok(Some(turn))
}

/// A count line; `None` (and a problem) when unreadable or above `max`.
fn counted<R: BufRead>(
    reader: &mut LineReader<R>,
    what: &str,
    max: usize,
    problems: &mut Vec<String>,
) -> Result<Option<usize>, String> {
    let line = reader.require(what)?;
    match line.trim().parse::<usize>() {
        Ok(n) if n <= max => Ok(Some(n)),
        _ => {
            problems.push(format!(
                "line {}: {what}: expected an integer in 0..{max}, got {}",
                reader.line_no(),
                quote(&line)
            ));
            Ok(None)
        }
    }
}

fn read_row(line: &str, row: usize, line_no: usize, turn: &mut Turn) {
    let text = line.trim();
    let mut bad = text.len() != COLS;
    for (col, ch) in text.chars().take(COLS).enumerate() {
        let cell = row * COLS + col;
        match ch.to_digit(10) {
            Some(f @ 0..=3) if f == 0 || VALID >> cell & 1 == 1 => turn.fish[cell] = f as u8,
            _ => bad = true,
        }
    }
    if bad {
        turn.problems.push(format!(
            "line {line_no}: row {}: expected 8 digits 0-3 (0 on a short row's last cell), got {}",
            row + 1,
            quote(line)
        ));
    }
}

fn parse_penguin(line: &str, init: &Init) -> Result<PenguinLine, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != 3 {
        return Err(format!("expected \"id ownerId pos\", got {}", quote(line)));
    }
    let id = words[0]
        .parse::<u32>()
        .map_err(|_| format!("bad id in {}", quote(line)))?;
    let owner = match words[1].parse::<usize>() {
        Ok(o) if o < init.players => o,
        _ => return Err(format!("bad owner in {}", quote(line))),
    };
    let cell = parse_cell(words[2]).ok_or_else(|| format!("bad cell in {}", quote(line)))?;
    Ok(PenguinLine { id, owner, cell })
}

/// A listed action -> (penguin id, cell): the first word pair "<id> <cell>", so `MOVE 3 C5`,
/// `3 C5`, `MOVE 3 C5 MSG hi` and `PLACE 3 C5 now` all read as (3, C5). The action text is not
/// specified anywhere; the bot answers with the listed line's own text, so only the pair matters.
pub fn parse_action(line: &str) -> Option<(u32, Cell)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let id = pair[0].parse::<u32>().ok()?;
        Some((id, parse_cell(pair[1])?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_action_reads_the_pair_with_or_without_move_and_extra_words() {
        let c5 = parse_cell("C5").unwrap();
        for text in [
            "MOVE 3 C5",
            "MOVE 3 C5 MSG hi",
            "3 C5",
            "3 C5 extra words",
            "move 3 c5",
            "PLACE 3 C5",
            "  MOVE   3   C5  ",
        ] {
            assert_eq!(parse_action(text), Some((3, c5)), "{text:?}");
        }
        for junk in [
            "",
            "MOVE",
            "MOVE x C5",
            "MOVE 3 Z9",
            "MOVE 3 H1",
            "21211320",
            "8",
            "C5 3",
        ] {
            assert_eq!(parse_action(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("MOVE 1 A2"), "\"MOVE 1 A2\"");
        assert_eq!(quote("a\tb\u{1b}\"\\"), "\"a\\tb\\u{1b}\\\"\\\\\"");
        let long = "x".repeat(500);
        let quoted = quote(&long);
        assert!(quoted.len() < 90 && quoted.ends_with("\"..."), "{quoted}");
        let raw = decode(b"\x89PNG\r\n\x1a\n\xff");
        assert_eq!(quote(&raw), "\"\\x89PNG\\r\\n\\u{1a}\\n\\xff\"");
        assert_eq!(decode("héllo".as_bytes()), "héllo");
    }

    #[test]
    fn binary_and_over_long_lines_are_read_without_error() {
        let mut input = b"\x89PNG\x00\xff\n".to_vec();
        input.extend(std::iter::repeat_n(b'7', 100_000));
        input.extend(b"\n3\n");
        let mut reader = LineReader::new(&input[..]);
        let first = reader.next_line().unwrap();
        assert_eq!(quote(&first), "\"\\x89PNG\\u{0}\\xff\"");
        assert_eq!(reader.next_line().unwrap().len(), MAX_LINE);
        assert_eq!(reader.next_line().as_deref(), Some("3"));
        assert_eq!(reader.line_no(), 3);
        assert_eq!(reader.next_line(), None);
        let err = read_init(&mut LineReader::new(&b"\x89PNG\n"[..])).unwrap_err();
        assert_eq!(
            err,
            "line 1: nbPlayers: expected an integer in 2..4, got \"\\x89PNG\""
        );
    }
}
