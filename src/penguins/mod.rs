//! CodinGame "Penguins" (Hey, That's My Fish!): hex bitboards and ray tables, move generation,
//! rule variants, scoring, board generator, baseline policies, protocol and perft.
//!
//! std only: this module and `crate::search` are what the CodinGame bundle contains.

pub mod board;
pub mod generator;
pub mod perft;
pub mod policy;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod state;
pub mod zobrist;

#[cfg(test)]
mod naive;
#[cfg(test)]
mod tests;

pub use board::{cell_name, parse_cell, Cell, NO_CELL};
pub use generator::generate_board;
pub use policy::{default_policy, make_policy, Policy};
pub use protocol::codingame_main;
pub use rules::{Placement, Rules};
pub use state::{Move, MoveList, State, Undo};
pub mod engine;
