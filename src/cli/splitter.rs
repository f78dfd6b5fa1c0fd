use crate::splitter::clock::DEFAULT_GAME_MS;
use crate::splitter::learned::LearnedValue;
use crate::splitter::policy::{default_threads, PolicyKind, Settings};
use crate::splitter::selfplay::play_seeded_game;
use crate::splitter::stats::{stats, Stats};
use crate::splitter::{official, protocol};
use clap::Parser;
use indicatif::ProgressBar;

use super::args::millis;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
pub struct Args {
    /// Wall-time budget of one game in milliseconds (search policy), counted from the first dice
    /// line with the start-up work; spent by plan, more on the early moves; a game behind plan
    /// plays its last moves greedily with the learned value.
    #[arg(long, default_value_t = DEFAULT_GAME_MS, value_parser = millis)]
    game_ms: u64,
    /// search (Monte-Carlo over future dice), expectimax (two steps on the learned value), value
    /// (greedy on the learned value), greedy (one-move hand evaluation) or random.
    #[arg(long, default_value = "search")]
    policy: PolicyKind,
    /// Seed of the policy's own random choices (reported on stderr).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for the search rollouts (the choice does not depend on it, only the speed; default:
    /// the cores this process may use, at most 2).
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Stop each search after this many rollout batches instead of the clock: the moves (and
    /// the trace) are then the same on any machine at any load, and the game takes as long as
    /// that work takes (`--game-ms` no longer applies).
    #[arg(long, value_parser = batches)]
    batches: Option<u32>,
    /// Write why each move was chosen to this file, one JSON line per move: the dice, the move,
    /// how it was chosen, and every candidate weighed with its mean and rollouts. Off by
    /// default (then the moves and their speed are those of a run without it). Under `tester
    /// splitter`, `--trace {trace}` gives each game its own file and carries it into `--html`.
    #[arg(long, value_parser = super::args::output_file)]
    trace: Option<std::path::PathBuf>,
}

#[derive(Parser)]
pub struct BenchArgs {
    /// Games per layout (the default, on both layouts at 1.4 s a game with the greedy reference,
    /// takes about 2 minutes).
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Dice seed, as the Tester's `--seed` (game i uses the Tester's dice for game i, from
    /// hash(seed) + i: seeds one apart in their last character, like dev34 and dev35, share all
    /// but one game, so independent runs need unrelated names).
    #[arg(long, default_value = "bench")]
    seed: String,
    /// 1, 2 or both.
    #[arg(long, default_value = "both")]
    layout: String,
    /// Wall-time budget of one game for the search policy, as `bot splitter --game-ms`.
    #[arg(long, default_value_t = DEFAULT_GAME_MS, value_parser = millis)]
    game_ms: u64,
    /// Stop search after this many rollout batches instead of the clock (reproducible figures).
    #[arg(long)]
    batches: Option<u32>,
    /// Threads for the search rollouts (default: the cores this process may use, at most 2).
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Policy to measure; greedy always runs too as the reference.
    #[arg(long, default_value = "search")]
    policy: PolicyKind,
    /// Write the measured policy's per-game scores (one line per layout: `layout N: s0 s1 ...`).
    #[arg(long, value_parser = super::args::output_file)]
    save_scores: Option<std::path::PathBuf>,
    /// Also print the paired difference against scores saved by an earlier `--save-scores` run on
    /// the same seed (to compare two builds or settings game by game).
    #[arg(long)]
    paired_with: Option<std::path::PathBuf>,
    /// With --batches: also play the search as it was before the fixed-point player (its
    /// rollouts valued by the float value from scratch) on the same dice, and print both CPU
    /// times per game, the speed ratio and the games whose moves are the same.
    #[arg(long, requires = "batches")]
    before: bool,
    /// Learned value weights (default: the built-in ones for the official layouts).
    #[arg(long)]
    value: Option<std::path::PathBuf>,
    /// Instead of measuring: tune the evaluation weights for N coordinate-descent passes on the
    /// greedy policy (use a dice seed other than the evaluation seeds) and print them.
    #[arg(long)]
    tune: Option<u32>,
}

pub fn run(args: Args) -> ExitCode {
    // Reported on the debug channel (`#` lines are ignored by the Tester, echoed unless --silent).
    let budget = match args.batches {
        Some(b) => format!("{b} rollout batches per move"),
        None => format!("{} ms per game", args.game_ms),
    };
    println!(
        "# splitter bot: policy {:?}, {budget}, seed {}, threads {}",
        args.policy, args.seed, args.threads
    );
    let settings = Settings {
        kind: args.policy,
        game_ms: args.game_ms,
        seed: args.seed,
        threads: args.threads.max(1),
        batches: args.batches,
        ..Settings::default()
    };
    let mut trace = match &args.trace {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Some(std::io::BufWriter::new(file)),
            Err(e) => return super::fail(format!("splitter: --trace {}: {e}", path.display())),
        },
        None => None,
    };
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    let trace = trace.as_mut().map(|t| t as &mut dyn std::io::Write);
    match protocol::run_traced(stdin, &mut stdout, &mut stderr, settings, trace) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(format!("splitter: {e}")),
    }
}

