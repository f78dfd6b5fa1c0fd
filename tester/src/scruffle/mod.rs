//! `tester scruffle gen|score|bench`: case generator, independent scorer, solver-vs-baseline bench.

mod bench;
mod check;
mod gen;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write `scruffle-S.board` and `scruffle-S.words` for seed S.
    Gen {
        #[arg(long)]
        seed: u64,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = ".")]
        out: PathBuf,
    },
    /// Validate a placement file against every rule and print its score.
    Score {
        #[arg(long)]
        board: PathBuf,
        #[arg(long)]
        words: PathBuf,
        #[arg(long)]
        placements: PathBuf,
    },
    /// Solver and naive greedy on generated cases, bounds, and a table.
    Bench(bench::Args),
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Command::Gen { seed, out } => generate(seed, &out),
        Command::Score {
            board,
            words,
            placements,
        } => score(&board, &words, &placements),
        Command::Bench(a) => bench::run(a),
    }
}

fn generate(seed: u64, out: &Path) -> ExitCode {
    let case = gen::generate(seed);
    let board = out.join(format!("scruffle-{seed}.board"));
    let words = out.join(format!("scruffle-{seed}.words"));
    for (path, text) in [(&board, &case.board), (&words, &case.words)] {
        if let Err(e) = std::fs::write(path, text) {
            return crate::fail(format!("{}: cannot write: {e}", path.display()));
        }
    }
    println!(
        "seed {seed}: {}x{} board, {} words -> {} {}",
        case.width,
        case.height,
        case.word_count,
        board.display(),
        words.display()
    );
    ExitCode::SUCCESS
}

fn score(board: &Path, words: &Path, placements: &Path) -> ExitCode {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))
    };
    let texts = match (read(board), read(words), read(placements)) {
        (Ok(b), Ok(w), Ok(p)) => (b, w, p),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return crate::fail(e),
    };
    let name = |p: &Path| p.display().to_string();
    match check::check(
        (&name(board), &texts.0),
        (&name(words), &texts.1),
        (&name(placements), &texts.2),
    ) {
        Ok(v) => {
            println!(
                "valid: score {} with {} placements, {} new cells",
                v.score, v.placements, v.new_cells
            );
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(format!("invalid: {e}")),
    }
}
