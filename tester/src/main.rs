//! `tester`: everything local — the Splitter Tester, the Penguins referee and arena, puzzle level
//! generators and independent checkers. Checkers here never call the solver code they check.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod arena;
#[cfg(test)]
mod docs_tests;
mod honey;
mod penguins;
mod process;
mod progress;
mod scruffle;
mod shard;
mod splitter;

#[derive(Parser)]
#[command(name = "tester", version, long_version = shard::VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run Splitter games against a bot command (compatible with the official Tester).
    Splitter(splitter::Args),
    /// Referee one Penguins game (also the cg-brutaltester `-p1 .. -p4` interface).
    Penguins(penguins::Args),
    /// Many Penguins games in parallel: tables, ratings, SPRT.
    Arena(arena::Args),
    /// Honey levels: generate, check the solver against an independent brute force.
    Honey(honey::Args),
    /// Scruffle cases: generate, validate and score placements, bench.
    Scruffle(scruffle::Args),
}

fn main() -> ExitCode {
    bot::cli::pipe::quiet_exit_on_closed_output();
    let cli = Cli::parse();
    // The commands that run bots end them on Ctrl-C or SIGTERM (before any thread starts).
    if matches!(
        cli.command,
        Command::Splitter(_) | Command::Penguins(_) | Command::Arena(_)
    ) {
        process::interrupt::catch();
    }
    match cli.command {
        Command::Splitter(a) => splitter::run(a),
        Command::Penguins(a) => penguins::run(a),
        Command::Arena(a) => arena::run(a),
        Command::Honey(a) => honey::run(a),
        Command::Scruffle(a) => scruffle::run(a),
    }
}

/// Print a one-line error on stderr and return a failing exit code.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}
