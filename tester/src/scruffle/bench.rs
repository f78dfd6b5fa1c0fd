//! Solver against the naive greedy on generated cases: every output is validated and scored by the
//! independent checker in the same run, beside the bounds U2 and U3.

use super::check::{check, Verdict};
use super::gen::generate;
use bot::scruffle::{input, Case};
use clap::Parser;
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

struct Row {
    score: u128,
    baseline: u128,
    u2: u64,
    u3: u64,
    verdict: Verdict,
}

pub fn run(args: Args) -> ExitCode {
    let seeds = match parse_seeds(&args.seeds) {
        Ok(s) => s,
        Err(e) => return crate::fail(e),
    };
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return crate::fail("--seconds must be a positive number");
    }
    println!(
        "Scruffle bench: seeds {}, {} s per case, solver seed {}",
        args.seeds, args.seconds, args.solver_seed
    );
    println!(
        "| seed | board | words | score | naive | ratio | U2 | U3 | score/min(U2,U3) | placements | new cells/pl. | points/pl. | LNS it. |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();
    for &seed in &seeds {
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
            score: solved.score,
            baseline: base.score,
            u2: bounds.u2,
            u3: bounds.u3,
            verdict: solved,
        };
        let pl = row.verdict.placements.max(1) as f64;
        println!(
            "| {seed} | {}x{} | {} | {} | {} | {:.2} | {} | {} | {:.3} | {} | {:.2} | {:.1} | {} |",
            case_text.width,
            case_text.height,
            case_text.word_count,
            row.score,
            row.baseline,
            row.score as f64 / row.baseline.max(1) as f64,
            row.u2,
            row.u3,
            row.score as f64 / row.u2.min(row.u3).max(1) as f64,
            row.verdict.placements,
            row.verdict.new_cells as f64 / pl,
            row.score as f64 / pl,
            solution.stats.lns_iterations,
        );
        if elapsed > args.seconds {
            println!("  (seed {seed}: solver took {elapsed:.2} s, over the budget)");
        }
        rows.push(row);
    }
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
    ExitCode::SUCCESS
}
