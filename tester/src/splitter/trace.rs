//! The bot's own account of its moves (`bot splitter --trace FILE`), carried into `--json` and
//! the `--html` report. A command holding `{trace}` gets a file of its own in each game (the
//! placeholder becomes its path); after the game the tester reads it, checks it against the game
//! it refereed (one line per move, each with the roll's number, its dice and the move answered;
//! every candidate a legal move on the board of that roll, the move played among them) and keeps
//! it with the game. A trace that disagrees with the game fails the game: a page must not explain
//! moves with reasons that were not the bot's.

use bot::source_error::quote;
use bot::splitter::{Board, Dice, Layout};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The placeholder a bot command uses for its trace file.
pub const PLACEHOLDER: &str = "{trace}";

/// Largest trace file read (a game's trace is tens of kilobytes).
const MAX_TRACE_BYTES: u64 = 16 << 20;

/// Methods the page knows how to describe.
const METHODS: [&str; 5] = ["rollouts", "exact", "only", "floor", "policy"];

/// One move's record, as kept with the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceMove {
    /// How the bot chose: rollouts, exact, only, floor or policy.
    pub method: String,
    pub candidates: Vec<Candidate>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The move that names it: [die, x, y].
    #[serde(rename = "move")]
    pub mv: [usize; 3],
    /// Its mean (estimated or exact final points); None when not weighed.
    pub mean: Option<f64>,
    pub rollouts: u64,
}

/// One line of the bot's file.
#[derive(Deserialize)]
struct Line {
    roll: usize,
    dice: [u8; 2],
    chosen: [usize; 3],
    method: String,
    candidates: Vec<Candidate>,
}

/// A fresh trace path for one game, in the temporary folder (unique within this run).
pub fn fresh_path() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("tester-trace-{}-{n}.jsonl", std::process::id()))
}

/// `command` with its `{trace}` placeholders replaced by `path`, quoted for the shell.
pub fn substitute(command: &str, path: &Path) -> String {
    let quoted = format!("'{}'", path.display().to_string().replace('\'', "'\\''"));
    command.replace(PLACEHOLDER, &quoted)
}