fn batches(text: &str) -> Result<u32, String> {
    super::args::integer_in(text, 1, 1_000_000).map(|n| n as u32)
}

struct Summary {
    score: Stats,
    median_ms: f64,
    max_ms: f64,
    rollouts_per_move: f64,
    /// Mean CPU time of a game, and of its games one by one (ms).
    cpu_ms: Stats,
    scores: Vec<u32>,
    moves: Vec<Vec<crate::splitter::game::Move>>,
}

fn measure(
    layout_no: u8,
    args: &BenchArgs,
    kind: PolicyKind,
    reference_rollouts: bool,
    bar: &ProgressBar,
) -> Result<Summary, String> {
    let layout = official(layout_no);
    let value = match &args.value {
        Some(path) => Some(std::sync::Arc::new(
            LearnedValue::load(path, &layout).map_err(|e| format!("--value {e}"))?,
        )),
        None => None,
    };
    let settings = Settings {
        kind,
        game_ms: args.game_ms,
        batches: args.batches,
        seed: 1,
        // Batch-limited games already run side by side (below); their moves do not depend on threads.
        threads: if args.batches.is_some() {
            1
        } else {
            args.threads.max(1)
        },
        value,
        reference_rollouts,
        ..Settings::default()
    };
    // With a batch limit the moves do not depend on the clock, so games can run side by side
    // (move times are then inflated by the sharing); on the clock they run one at a time.
    let play = |g: u32| {
        let result = play_seeded_game(&layout, &args.seed, g, &settings);
        bar.inc(1);
        result
    };
    let results: Vec<_> = if args.batches.is_some() {
        use rayon::prelude::*;
        (0..args.games).into_par_iter().map(play).collect()
    } else {
        (0..args.games).map(play).collect()
    };
    let mut scores = Vec::new();
    let mut moves = Vec::new();
    let mut cpu_ms = Vec::new();
    let mut times: Vec<Duration> = Vec::new();
    let mut rollouts = 0u64;
    for r in results {
        scores.push(r.score);
        moves.push(r.moves);
        cpu_ms.push(r.cpu.as_secs_f64() * 1000.0);
        rollouts += r.rollouts;
        times.extend(r.move_times);
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    Ok(Summary {
        score: stats(&scores.iter().map(|&s| s as f64).collect::<Vec<_>>()),
        median_ms: times.get(times.len() / 2).map_or(0.0, |&d| ms(d)),
        max_ms: times.last().map_or(0.0, |&d| ms(d)),
        rollouts_per_move: rollouts as f64 / times.len().max(1) as f64,
        cpu_ms: stats(&cpu_ms),
        scores,
        moves,
    })
}

pub fn bench(args: BenchArgs) -> ExitCode {
    let layouts: Vec<u8> = match args.layout.as_str() {
        "1" => vec![1],
        "2" => vec![2],
        "both" => vec![1, 2],
        other => return super::fail(format!("--layout '{other}': expected 1, 2 or both")),
    };
    if let Some(passes) = args.tune {
        let ls: Vec<_> = layouts.iter().map(|&l| official(l)).collect();
        let p = crate::splitter::selfplay::tune(
            &ls,
            &args.seed,
            args.games,
            passes,
            // Start from the current weights: the layout's own set when tuning one layout.
            match ls.as_slice() {
                [one] => crate::splitter::eval::EvalParams::for_layout(one),
                _ => Default::default(),
            },
        );
        println!("{:?}", p.w);
        return ExitCode::SUCCESS;
    }
    println!(
        "splitter bench: {} games per layout, dice seed '{}' (int seeds {}..={}), policy {:?}, {}",
        args.games,
        args.seed,
        crate::splitter::game_seed(&args.seed, 0),
        crate::splitter::game_seed(&args.seed, args.games.saturating_sub(1)),
        args.policy,
        match args.batches {
            Some(b) => format!("{b} rollout batches per move"),
            None => format!("{} ms per game", args.game_ms),
        }
    );
    let earlier = match &args.paired_with {
        Some(path) => match read_saved_scores(path) {
            Ok(e) => e,
            Err(e) => return super::fail(e),
        },
        None => Vec::new(),
    };
    let mut saved = String::new();
    let started = Instant::now();
    let reference = args.before && args.policy == PolicyKind::Search;
    let runs = match (args.policy, reference) {
        (PolicyKind::Greedy, _) => 1,
        (_, false) => 2,
        (_, true) => 3,
    };
    let bar = super::progress::bar(
        (args.games as usize * layouts.len() * runs) as u64,
        "{bar:40} {pos}/{len} games {elapsed} (eta {eta})",
    );
    for l in layouts {
        let measured = measure(l, &args, PolicyKind::Greedy, false, &bar).and_then(|base| {
            Ok((
                base,
                (args.policy != PolicyKind::Greedy)
                    .then(|| measure(l, &args, args.policy, false, &bar))
                    .transpose()?,
                reference
                    .then(|| measure(l, &args, args.policy, true, &bar))
                    .transpose()?,
            ))
        });
        let (base, main, baseline) = match measured {
            Ok(m) => m,
            Err(e) => {
                bar.finish_and_clear();
                return super::fail(e);
            }
        };
        let println = |line: String| bar.suspend(|| println!("{line}"));
        let line = |name: &str, s: &Summary| {
            println(format!(
                "layout {l} {name:>7}: mean {:6.2} sd {:5.2} (95% CI {})  move time median {:7.2} ms max {:7.2} ms  rollouts/move {:.0}",
                s.score.mean,
                s.score.sd,
                s.score.pm_text(2),
                s.median_ms,
                s.max_ms,
                s.rollouts_per_move
            ))
        };
        let cpu_line = |name: &str, s: &Summary| {
            println(format!(
                "layout {l} {name:>7}: CPU per game {:.1} ms (95% CI {}), one thread",
                s.cpu_ms.mean,
                s.cpu_ms.pm_text(1)
            ))
        };
        line("greedy", &base);
        if let Some(m) = main {
            line(&format!("{:?}", args.policy).to_lowercase(), &m);
            let d = paired_difference(&m.scores, &base.scores);
            println(format!(
                "layout {l}   ratio: {:.3} x greedy; paired difference {:+.2} (95% CI {})",
                m.score.mean / base.score.mean.max(1e-9),
                d.mean,
                d.pm_text(2)
            ));
            saved.push_str(&saved_scores_line(l, &m.scores));
            if args.batches.is_some() {
                cpu_line(&format!("{:?}", args.policy).to_lowercase(), &m);
            }
            if let Some(r) = &baseline {
                cpu_line("before", r);
                let same = m.moves.iter().zip(&r.moves).filter(|(a, b)| a == b).count();
                let d = paired_difference(&m.scores, &r.scores);
                println(format!(
                    "layout {l}   speed: {:.2} x the search before the fixed-point player (its rollouts \
                     valued by the float value from scratch; one thread per game, {} batches); the \
                     same moves in {same} of {} games; paired difference {:+.2} (95% CI {})",
                    r.cpu_ms.mean / m.cpu_ms.mean.max(1e-9),
                    args.batches.unwrap_or(0),
                    m.moves.len(),
                    d.mean,
                    d.pm_text(2)
                ));
            }
            if let Some((_, old)) = earlier.iter().find(|(layout, _)| *layout == l) {
                if old.len() != m.scores.len() {
                    bar.finish_and_clear();
                    return super::fail(format!(
                        "--paired-with: layout {l} has {} saved games, this run {}",
                        old.len(),
                        m.scores.len()
                    ));
                }
                let d = paired_difference(&m.scores, old);
                println(format!(
                    "layout {l}  vs saved: {:+.2} (95% CI {}) over {} paired games",
                    d.mean,
                    d.pm_text(2),
                    old.len()
                ));
            }
        }
    }
    bar.finish_and_clear();
    if let Some(path) = &args.save_scores {
        if let Err(e) = super::output::write(path, saved) {
            return super::fail(format!("--save-scores: {e}"));
        }
    }
    println!("total time {:.1} s", started.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// Mean, sd and CI of `new[i] - old[i]` (the same games).
fn paired_difference(new: &[u32], old: &[u32]) -> Stats {
    let diffs: Vec<f64> = new
        .iter()
        .zip(old)
        .map(|(&a, &b)| a as f64 - b as f64)
        .collect();
    stats(&diffs)
}

/// One layout's line of a `--save-scores` file.
fn saved_scores_line(layout: u8, scores: &[u32]) -> String {
    let words: Vec<String> = scores.iter().map(|s| s.to_string()).collect();
    format!("layout {layout}: {}\n", words.join(" "))
}

/// Scores written by `--save-scores`: `(layout, per-game scores)`. Read through the capped reader
/// (a file over `MAX_FILE_BYTES`, such as `/dev/zero`, is refused).
fn read_saved_scores(path: &std::path::Path) -> Result<Vec<(u8, Vec<u32>)>, String> {
    let text = crate::source_error::read_text(path).map_err(|e| format!("--paired-with {e}"))?;
    parse_saved_scores(&text, &path.display().to_string())
}

/// Parse `--save-scores` text; errors name `source:line`.
fn parse_saved_scores(text: &str, source: &str) -> Result<Vec<(u8, Vec<u32>)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = || format!("{source}:{}: expected `layout N: s0 s1 ...`", n + 1);
        let (head, scores) = line.split_once(':').ok_or_else(bad)?;
        let layout = head
            .strip_prefix("layout ")
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(bad)?;
        let scores = scores
            .split_whitespace()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<Vec<u32>, String>>()?;
        out.push((layout, scores));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_scores_round_trip_and_bad_lines_name_the_line() {
        let text = saved_scores_line(1, &[37, 40, 29]) + &saved_scores_line(2, &[41]);
        assert_eq!(
            parse_saved_scores(&text, "f").unwrap(),
            vec![(1, vec![37, 40, 29]), (2, vec![41])]
        );
        for (bad, line) in [
            ("layout 1: 3 4\nlayout x: 5\n", 2),
            ("layout 1 3 4\n", 1),
            ("layout 1: 3 -4\n", 1),
            ("scores 1: 3\n", 1),
        ] {
            let e = parse_saved_scores(bad, "f").unwrap_err();
            assert!(
                e.starts_with(&format!("f:{line}: expected")),
                "{bad:?}: {e}"
            );
        }
        assert_eq!(paired_difference(&[5, 7], &[4, 4]).mean, 2.0);
    }
}
