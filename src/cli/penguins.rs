use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use crate::penguins::protocol::Budget;
use crate::penguins::{make_policy, perft, protocol, Rules};

/// Play CodinGame Penguins over stdin/stdout (default), or run perft on one position.
#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Option<PenguinsCommand>,
    /// Move chooser: engine (MCTS for 2, 3 and 4 players; the default), mcts, ab (alpha-beta),
    /// greedy (push-aware one-ply baseline), random. mcts and ab take a fixed-compute limit
    /// instead of the clock, for A/B runs: mcts:playouts=N, ab:nodes=N.
    #[arg(long, default_value = "engine")]
    policy: String,
    /// Seed for every random choice the policy makes.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rules to start from, comma-separated words applied in order: league1, league2 (the
    /// default: push and early end), push, no-push, early-end, no-early-end, one-fish,
    /// score-under. Pushing is dropped on its own if the game shows it is off.
    #[arg(long, default_value = "league2")]
    rules: String,
    /// Time budget: codingame (the default: search until 40 ms after each turn's first input
    /// line, 900 ms on the first turn; CodinGame allows 50 and 1000) or conservative (18 ms and
    /// 620 ms, for a machine so loaded that the bot is descheduled for tens of milliseconds).
    #[arg(long, default_value = "codingame")]
    budget: String,
}

#[derive(Subcommand)]
enum PenguinsCommand {
    /// Count legal move sequences of length D from one CodinGame position read on stdin.
    Perft(PerftArgs),
}

#[derive(Parser)]
struct PerftArgs {
    /// Sequence length.
    #[arg(long)]
    depth: usize,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Rules, as for playing.
    #[arg(long, default_value = "league2")]
    rules: String,
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Some(PenguinsCommand::Perft(p)) => run_perft(p),
        None => play(args),
    }
}

fn play(args: Args) -> ExitCode {
    let rules = match Rules::parse(&args.rules) {
        Ok(r) => r,
        Err(e) => return super::fail(format!("--rules: {e}")),
    };
    let budget = match Budget::parse(&args.budget) {
        Ok(b) => b,
        Err(e) => return super::fail(format!("--budget: {e}")),
    };
    let mut policy = match make_policy(&args.policy, args.seed) {
        Ok(p) => p,
        Err(e) => return super::fail(format!("--policy: {e}")),
    };
    eprintln!(
        "bot penguins: policy {} seed {} rules {}",
        args.policy,
        args.seed,
        rules.describe()
    );
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match protocol::play(
        stdin.lock(),
        &mut stdout.lock(),
        &mut std::io::stderr(),
        policy.as_mut(),
        rules,
        budget,
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

fn run_perft(args: PerftArgs) -> ExitCode {
    let rules = match Rules::parse(&args.rules) {
        Ok(r) => r,
        Err(e) => return super::fail(format!("--rules: {e}")),
    };
    let mut state = match perft::read_position(std::io::stdin().lock(), rules) {
        Ok(s) => s,
        Err(e) => return super::fail(format!("perft: stdin: {e}")),
    };
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    if args.divide {
        for (mv, count) in perft::divide(&mut state, args.depth) {
            let _ = writeln!(out, "{} {count}", mv.command());
        }
    }
    let nodes = perft::perft(&mut state, args.depth);
    let seconds = started.elapsed().as_secs_f64();
    let _ = writeln!(out, "perft {} = {nodes}", args.depth);
    eprintln!(
        "{:.3} s, {:.1} M sequences/s",
        seconds,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
