//! `bot scruffle --board FILE --words FILE [--seconds T] [--seed S]`: prints the placements, one per
//! line in play order; the score and seed go to stderr.

use super::args;
use crate::scruffle::{input, Case};
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
pub struct Args {
    /// Board file: rows of `#`, `0`-`9`, `D`, `T`.
    #[arg(long)]
    board: PathBuf,
    /// Word list: one word per line, the line order gives the indices.
    #[arg(long)]
    words: PathBuf,
    /// Time budget in seconds, counted from the start (reading the input included).
    #[arg(long, default_value = "10", value_parser = args::seconds, allow_negative_numbers = true)]
    seconds: Duration,
    /// Seed of the search's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> ExitCode {
    let start = Instant::now();
    let board = match input::Board::read(&args.board) {
        Ok(b) => b,
        Err(e) => return super::fail(e),
    };
    let words = match input::read_words(&args.words) {
        Ok(w) => w,
        Err(e) => return super::fail(e),
    };
    let (case, solution, table_done) =
        Case::solve_timed(&board, words, start, args.seconds, args.seed);
    if std::env::var_os("SCRUFFLE_DEBUG").is_some() {
        eprintln!(
            "scruffle: input and table {table_done:.3} s, then {:?}",
            solution.stats
        );
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out
        .write_all(case.format(&solution.plays).as_bytes())
        .and_then(|_| out.flush())
    {
        return super::fail(format!("cannot write placements: {e}"));
    }
    let total = case.total(&solution.plays);
    let optimal = match solution.stats.proven_optimal {
        true => ", proven optimal",
        false => "",
    };
    eprintln!(
        "scruffle: score {} with {} placements (seed {}, {:.2} s, {} greedy runs, {} LNS iterations{optimal})",
        total,
        solution.plays.len(),
        args.seed,
        start.elapsed().as_secs_f64(),
        solution.stats.greedy_runs,
        solution.stats.lns_iterations
    );
    // The exact search's verdict on small cases: the optimum, or the best bound it reached,
    // both already checked against every plan the solver found.
    match (solution.stats.proven_optimal, solution.stats.bound) {
        (true, _) => eprintln!("optimal: {total}"),
        (false, Some(bound)) => eprintln!("best bound: {bound}"),
        (false, None) => {}
    }
    match &solution.stats.broken_claim {
        // The plan is valid and printed; the claim about the optimum was wrong (a bug).
        Some(claim) => super::fail(format!(
            "internal check failed, claim withdrawn: {claim} (the placements above are valid)"
        )),
        None => ExitCode::SUCCESS,
    }
}