/// Read and check the trace at `path` against the game's dice and moves; the file is removed.
pub fn read(
    path: &Path,
    layout: &Layout,
    dice: &[[u8; 2]],
    moves: &[[usize; 3]],
) -> Result<Vec<TraceMove>, String> {
    let bytes = bot::source_error::read_bytes_capped(path, MAX_TRACE_BYTES);
    let _ = std::fs::remove_file(path);
    let bytes = bytes.map_err(|e| format!("the bot's trace: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    check(&text, layout, dice, moves).map_err(|e| format!("the bot's trace {e}"))
}

/// Check the trace's text against the game (see the module's doc).
pub fn check(
    text: &str,
    layout: &Layout,
    dice: &[[u8; 2]],
    moves: &[[usize; 3]],
) -> Result<Vec<TraceMove>, String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() != moves.len() {
        return Err(format!(
            "has {} lines for {} moves",
            lines.len(),
            moves.len()
        ));
    }
    let mut board = Board::new(layout, layout.default_rounds());
    let mut out = Vec::with_capacity(lines.len());
    for (k, raw) in lines.iter().enumerate() {
        let at = |problem: String| format!("line {}: {problem}", k + 1);
        let line: Line = serde_json::from_str(raw).map_err(|e| {
            let reason: String = e.to_string().chars().take(80).collect();
            at(format!("{} is not a trace line: {reason}", quote(raw)))
        })?;
        let roll = Dice(dice[k][0], dice[k][1]);
        if line.roll != k + 1 || line.dice != dice[k] || line.chosen != moves[k] {
            return Err(at(format!(
                "roll {} with dice {:?} and move {:?}, but the game's roll {} had dice {:?} and move {:?}",
                line.roll,
                line.dice,
                line.chosen,
                k + 1,
                dice[k],
                moves[k]
            )));
        }
        if !METHODS.contains(&line.method.as_str()) {
            return Err(at(format!("unknown method {}", quote(&line.method))));
        }
        let outcome = |mv: [usize; 3]| -> Result<[(usize, u8); 2], String> {
            let [die, x, y] = mv;
            let die = u8::try_from(die).unwrap_or(0);
            let cell = board
                .check(layout, roll, die, x as i64, y as i64)
                .map_err(|e| at(format!("candidate {mv:?}: {e}")))?;
            let mut pair = [(cell, die), (layout.mirror(cell), roll.other(die))];
            pair.sort();
            Ok(pair)
        };
        let played = outcome(line.chosen)?;
        let mut named = false;
        for c in &line.candidates {
            named |= outcome(c.mv)? == played;
            if c.mean.is_some_and(|m| !m.is_finite() || m.abs() > 1e6) {
                return Err(at(format!("candidate {:?}: mean {:?}", c.mv, c.mean)));
            }
        }
        if !named {
            return Err(at(format!(
                "the move played {:?} is not among the candidates",
                line.chosen
            )));
        }
        let [die, x, y] = moves[k];
        let cell = y * layout.width() + x;
        board.apply(layout, cell, die as u8, roll.other(die as u8));
        out.push(TraceMove {
            method: line.method,
            candidates: line.candidates,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot::splitter::{game_dice, official, Move};

    /// A game played by the first legal move, and a trace of it in the bot's format: each roll's
    /// legal moves as candidates with made-up means.
    fn game() -> (Vec<[u8; 2]>, Vec<[usize; 3]>, String) {
        let layout = official(1);
        let mut board = Board::new(&layout, 22);
        let (mut dice, mut moves, mut text) = (Vec::new(), Vec::new(), String::new());
        for (k, d) in game_dice("t", 0, 22).into_iter().enumerate() {
            let legal = board.legal_moves(&layout, d);
            let mv: Move = legal[0];
            let candidates: Vec<String> = legal
                .iter()
                .take(4)
                .enumerate()
                .map(|(i, m)| {
                    format!(
                        r#"{{"move":[{},{},{}],"mean":{}.5,"rollouts":{}}}"#,
                        m.die,
                        m.x,
                        m.y,
                        30 - i,
                        8 * (4 - i)
                    )
                })
                .collect();
            text.push_str(&format!(
                r#"{{"roll":{},"dice":[{},{}],"chosen":[{},{},{}],"method":"rollouts","rollouts":80,"candidates":[{}]}}"#,
                k + 1,
                d.0,
                d.1,
                mv.die,
                mv.x,
                mv.y,
                candidates.join(",")
            ));
            text.push('\n');
            board.place(&layout, d, mv).unwrap();
            dice.push([d.0, d.1]);
            moves.push([mv.die as usize, mv.x, mv.y]);
        }
        (dice, moves, text)
    }

    #[test]
    fn a_faithful_trace_is_kept() {
        let (dice, moves, text) = game();
        let trace = check(&text, &official(1), &dice, &moves).unwrap();
        assert_eq!(trace.len(), 22);
        assert_eq!(trace[0].method, "rollouts");
        assert_eq!(trace[0].candidates[0].mean, Some(30.5));
        assert_eq!(trace[0].candidates[1].rollouts, 24);
    }

    /// Each way a trace can disagree with the game it claims to explain is refused, naming the
    /// line.
    #[test]
    fn a_trace_that_disagrees_with_the_game_is_refused() {
        let (dice, moves, text) = game();
        let layout = official(1);
        let lines: Vec<&str> = text.lines().collect();
        let with_line = |k: usize, new: String| {
            let mut l = lines.clone();
            l[k] = &new;
            l.join("\n")
        };
        let refused = |text: &str| check(text, &layout, &dice, &moves).unwrap_err();
        assert!(refused(&lines[..21].join("\n")).contains("21 lines for 22 moves"));
        let e = refused(&with_line(3, lines[3].replace("\"roll\":4", "\"roll\":5")));
        assert!(e.starts_with("line 4: roll 5"), "{e}");
        let e = refused(&with_line(
            2,
            lines[2].replace("\"method\":\"rollouts\"", "\"method\":\"magic\""),
        ));
        assert!(e.contains("unknown method \"magic\""), "{e}");
        let e = refused(&with_line(0, "not json".into()));
        assert!(
            e.starts_with("line 1: \"not json\" is not a trace line"),
            "{e}"
        );
        // A candidate on an occupied cell, and a move played that no candidate names.
        let taken = moves[0];
        let e = refused(&with_line(
            1,
            lines[1].replacen(
                "\"candidates\":[",
                &format!(
                    "\"candidates\":[{{\"move\":[{},{},{}],\"mean\":1,\"rollouts\":1}},",
                    dice[1][0], taken[1], taken[2]
                ),
                1,
            ),
        ));
        assert!(e.starts_with("line 2: candidate"), "{e}");
        let only_others: String = {
            let v: serde_json::Value = serde_json::from_str(lines[5]).unwrap();
            let mut v = v;
            let chosen = v["chosen"].clone();
            let kept: Vec<serde_json::Value> = v["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["move"] != chosen)
                .cloned()
                .collect();
            v["candidates"] = serde_json::Value::Array(kept);
            v.to_string()
        };
        let e = refused(&with_line(5, only_others));
        assert!(e.contains("is not among the candidates"), "{e}");
    }

    #[test]
    fn the_placeholder_becomes_a_quoted_path() {
        let cmd = substitute(
            "bot splitter --trace {trace}",
            Path::new("/tmp/a b'c.jsonl"),
        );
        assert_eq!(cmd, "bot splitter --trace '/tmp/a b'\\''c.jsonl'");
        assert_ne!(fresh_path(), fresh_path());
    }
}
