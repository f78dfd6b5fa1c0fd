use clap::{Parser, Subcommand};
use std::process::ExitCode;

use bot::cli;

/// Competitive game bots and puzzle solvers.
#[derive(Parser)]
#[command(name = "bot", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play the Splitter dice game over stdin/stdout (both protocol dialects).
    Splitter(cli::splitter::Args),
    /// Play CodinGame "Penguins" over stdin/stdout, or run perft.
    Penguins(cli::penguins::Args),
    /// Best move on a hex Scrabble grid with portals ("Honey for Scarabs").
    Honey(cli::honey::Args),
    /// Schwedenrätsel: rate or generate `.cwg` grids.
    Crossword(cli::crossword::Args),
    /// TopCoder "Scruffle" word-placement optimiser.
    Scruffle(cli::scruffle::Args),
    /// Print speed/strength figures for fixed seeds and limits.
    Bench(cli::bench::Args),
    /// Train a learned evaluation (Splitter) by self-play.
    Train(cli::train::Args),
}

fn main() -> ExitCode {
    cli::pipe::die_quietly_on_broken_pipe();
    let cli = Cli::parse();
    match cli.command {
        Command::Splitter(args) => cli::splitter::run(args),
        Command::Penguins(args) => cli::penguins::run(args),
        Command::Honey(args) => cli::honey::run(args),
        Command::Crossword(args) => cli::crossword::run(args),
        Command::Scruffle(args) => cli::scruffle::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Train(args) => cli::train::run(args),
    }
}
