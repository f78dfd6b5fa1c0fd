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
}

pub fn run(args: Args) -> ExitCode {
    match args.game {
        Game::Splitter(a) => super::splitter_train::train(a),
    }
}
