//! Solver against the naive greedy on generated cases: every output is validated and scored by the
//! independent checker in the same run, beside the bounds U2, U3 and U4 (computed after the
//! solver's budget, never inside it). `bench_seed` measures one case into a `SeedResult`; printing
//! is separate, so the results can be gathered, split or merged before they are shown.

use super::check::{check, Verdict};
use super::gen::generate;
use bot::cli::scruffle::parse_seconds;
use bot::scruffle::bounds::U4Params;
use bot::scruffle::solver::{Budget, Stats};
use bot::scruffle::{input, Case};
use clap::Parser;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
pub struct Args {
    /// Seeds: a list like `1,2,5` or a range like `1-20`.
    #[arg(long, default_value = "1-20")]
    seeds: String,
    /// Solver budget per case in seconds (reading the case and the position table included).
    #[arg(long, default_value = "10", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Fixed work instead of a time budget: every opening, then this many LNS iterations.
    /// Results do not depend on the machine's load (for A/B comparisons).
    #[arg(long)]
    work: Option<u64>,
    /// Seed of the solver's own random choices.
    #[arg(long, default_value_t = 1)]
    solver_seed: u64,
    /// Subgradient sweeps of the letter-aware bound U4 (0 = do not compute it).
    #[arg(long, default_value_t = 30)]
    u4_sweeps: usize,
}

pub fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let mut seeds = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("--seeds: {s:?} is not a seed number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("--seeds: empty range {part:?}"));
                }
                if b - a >= 1_000_000 {
                    return Err(format!(
                        "--seeds: range {part:?} has more than a million seeds"
                    ));
                }
                seeds.extend(a..=b);
            }
            None => seeds.push(number(part)?),
        }
    }
    if seeds.is_empty() {
        return Err("--seeds: no seed given".to_string());
    }
    Ok(seeds)
}

/// `SCRUFFLE_DEBUG=1` adds the solver's counters and the U4 sweeps on stderr.
fn debug() -> bool {
    std::env::var_os("SCRUFFLE_DEBUG").is_some()
}

/// How each case is run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub seconds: f64,
    pub work: Option<u64>,
    pub solver_seed: u64,
    pub u4_sweeps: usize,
}

/// Everything measured on one case.
#[derive(Clone, Debug)]
pub struct SeedResult {
    pub seed: u64,
    pub width: usize,
    pub height: usize,
    pub words: usize,
    /// The checker's scores of the solver's and the naive greedy's outputs.
    pub score: u128,
    pub naive: u128,
    pub u2: u64,
    pub u3: u64,
    pub u4: Option<u64>,
    pub placements: usize,
    pub new_cells: usize,
    /// Solver wall time, from reading the case to its answer.
    pub seconds: f64,
    pub stats: Stats,
}

impl SeedResult {
    pub fn ratio(&self) -> f64 {
        self.score as f64 / self.naive.max(1) as f64
    }
}

/// Generate case `seed`, solve it within the budget, check both outputs independently, then
/// compute the bounds.
pub fn bench_seed(seed: u64, options: &Options) -> Result<SeedResult, String> {
    let case_text = generate(seed);
    let start = Instant::now();
    let board = input::Board::parse(&case_text.board, "board").expect("generated board parses");
    let words = input::parse_words(&case_text.words, "words").expect("generated words parse");
    let case = Case::new(&board, words);
    let budget = match options.work {
        Some(iterations) => Budget::work(iterations),
        None => Budget::until(start + Duration::from_secs_f64(options.seconds * 0.97)),
    };
    let solution = case.solve(options.solver_seed, budget);
    let seconds = start.elapsed().as_secs_f64();
    let baseline = case.baseline();
    let judge = |plays: &[bot::scruffle::Placement], who: &str| {
        check(
            ("board", case_text.board.as_bytes()),
            ("words", case_text.words.as_bytes()),
            (who, case.format(plays).as_bytes()),
        )
    };
    let (solved, base): (Verdict, Verdict) = match (
        judge(&solution.plays, "solver"),
        judge(&baseline, "baseline"),
    ) {
        (Ok(s), Ok(b)) => (s, b),
        (Err(e), _) | (_, Err(e)) => return Err(format!("seed {seed}: INVALID {e}")),
    };
    if solved.score != solution.score as u128 {
        return Err(format!(
            "seed {seed}: solver reports {} but the checker scores {}",
            solution.score, solved.score
        ));
    }
    let lower = solved.score.max(base.score) as u64;
    let (bounds, u4) = if options.u4_sweeps > 0 {
        let started = Instant::now();
        let u4 = case.u4(
            lower,
            U4Params {
                iterations: options.u4_sweeps,
                deadline: None,
                parallel: true,
            },
        );
        if debug() {
            let history: Vec<String> = u4.history.iter().map(|v| format!("{v:.0}")).collect();
            eprintln!(
                "debug seed {seed}: U4 {} in {:.2} s, sweeps {}",
                u4.value,
                started.elapsed().as_secs_f64(),
                history.join(" ")
            );
        }
        (u4.simple, Some(u4.value))
    } else {
        (case.bounds(lower), None)
    };
    Ok(SeedResult {
        seed,
        width: case_text.width,
        height: case_text.height,
        words: case_text.word_count,
        score: solved.score,
        naive: base.score,
        u2: bounds.u2,
        u3: bounds.u3,
        u4,
        placements: solved.placements,
        new_cells: solved.new_cells,
        seconds,
        stats: solution.stats,
    })
}

