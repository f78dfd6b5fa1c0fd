//! `bot train splitter`: TD training of the learned value, with a progress bar (live greedy
//! average of the training games), a learning curve on fixed dice, checkpoints to the output
//! file, and `--resume` from one.

use crate::splitter::learned::features::{LEN, NAME};
use crate::splitter::learned::file::WeightFile;
use crate::splitter::learned::train::{greedy_average, Trainer};
use crate::splitter::official;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Continue from a file written by an earlier run (its seed and alpha are kept).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Learning-curve points: every this many games, greedy V on fixed dice (default games/20).
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
            let loaded = std::fs::read(path)
                .map_err(|e| format!("{source}: cannot read: {e}"))
                .and_then(|bytes| {
                    WeightFile::parse(&bytes, &source, &layout, NAME, LEN)
                        .map_err(|e| e.to_string())
                })
                .and_then(|file| {
                    Trainer::resume(&layout, &file).map_err(|e| format!("{source}: {e}"))
                });
            match loaded {
                Ok(t) => t,
                Err(e) => return super::fail(format!("--resume {e}")),
            }
        }
        None => {
            Trainer::new(&layout, args.seed, args.alpha).expect("official layouts fit in 64 cells")
        }
    };
    let every = args.curve_every.unwrap_or((args.games / 20).max(1)).max(1);
    println!(
        "train splitter: layout {}, seed {}, alpha {}, games {} -> {} (curve every {every}: greedy V on {} games of dice seed 'curve')",
        args.layout, trainer.seed, trainer.alpha, trainer.games, args.games, args.curve_games
    );
    let bar = super::progress::bar(
        args.games,
        "{bar:30} {pos}/{len} games {per_sec} eta {eta}  {msg}",
    );
    bar.set_position(trainer.games);
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
            if let Err(e) = std::fs::write(&args.out, trainer.to_file(&layout).to_bytes()) {
                bar.finish_and_clear();
                return super::fail(format!("-o {}: {e}", args.out.display()));
            }
        }
    }
    bar.finish_and_clear();
    println!(
        "wrote {} ({} games, {:.0} s)",
        args.out.display(),
        trainer.games,
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
