use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand)]
enum Game {
    /// Train the learned Splitter value by TD self-play (expected targets over the 21 rolls).
    Splitter(super::splitter_train::TrainArgs),
    /// Blend two learned Splitter values into one weight file: (1 - share) x table + share x other.
    SplitterBlend(super::splitter_blend::BlendArgs),
}

pub fn run(args: Args) -> ExitCode {
    match args.game {
        Game::Splitter(a) => super::splitter_train::train(a),
        Game::SplitterBlend(a) => super::splitter_blend::run(a),
    }
}
