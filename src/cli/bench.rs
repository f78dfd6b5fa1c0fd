use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand)]
enum Game {
    /// Average Splitter score per layout and time per move on fixed seeds.
    Splitter(super::splitter::BenchArgs),
    /// Penguins search speed on fixed positions and node limits, with a node-count signature.
    Penguins(super::penguins_bench::BenchArgs),
    /// Honey solver speed on generated levels.
    Honey(super::honey::BenchArgs),
}

pub fn run(args: Args) -> ExitCode {
    match args.game {
        Game::Splitter(a) => super::splitter::bench(a),
        Game::Penguins(a) => super::penguins_bench::bench(a),
        Game::Honey(a) => super::honey::bench(a),
    }
}
