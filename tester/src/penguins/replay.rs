//! The replay written after each game: everything needed to re-check or view it.

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Replay {
    pub seed: u64,
    /// Rule switches in `Rules::parse` syntax.
    pub rules: String,
    /// Bot commands, by seat.
    pub players: Vec<String>,
    pub penguins_per_player: usize,
    pub first_turn_ms: u64,
    pub turn_ms: u64,
    /// The answers were judged by the CPU time each bot used (`--cpu-time`): a turn's CPU time
    /// is within its limit and its wall time within 4 times the limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cpu_time: bool,
    /// Fish per cell before the first move: 8 rows of 8 digits.
    pub initial_board: Vec<String>,
    pub turns: Vec<TurnRecord>,
    /// Final scores (with tiles under penguins when the rules say so).
    pub final_scores: Vec<u32>,
    /// Per seat: why it failed, if it did. In a 2-player game the failure ends the game; with 3 or
    /// 4 the seat is deactivated at `Failure::turn` (before that turn's record) and the others
    /// play on, its penguins staying on the board, until fewer than two seats are left.
    pub failures: Vec<Option<Failure>>,
    /// Per seat: 1 = best. Seats still in the game rank by score (equal scores share a rank);
    /// failed seats rank below them, a later failure above an earlier one.
    pub ranks: Vec<usize>,
    pub end_reason: String,
    /// Per seat: what the bot wrote on stderr (capped).
    pub stderr: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TurnRecord {
    pub turn: usize,
    pub player: usize,
    /// The action as played (`MOVE id cell`), without any message.
    pub action: String,
    /// The text after `MSG`, if any.
    pub message: Option<String>,
    /// Time from sending the input to reading the answer line from the pipe (never over the
    /// limit when the wall clock judges: an answer over it is a timeout; under the CPU judge,
    /// never over 4 times the limit).
    pub time_ms: f64,
    /// CPU time the bot's processes used on the turn, when the system could tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// The board after the move: 8 rows of 8 digits.
    pub board: Vec<String>,
    /// Penguins after the move: (id, owner, cell).
    pub penguins: Vec<(usize, usize, String)>,
    /// Running scores after the move.
    pub scores: Vec<u32>,
    /// What the mover wrote on stderr during this turn (as far as it had arrived).
    #[serde(default)]
    pub stderr: String,
    /// The penguin this move pushed into the sea (push rule), with the cell it stood on.
    #[serde(default)]
    pub pushed: Option<Pushed>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    pub id: usize,
    pub owner: usize,
    /// Where it stood when it was pushed (its tile stays).
    pub cell: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `timeout`, `invalid` or `ended` (the bot's output closed).
    pub kind: String,
    pub turn: usize,
    pub detail: String,
}

impl Replay {
    /// Read a replay from its JSON text; the error is one line.
    pub fn from_json(text: &str) -> Result<Replay, String> {
        serde_json::from_str(text).map_err(|e| {
            let reason: String = e.to_string().chars().take(160).collect();
            format!("not a Penguins replay: {reason}")
        })
    }

    /// The cg-brutaltester line per seat: the final score, or -1 for a seat that failed.
    pub fn brutaltester_scores(&self) -> Vec<i64> {
        (0..self.players.len())
            .map(|p| match self.failures[p] {
                Some(_) => -1,
                None => self.final_scores[p] as i64,
            })
            .collect()
    }
}
