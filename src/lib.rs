//! `bot`: competitive game bots and puzzle solvers.
//!
//! Each game's rules live once, in its own module; search engines are game-generic; protocol code
//! only translates lines to and from rule types. The `cli` module holds the command-line front
//! ends (clap), kept apart so the CodinGame bundle (penguins + search) stays std-only.

pub mod cli;
pub mod crossword;
pub mod honey;
pub mod penguins;
pub mod scruffle;
pub mod search;
pub mod source_error;
pub mod splitter;
pub mod words;
