//! Command-line front ends (clap). One file per game; `bench` dispatches to each game's bench.
//! Nothing in the penguins bundle may depend on this module.

pub mod args;
pub mod bench;
mod command_line;
pub mod crossword;
pub mod honey;
pub mod output;
pub mod penguins;
pub mod penguins_bench;
pub mod pipe;
pub mod progress;
pub mod scruffle;
pub mod splitter;
pub mod splitter_blend;
pub mod splitter_train;
pub mod train;

pub use command_line::Cli;

use std::process::ExitCode;

/// Print a one-line error on stderr and return a failing exit code.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}
