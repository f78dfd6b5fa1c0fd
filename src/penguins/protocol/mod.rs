//! The CodinGame protocol, bot side, one job per module:
//! - `input`: reading the init lines and each turn into plain records (never fails on a bad line);
//! - `position`: rebuilding the rules' `State` from one turn (pushed-off penguins included);
//! - `decide`: choosing the answer among the listed actions;
//! - `infer`: noticing from the input that pushing is off;
//! - `budget`: how long each turn's search runs (CodinGame's limits less a margin);
//! - `game_loop`: the turn loop and the bundle's `codingame_main`;
//! - `referee_input`: the lines a referee sends (the other side of the same protocol).
//!
//! Input problems never stop the bot: each is reported on stderr as one line naming the input
//! line, and the bot still answers with a listed action (or, if the list itself is unreadable, a
//! move from its own generator).

pub mod budget;
pub mod decide;
pub mod game_loop;
pub mod infer;
pub mod input;
pub mod position;
pub mod referee_input;

pub use budget::Budget;
pub use decide::{decide, Decision};
pub use game_loop::{codingame_main, play, Player};
pub use infer::PushWatch;
pub use input::{
    parse_action, quote, read_init, read_init_lenient, read_turn, Action, Init, LineReader,
    PenguinLine, Turn,
};
pub use position::{action_to_move, build_state};
pub use referee_input::{init_input, turn_input};

#[cfg(test)]
mod tests;
