//! The `bot` command line as a whole: the subcommands and where each one goes. Kept in the library
//! (not in `main.rs`) so that tests can parse a command line exactly as the binary does without
//! running it (the documentation's commands are checked that way).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use super::{bench, crossword, honey, penguins, scruffle, splitter, train};

/// Competitive game bots and puzzle solvers.
#[derive(Parser)]
#[command(name = "bot", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play the Splitter dice game over stdin/stdout (both protocol dialects).
    Splitter(splitter::Args),
    /// Play CodinGame "Penguins" over stdin/stdout, or run perft.
    Penguins(penguins::Args),
    /// Best move on a hex Scrabble grid with portals ("Honey for Scarabs").
    Honey(honey::Args),
    /// Schwedenrätsel: rate or generate `.cwg` grids.
    Crossword(crossword::Args),
    /// TopCoder "Scruffle" word-placement optimiser.
    Scruffle(scruffle::Args),
    /// Print speed/strength figures for fixed seeds and limits.
    Bench(bench::Args),
    /// Train a learned evaluation (Splitter) by self-play.
    Train(train::Args),
}

impl Cli {
    /// Run the command the line names.
    pub fn run(self) -> ExitCode {
        match self.command {
            Command::Splitter(args) => splitter::run(args),
            Command::Penguins(args) => penguins::run(args),
            Command::Honey(args) => honey::run(args),
            Command::Crossword(args) => crossword::run(args),
            Command::Scruffle(args) => scruffle::run(args),
            Command::Bench(args) => bench::run(args),
            Command::Train(args) => train::run(args),
        }
    }
}
