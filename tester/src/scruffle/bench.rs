//! Solver against the naive greedy on generated cases: every output is validated and scored by the
//! independent checker in the same run, beside the bounds U2 and U3.

use super::check::{check, Verdict};
use super::gen::generate;
use super::merge::BenchFile;
use crate::shard::{RunInfo, Shard};
use bot::scruffle::{input, Case};
use clap::Parser;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
pub struct Args {
    /// Seeds: a list like `1,2,5` or a range like `1-20`.
    #[arg(long, default_value = "1-20")]
    seeds: String,
    /// Solver budget per case (reading the case and the position table included).
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Seed of the solver's own random choices.
    #[arg(long, default_value_t = 1)]
    solver_seed: u64,
    /// Bench only the K-th of N interleaved slices of the seeds, for `tester scruffle merge`.
    #[arg(long, value_parser = crate::shard::parse_shard)]
    shard: Option<Shard>,
    /// Write every row (and the configuration) as a results file here; needed with --shard.
    #[arg(long, value_parser = bot::cli::args::output_file)]
    json: Option<PathBuf>,
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

/// One seed's results: everything its line of the table shows (also a results file's row).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// Position of the seed in the --seeds list.
    pub index: usize,
    pub seed: u64,
    pub width: usize,
    pub height: usize,
    pub words: usize,
    pub score: u128,
    pub baseline: u128,
    pub u2: u64,
    pub u3: u64,
    pub verdict: Verdict,
    pub lns_iterations: u64,
    /// The solver's time (reading the case and the position table included).
    pub seconds: f64,
}

/// What decides the rows (the table's configuration).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// --seeds as given (the header shows it) and as a list.
    pub seeds_text: String,
    pub seeds: Vec<u64>,
    pub seconds: f64,
    pub solver_seed: u64,
}

pub fn run(args: Args) -> ExitCode {
    let seeds = match parse_seeds(&args.seeds) {
        Ok(s) => s,
        Err(e) => return crate::fail(e),
    };
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return crate::fail("--seconds must be a positive number");
    }
    if args.shard.is_some() && args.json.is_none() {
        return crate::fail("--shard writes its rows to --json FILE (give one)");
    }
    let plan = Plan {
        seeds_text: args.seeds.clone(),
        seeds,
        seconds: args.seconds,
        solver_seed: args.solver_seed,
    };
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    print_header(&plan);
    let mut rows = Vec::new();
    for (index, &seed) in plan.seeds.iter().enumerate() {
        if !shard.holds(index) {
            continue;
        }
        let case_text = generate(seed);
        let start = Instant::now();
        let board = input::Board::parse(&case_text.board, "board").expect("generated board parses");
        let words = input::parse_words(&case_text.words, "words").expect("generated words parse");
        let case = Case::new(&board, words);
        let deadline = start + Duration::from_secs_f64(args.seconds * 0.97);
        let solution = case.solve(args.solver_seed, deadline);
        let elapsed = start.elapsed().as_secs_f64();
        let baseline = case.baseline();
        let judge = |plays: &[bot::scruffle::Placement], who: &str| {
            check(
                ("board", &case_text.board),
                ("words", &case_text.words),
                (who, &case.format(plays)),
            )
        };
        let (solved, base) = match (
            judge(&solution.plays, "solver"),
            judge(&baseline, "baseline"),
        ) {
            (Ok(s), Ok(b)) => (s, b),
            (Err(e), _) | (_, Err(e)) => return crate::fail(format!("seed {seed}: INVALID {e}")),
        };
        if solved.score != solution.score as u128 {
            return crate::fail(format!(
                "seed {seed}: solver reports {} but the checker scores {}",
                solution.score, solved.score
            ));
        }
        if std::env::var_os("SCRUFFLE_DEBUG").is_some() {
            eprintln!("debug seed {seed}: {:?}", solution.stats);
        }
        let bounds = case.bounds(base.score as u64);
        let row = Row {
            index,
            seed,
            width: case_text.width,
            height: case_text.height,
            words: case_text.word_count,
            score: solved.score,
            baseline: base.score,
            u2: bounds.u2,
            u3: bounds.u3,
            verdict: solved,
            lns_iterations: solution.stats.lns_iterations,
            seconds: elapsed,
        };
        print_row(&row, &plan);
        rows.push(row);
    }
    print_means(&rows);
    if let Some(path) = &args.json {
        let file = BenchFile {
            run: RunInfo::new("scruffle bench", shard),
            config: plan,
            rows,
        };
        if let Err(e) = crate::shard::write(path, &file) {
            return crate::fail(e);
        }
    }
    ExitCode::SUCCESS
}

pub fn print_header(plan: &Plan) {
    println!(
        "Scruffle bench: seeds {}, {} s per case, solver seed {}",
        plan.seeds_text, plan.seconds, plan.solver_seed
    );
    println!(
        "| seed | board | words | score | naive | ratio | U2 | U3 | score/min(U2,U3) | placements | new cells/pl. | points/pl. | LNS it. |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
}

pub fn print_row(row: &Row, plan: &Plan) {
    let pl = row.verdict.placements.max(1) as f64;
    println!(
        "| {} | {}x{} | {} | {} | {} | {:.2} | {} | {} | {:.3} | {} | {:.2} | {:.1} | {} |",
        row.seed,
        row.width,
        row.height,
        row.words,
        row.score,
        row.baseline,
        row.score as f64 / row.baseline.max(1) as f64,
        row.u2,
        row.u3,
        row.score as f64 / row.u2.min(row.u3).max(1) as f64,
        row.verdict.placements,
        row.verdict.new_cells as f64 / pl,
        row.score as f64 / pl,
        row.lns_iterations,
    );
    if row.seconds > plan.seconds {
        println!(
            "  (seed {}: solver took {:.2} s, over the budget)",
            row.seed, row.seconds
        );
    }
}

/// The lines under the table: means over `rows`.
pub fn print_means(rows: &[Row]) {
    let n = rows.len() as f64;
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let mean_score = mean(&|r| r.score as f64);
    let mean_base = mean(&|r| r.baseline as f64);
    println!();
    println!("all {} outputs valid (independent checker)", rows.len());
    println!(
        "mean score {:.0}, mean naive {:.0}, ratio of means {:.2}, mean of ratios {:.2}",
        mean_score,
        mean_base,
        mean_score / mean_base.max(1.0),
        mean(&|r| r.score as f64 / r.baseline.max(1) as f64)
    );
    println!(
        "mean score/min(U2,U3) {:.3}, mean new cells per placement {:.2}, mean points per placement {:.1}",
        mean(&|r| r.score as f64 / r.u2.min(r.u3).max(1) as f64),
        mean(&|r| r.verdict.new_cells as f64 / r.verdict.placements.max(1) as f64),
        mean(&|r| r.score as f64 / r.verdict.placements.max(1) as f64),
    );
}