/// Means over the seeds.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub cases: usize,
    pub mean_score: f64,
    pub mean_naive: f64,
    pub mean_ratio: f64,
    pub mean_score_per_bound: f64,
    /// Mean of score / U4 over the seeds where U4 was computed.
    pub mean_score_per_u4: Option<f64>,
    pub mean_new_cells: f64,
    pub mean_points: f64,
}

pub fn summarize(rows: &[SeedResult]) -> Summary {
    let n = rows.len().max(1) as f64;
    let mean = |f: &dyn Fn(&SeedResult) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let with_u4: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.u4.map(|u| r.score as f64 / u.max(1) as f64))
        .collect();
    let per_placement = |r: &SeedResult, x: f64| x / r.placements.max(1) as f64;
    Summary {
        cases: rows.len(),
        mean_score: mean(&|r| r.score as f64),
        mean_naive: mean(&|r| r.naive as f64),
        mean_ratio: mean(&|r| r.ratio()),
        mean_score_per_bound: mean(&|r| r.score as f64 / r.u2.min(r.u3).max(1) as f64),
        mean_score_per_u4: (!with_u4.is_empty())
            .then(|| with_u4.iter().sum::<f64>() / with_u4.len() as f64),
        mean_new_cells: mean(&|r| per_placement(r, r.new_cells as f64)),
        mean_points: mean(&|r| per_placement(r, r.score as f64)),
    }
}

const HEADER: &str = "| seed | board | words | score | naive | ratio | U2 | U3 | U4 | score/U4 | placements | new cells/pl. | points/pl. | LNS it. | s |";

fn row_line(r: &SeedResult) -> String {
    let pl = r.placements.max(1) as f64;
    let (u4, per_u4) = match r.u4 {
        Some(u) => (
            u.to_string(),
            format!("{:.3}", r.score as f64 / u.max(1) as f64),
        ),
        None => ("-".to_string(), "-".to_string()),
    };
    format!(
        "| {} | {}x{} | {} | {} | {} | {:.2} | {} | {} | {u4} | {per_u4} | {} | {:.2} | {:.1} | {} | {:.2} |",
        r.seed,
        r.width,
        r.height,
        r.words,
        r.score,
        r.naive,
        r.ratio(),
        r.u2,
        r.u3,
        r.placements,
        r.new_cells as f64 / pl,
        r.score as f64 / pl,
        r.stats.lns_iterations,
        r.seconds,
    )
}

fn summary_lines(s: &Summary) -> String {
    let per_u4 = s
        .mean_score_per_u4
        .map_or("-".to_string(), |x| format!("{x:.3}"));
    format!(
        "all {} outputs valid (independent checker)\n\
         mean score {:.0}, mean naive {:.0}, ratio of means {:.3}, mean of ratios {:.3}\n\
         mean score/U4 {per_u4}, mean score/min(U2,U3) {:.3}, mean new cells per placement {:.2}, mean points per placement {:.1}",
        s.cases,
        s.mean_score,
        s.mean_naive,
        s.mean_score / s.mean_naive.max(1.0),
        s.mean_ratio,
        s.mean_score_per_bound,
        s.mean_new_cells,
        s.mean_points,
    )
}

pub fn run(args: Args) -> ExitCode {
    let seeds = match parse_seeds(&args.seeds) {
        Ok(s) => s,
        Err(e) => return crate::fail(e),
    };
    let options = Options {
        seconds: args.seconds,
        work: args.work,
        solver_seed: args.solver_seed,
        u4_sweeps: args.u4_sweeps,
    };
    let budget = match options.work {
        Some(n) => format!("fixed work: every opening + {n} LNS iterations"),
        None => format!("{} s per case", options.seconds),
    };
    println!(
        "Scruffle bench: seeds {}, {budget}, solver seed {}, U4 {} sweeps",
        args.seeds, options.solver_seed, options.u4_sweeps
    );
    println!("{HEADER}");
    println!("{}", "|---".repeat(HEADER.matches(" |").count()) + "|");
    let mut rows = Vec::new();
    for &seed in &seeds {
        let row = match bench_seed(seed, &options) {
            Ok(r) => r,
            Err(e) => return crate::fail(e),
        };
        println!("{}", row_line(&row));
        if debug() {
            eprintln!("debug seed {seed}: {:?}", row.stats);
        }
        if options.work.is_none() && row.seconds > options.seconds {
            println!(
                "  (seed {seed}: solver took {:.2} s, over the budget)",
                row.seconds
            );
        }
        rows.push(row);
    }
    println!();
    println!("{}", summary_lines(&summarize(&rows)));
    ExitCode::SUCCESS
}
