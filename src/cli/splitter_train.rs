//! `bot train splitter`: TD training of the learned value, with a progress bar (live greedy
//! average of the training games), a learning curve on fixed dice, checkpoints to the output
//! file, and `--resume` from one.

use crate::splitter::learned::features::FeatureSet;
use crate::splitter::learned::train::{greedy_average, Trainer, DEFAULT_NET_RATE};
use crate::splitter::learned::value::read_weight_file;
use crate::splitter::official;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Fewest training games between two default curve points: a point plays `--curve-games` (1,000)
/// greedy games, about as long as a thousand training games with the network.
const CURVE_EVERY_LEAST: u64 = 10_000;

#[derive(Parser)]
pub struct TrainArgs {
    /// Official layout 1 or 2.
    #[arg(long)]
    layout: u8,
    /// Total training games (with --resume: including those already in the file).
    #[arg(long)]
    games: u64,
    /// Seed of the training dice (game k's dice depend on the seed and k only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Step-size scale of the temporal-coherence TD updates.
    #[arg(long, default_value_t = 1.0)]
    alpha: f32,
    /// Write the weights (with the training state) here, at every curve point and at the end.
    #[arg(short = 'o', long = "out", value_parser = super::args::output_file)]
    out: PathBuf,
    /// Feature families: the group entries (groups-v1), optionally +pairs (each mirror pair's
    /// contents) and +netAxB (a network with hidden layers of A and B units, up to 128).
    #[arg(long, default_value = "groups-v1+pairs+net64x32", value_parser = feature_set)]
    features: FeatureSet,
    /// Step size of the network's gradient steps (kept in the file; --resume uses the file's).
    #[arg(long, default_value_t = DEFAULT_NET_RATE, value_parser = net_rate)]
    net_rate: f32,
    /// Write the weights without the training state (a third of the size; such a file plays but
    /// cannot be resumed: rerun the same command with more games instead).
    #[arg(long)]
    weights_only: bool,
    /// Continue from a file written by an earlier run (its seed and alpha are kept).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Learning-curve points: every this many games, greedy V on fixed dice, and once at the end
    /// (default: games/20, at least 10,000, so a short run measures once).
    #[arg(long)]
    curve_every: Option<u64>,
    /// Games of the fixed-dice greedy measurement at each curve point (Tester dice, seed `curve`).
    #[arg(long, default_value_t = 1000)]
    curve_games: u32,
}

pub fn train(args: TrainArgs) -> ExitCode {
    if args.layout != 1 && args.layout != 2 {
        return super::fail(format!("--layout {}: expected 1 or 2", args.layout));
    }
    let layout = official(args.layout);
    let mut trainer = match &args.resume {
        Some(path) => {
            let source = path.display().to_string();
            let loaded = read_weight_file(path, &layout)
                .map_err(|e| e.to_string())
                .and_then(|file| {
                    Trainer::resume(&layout, &file).map_err(|e| format!("{source}: {e}"))
                });
            match loaded {
                Ok(t) => t,
                Err(e) => return super::fail(format!("--resume {e}")),
            }
        }
        None => Trainer::new(&layout, args.seed, args.alpha, args.net_rate, args.features)
            .expect("official layouts fit in 64 cells"),
    };
    let every = args
        .curve_every
        .unwrap_or((args.games / 20).max(CURVE_EVERY_LEAST))
        .max(1);
    println!(
        "train splitter: layout {}, seed {}, alpha {}, games {} -> {} (curve every {every}: greedy V on {} games of dice seed 'curve')",
        args.layout, trainer.seed, trainer.alpha, trainer.games, args.games, args.curve_games
    );
    let bar = super::progress::bar(
        args.games,
        "{bar:30} {pos}/{len} games {per_sec} eta {eta}  {msg}",
    );
    bar.set_position(trainer.games);
    let save = |trainer: &Trainer| {
        let mut file = trainer.to_file(&layout);
        if args.weights_only {
            file.coherence = None;
        }
        super::output::write(&args.out, file.to_bytes()).map_err(|e| format!("-o: {e}"))
    };
    let mut saved_at = u64::MAX;
    let started = Instant::now();
    let (mut window_sum, mut window_n) = (0u64, 0u64);
    let mut recent = std::collections::VecDeque::new();
    let mut recent_sum = 0u64;
    while trainer.games < args.games {
        let score = trainer.train_game() as u64;
        window_sum += score;
        window_n += 1;
        recent.push_back(score);
        recent_sum += score;
        if recent.len() > 1000 {
            recent_sum -= recent.pop_front().unwrap_or(0);
        }
        bar.inc(1);
        if trainer.games % 100 == 0 {
            bar.set_message(format!(
                "greedy avg (last {}) {:.2}",
                recent.len(),
                recent_sum as f64 / recent.len() as f64
            ));
        }
        if trainer.games % every == 0 || trainer.games == args.games {
            let fixed = greedy_average(&trainer.value, &layout, "curve", args.curve_games);
            bar.suspend(|| {
                println!(
                    "games {:>9}: greedy V {:.3} on {} fixed games; training games {:.3}; {:.0} s",
                    trainer.games,
                    fixed,
                    args.curve_games,
                    window_sum as f64 / window_n.max(1) as f64,
                    started.elapsed().as_secs_f64()
                )
            });
            (window_sum, window_n) = (0, 0);
            if let Err(e) = save(&trainer) {
                bar.finish_and_clear();
                return super::fail(e);
            }
            saved_at = trainer.games;
        }
    }
    bar.finish_and_clear();
    // A resumed run with nothing left to train still writes (e.g. to drop the training state).
    if saved_at != trainer.games {
        if let Err(e) = save(&trainer) {
            return super::fail(e);
        }
    }
    println!(
        "wrote {} ({} games, {:.0} s)",
        args.out.display(),
        trainer.games,
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn feature_set(s: &str) -> Result<FeatureSet, String> {
    FeatureSet::parse(s).ok_or_else(|| {
        format!(
            "unknown feature set {} (expected groups-v1, then optionally +pairs, then +netAxB with A, B in 1..=128)",
            crate::source_error::quote(s)
        )
    })
}

fn net_rate(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(r) if r.is_finite() && r > 0.0 && r <= 1.0 => Ok(r),
        _ => Err("expected a number above 0 and at most 1".into()),
    }
}
