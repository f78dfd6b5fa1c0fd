//! Solver against the naive greedy on generated cases: every output is validated and scored by the
//! independent checker in the same run, beside the bounds U2, U3 and U4 (computed after the
//! solver's budget, never inside it). `bench_seed` measures one case into a `Row`; printing is
//! separate, so the rows can be gathered, split into shards or merged before they are shown.
//!
//! The phases of one case and their clocks: the solver (`--seconds`, as `bot scruffle` runs, or
//! `--work`, fixed work without a clock); the naive reference (a complete position table and
//! the naive greedy, `--phase-seconds`: cut short it would be a wrong reference, so that is an
//! error); the checker (linear in the plans' letters: milliseconds); the exact search (`--exact`
//! seconds or `--exact-nodes`, optional); U1-U3 and U4 (`--phase-seconds` together: each step
//! is a bound, so a cut only loosens them, and the row says so; U4 optional, `--u4-sweeps 0`).

use super::check::{check, Verdict};
use super::gen::{generate_sized, Sizes};
use super::merge::BenchFile;
use crate::shard::{RunInfo, Shard};
use bot::cli::args;
use bot::scruffle::bounds::U4Params;
use bot::scruffle::plan::Context;
use bot::scruffle::solver::Budget;
use bot::scruffle::{exact, input, Case};
use clap::Parser;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
pub struct Args {
    /// Seeds: a list like `1,2,5` or a range like `1-20`, at most a million seeds in all.
    #[arg(long, default_value = "1-20", value_parser = seed_list)]
    seeds: SeedList,
    /// Solver budget per case in seconds (reading the case and the position table included).
    #[arg(long, default_value = "10", value_parser = args::seconds, allow_negative_numbers = true)]
    seconds: Duration,
    /// Fixed work instead of a time budget: every opening, then this many LNS iterations (at
    /// most 100 million). Results do not depend on the machine's load (for A/B comparisons).
    #[arg(long, value_parser = |t: &str| args::integer_in(t, 0, MAX_WORK))]
    work: Option<u64>,
    /// Seed of the solver's own random choices.
    #[arg(long, default_value_t = 1)]
    solver_seed: u64,
    #[command(flatten)]
    sizes: super::SizeArgs,
    /// Subgradient sweeps of the letter-aware bound U4 (0 = do not compute it; at most 100,000),
    /// within --phase-seconds. Every sweep's bound is valid; 30 sweeps left it 10-20% above its
    /// 300-sweep value. A sweep solves every row and column: 0.1-0.3 s on mid-size cases, 1-5 s
    /// at 100x100 with 10,000 words.
    #[arg(long, default_value_t = 300, value_parser = |t: &str| args::integer_in(t, 0, MAX_U4_SWEEPS).map(|n| n as usize))]
    u4_sweeps: usize,
    /// Clock of each phase after the solver, per case: the naive reference (its complete
    /// position table and greedy; not done by then is an error), then U1-U3 and U4 together
    /// (cut short they are still bounds, only looser; noted under the row). At most a day.
    #[arg(long, default_value = "10", value_parser = args::seconds, allow_negative_numbers = true)]
    phase_seconds: Duration,
    /// After the solver, run the exact solver from its plan for up to this many seconds per case
    /// (0 = not at all; at most a day) and add the optimum (or the best bound) and the ratio to
    /// it. The exact solver suits small cases (a few hundred cells, up to about 100 entries).
    #[arg(long, default_value = "0", value_parser = exact_seconds)]
    exact: f64,
    /// The exact solver's work in search nodes instead of seconds (at most a billion; results
    /// do not depend on the machine's load).
    #[arg(long, value_parser = |t: &str| args::integer_in(t, 1, 1_000_000_000))]
    exact_nodes: Option<u64>,
    /// Bench only the K-th of N interleaved slices of the seeds, for `tester scruffle merge`.
    #[arg(long, value_parser = crate::shard::parse_shard)]
    shard: Option<Shard>,
    /// Write every row (and the configuration) as a results file here; needed with --shard.
    #[arg(long, value_parser = bot::cli::args::output_file)]
    json: Option<PathBuf>,
}

/// Most seeds one bench takes (each is a whole solver run).
pub const MAX_SEEDS: u64 = 1_000_000;
/// Most LNS iterations of `--work` (about a day of work on the largest cases).
const MAX_WORK: u64 = 100_000_000;
/// Most U4 sweeps (each re-solves every row and column: minutes per hundred on large boards).
const MAX_U4_SWEEPS: u64 = 100_000;

fn exact_seconds(text: &str) -> Result<f64, String> {
    match text.trim() {
        "0" => Ok(0.0),
        t => args::seconds(t).map(|d| d.as_secs_f64()),
    }
}

/// `--seeds` as given and as a list.
#[derive(Clone, Debug)]
struct SeedList {
    text: String,
    seeds: Vec<u64>,
}

fn seed_list(text: &str) -> Result<SeedList, String> {
    let seeds = parse_seeds(text)?;
    Ok(SeedList {
        text: text.to_string(),
        seeds,
    })
}

/// A seed list like `1-3,7`: at most `MAX_SEEDS` seeds in all, counted before any is stored.
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let mut seeds = Vec::new();
    let mut count = 0u64;
    let too_many = || format!("--seeds: more than {MAX_SEEDS} seeds in all");
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
                count = count.saturating_add(b - a).saturating_add(1);
                if count > MAX_SEEDS {
                    return Err(too_many());
                }
                seeds.extend(a..=b);
            }
            None => {
                count += 1;
                if count > MAX_SEEDS {
                    return Err(too_many());
                }
                seeds.push(number(part)?);
            }
        }
    }
    if seeds.is_empty() {
        return Err("--seeds: no seed given".to_string());
    }
    Ok(seeds)
}

/// `SCRUFFLE_DEBUG=1` adds the solver's counters on stderr.
fn debug() -> bool {
    std::env::var_os("SCRUFFLE_DEBUG").is_some()
}

/// What decides the rows (the table's configuration; shards of one plan have equal plans).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// --seeds as given (the header shows it) and as a list.
    pub seeds_text: String,
    pub seeds: Vec<u64>,
    pub seconds: f64,
    pub work: Option<u64>,
    pub solver_seed: u64,
    pub u4_sweeps: usize,
    /// Seconds of exact search per case (0: none; absent from older results files).
    #[serde(default)]
    pub exact: f64,
    /// Or search nodes of exact search per case.
    #[serde(default)]
    pub exact_nodes: Option<u64>,
    /// The ranges the case sizes are drawn from (absent from older results files: the
    /// statement's).
    #[serde(default = "Sizes::statement")]
    pub sizes: Sizes,
    /// The clock of each phase after the solver (absent from older results files: none).
    #[serde(default)]
    pub phase_seconds: Option<f64>,
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
    /// The checker's verdicts on the solver's and the naive greedy's outputs.
    pub verdict: Verdict,
    #[serde(with = "super::check::decimal")]
    pub baseline: BigUint,
    pub u2: u64,
    pub u3: u64,
    pub u4: Option<u64>,
    /// U4's sweeps done (absent from older results files).
    #[serde(default)]
    pub u4_sweeps: Option<usize>,
    /// The bounds' clock ran out: U3 and U4 stopped early (still bounds, only looser).
    #[serde(default)]
    pub bounds_cut: bool,
    /// The exact solver's result, when it ran.
    #[serde(default)]
    pub exact: Option<ExactRow>,
    pub lns_iterations: u64,
    /// Solver wall time, from reading the case to its answer.
    pub seconds: f64,
}

impl Row {
    /// The checker's score of the solver's output (as a float, for ratios and means).
    pub fn score(&self) -> f64 {
        self.verdict.score.to_f64().unwrap_or(f64::INFINITY)
    }

    fn baseline(&self) -> f64 {
        self.baseline.to_f64().unwrap_or(f64::INFINITY)
    }

    pub fn ratio(&self) -> f64 {
        self.score() / self.baseline().max(1.0)
    }

    fn per_placement(&self, x: f64) -> f64 {
        x / self.verdict.placements.max(1) as f64
    }
}

/// What the exact solver found after the solver: the optimum when proven, else the best plan it
/// found (never below the solver's) and a bound.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExactRow {
    pub best: u64,
    /// The optimum when proven, else the best bound, if the search reached one.
    pub bound: Option<u64>,
    pub proven: bool,
    pub nodes: u64,
    pub seconds: f64,
}

/// Generate case `seed`, solve it within the budget, check both outputs independently, then
/// compute the bounds, each phase on its clock (module doc). Every bound is checked against every
/// checked plan.
pub fn bench_seed(index: usize, seed: u64, plan: &Plan) -> Result<Row, String> {
    let case_text = generate_sized(seed, &plan.sizes);
    let start = Instant::now();
    let board = input::Board::parse(&case_text.board, "board").expect("generated board parses");
    let words = input::parse_words(&case_text.words, "words").expect("generated words parse");
    let phase = Duration::from_secs_f64(plan.phase_seconds.unwrap_or(86_400.0));
    let (case, solution, seconds) = match plan.work {
        Some(iterations) => {
            // Fixed work runs on the reference's complete table (and has no clock by design).
            let case = reference_case(&board, words, seed, phase)?;
            let started = Instant::now();
            let solution = case.solve(plan.solver_seed, Budget::work(iterations));
            (case, solution, started.elapsed().as_secs_f64())
        }
        None => {
            let budget = Duration::from_secs_f64(plan.seconds);
            let (_, solution, _) =
                Case::solve_timed(&board, words.clone(), start, budget, plan.solver_seed);
            let seconds = start.elapsed().as_secs_f64();
            if seconds > plan.seconds {
                crate::process::load::warn_overrun("the solver overran --seconds");
            }
            (
                reference_case(&board, words, seed, phase)?,
                solution,
                seconds,
            )
        }
    };
    if debug() {
        eprintln!("debug seed {seed}: {:?}", solution.stats);
    }
    if let Some(claim) = &solution.stats.broken_claim {
        return Err(format!(
            "seed {seed}: the solver's claim failed its check: {claim}"
        ));
    }
    let naive_deadline = Instant::now() + phase;
    let Some(baseline) = case.baseline_until(naive_deadline) else {
        return Err(format!(
            "seed {seed}: the naive greedy did not end within --phase-seconds {}",
            phase.as_secs_f64()
        ));
    };
    let judge = |plays: &[bot::scruffle::Placement], who: &str| {
        check(
            ("board", case_text.board.as_bytes()),
            ("words", case_text.words.as_bytes()),
            (who, case.format(plays).as_bytes()),
        )
    };
    let (solved, base) = match (
        judge(&solution.plays, "solver"),
        judge(&baseline, "baseline"),
    ) {
        (Ok(s), Ok(b)) => (s, b),
        (Err(e), _) | (_, Err(e)) => return Err(format!("seed {seed}: INVALID {e}")),
    };
    let reported = case.total(&solution.plays);
    if solved.score != reported {
        return Err(format!(
            "seed {seed}: solver reports {reported} but the checker scores {}",
            solved.score
        ));
    }
    let best_checked = solved.score.clone().max(base.score.clone()).to_u64();
    let lower = best_checked.unwrap_or(u64::MAX);
    let exact = (plan.exact > 0.0 || plan.exact_nodes.is_some()).then(|| {
        let started = Instant::now();
        let (deadline, limit) = match plan.exact_nodes {
            Some(n) => (started + Duration::from_secs(86_400), n),
            None => (started + Duration::from_secs_f64(plan.exact), u64::MAX),
        };
        let ctx = Context::new(&case.layout, &case.words, &case.table);
        let e = exact::solve_board(&ctx, &solution.plays, deadline, limit);
        ExactRow {
            best: e.score,
            bound: e.bound,
            proven: e.proven,
            nodes: e.nodes,
            seconds: started.elapsed().as_secs_f64(),
        }
    });
    let bounds_deadline = Instant::now() + phase;
    let (bounds, u4) = if plan.u4_sweeps > 0 {
        let u4 = case.u4(
            lower,
            U4Params {
                iterations: plan.u4_sweeps,
                deadline: Some(bounds_deadline),
                parallel: true,
            },
        );
        (u4.simple, Some(u4))
    } else {
        (case.bounds_until(lower, Some(bounds_deadline)), None)
    };
    let bounds_cut = Instant::now() >= bounds_deadline;
    // A bound is a bound: none may fall below a plan checked here (unless the totals overflow).
    if let Some(plan_score) = best_checked {
        let named = [
            ("U2", Some(bounds.u2)),
            ("U3", Some(bounds.u3)),
            ("U4", u4.as_ref().map(|u| u.value)),
            (
                "the exact search's bound",
                exact.as_ref().and_then(|e| e.bound),
            ),
        ];
        for (name, bound) in named {
            if let Some(b) = bound.filter(|&b| b < plan_score) {
                return Err(format!(
                    "seed {seed}: {name} = {b} is below a checked plan of {plan_score} (a false bound)"
                ));
            }
        }
    }
    Ok(Row {
        index,
        seed,
        width: case_text.width,
        height: case_text.height,
        words: case_text.word_count,
        verdict: solved,
        baseline: base.score,
        u2: bounds.u2,
        u3: bounds.u3,
        u4_sweeps: u4.as_ref().map(|u| u.sweeps),
        u4: u4.map(|u| u.value),
        bounds_cut,
        exact,
        lns_iterations: solution.stats.lns_iterations,
        seconds,
    })
}

/// The case with its complete position table, built within `phase` (else an error: the naive
/// reference and the bounds need every entry's positions).
fn reference_case(
    board: &input::Board,
    words: Vec<Vec<u8>>,
    seed: u64,
    phase: Duration,
) -> Result<Case, String> {
    let case = Case::within(board, words, Instant::now() + phase);
    match case.table.truncated() {
        true => Err(format!(
            "seed {seed}: the position table of the naive reference did not end within --phase-seconds {}",
            phase.as_secs_f64()
        )),
        false => Ok(case),
    }
}

const EXACT_HEADER: &str = " optimum or bound | score/opt. | proven | exact s |";
const HEADER: &str = "| seed | board | words | score | naive | ratio | U2 | U3 | U4 | score/U4 | placements | new cells/pl. | points/pl. | LNS it. | s |";

pub fn print_header(plan: &Plan) {
    let budget = match plan.work {
        Some(n) => format!("fixed work: every opening + {n} LNS iterations"),
        None => format!("{} s per case", plan.seconds),
    };
    let sizes = match plan.sizes.is_statement() {
        true => String::new(),
        false => format!(", {}", plan.sizes.describe()),
    };
    let exact = match (plan.exact_nodes, plan.exact) {
        (Some(n), _) => format!(", exact search {n} nodes per case"),
        (None, x) if x > 0.0 => format!(", exact search {x} s per case"),
        _ => String::new(),
    };
    let clock = match plan.phase_seconds {
        Some(s) => format!(" within {s} s"),
        None => String::new(),
    };
    println!(
        "Scruffle bench: seeds {}{sizes}, {budget}, solver seed {}, U4 {} sweeps{clock}{exact}",
        plan.seeds_text, plan.solver_seed, plan.u4_sweeps
    );
    let header = match plan.exact > 0.0 || plan.exact_nodes.is_some() {
        true => format!("{HEADER}{EXACT_HEADER}"),
        false => HEADER.to_string(),
    };
    println!("{header}");
    println!("{}", "|---".repeat(header.matches(" |").count()) + "|");
}

pub fn print_row(r: &Row, plan: &Plan) {
    let (u4, per_u4) = match r.u4 {
        Some(u) => (u.to_string(), format!("{:.3}", r.score() / u.max(1) as f64)),
        None => ("-".to_string(), "-".to_string()),
    };
    let exact = match &r.exact {
        Some(e) => {
            let (bound, ratio) = match e.bound {
                Some(b) => (
                    format!("{}{b}", if e.proven { "=" } else { "<=" }),
                    format!("{:.4}", r.score() / b.max(1) as f64),
                ),
                None => ("none".to_string(), "-".to_string()),
            };
            let proven = if e.proven { "yes" } else { "no" };
            format!(" {bound} | {ratio} | {proven} | {:.1} |", e.seconds)
        }
        None => String::new(),
    };
    println!(
        "| {} | {}x{} | {} | {} | {} | {:.2} | {} | {} | {u4} | {per_u4} | {} | {:.2} | {:.1} | {} | {:.2} |{exact}",
        r.seed,
        r.width,
        r.height,
        r.words,
        r.verdict.score,
        r.baseline,
        r.ratio(),
        r.u2,
        r.u3,
        r.verdict.placements,
        r.per_placement(r.verdict.new_cells as f64),
        r.per_placement(r.score()),
        r.lns_iterations,
        r.seconds,
    );
    if plan.work.is_none() && r.seconds > plan.seconds {
        println!(
            "  (seed {}: solver took {:.2} s, over the budget)",
            r.seed, r.seconds
        );
    }
    if r.bounds_cut {
        let sweeps = match r.u4_sweeps {
            Some(n) => format!(", U4 after {n} of {} sweeps", plan.u4_sweeps),
            None => String::new(),
        };
        println!(
            "  (seed {}: the bounds' clock ran out: U3 and U4 are looser{sweeps})",
            r.seed
        );
    }
}

/// The lines under the table: means over `rows`.
pub fn print_means(rows: &[Row]) {
    let n = rows.len().max(1) as f64;
    let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let mean_score = mean(&|r| r.score());
    let mean_naive = mean(&|r| r.baseline());
    let with_u4: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.u4.map(|u| r.score() / u.max(1) as f64))
        .collect();
    let per_u4 = match with_u4.len() {
        0 => "-".to_string(),
        k => format!("{:.3}", with_u4.iter().sum::<f64>() / k as f64),
    };
    println!();
    println!("all {} outputs valid (independent checker)", rows.len());
    println!(
        "mean score {mean_score:.0}, mean naive {mean_naive:.0}, ratio of means {:.3}, mean of ratios {:.3}",
        mean_score / mean_naive.max(1.0),
        mean(&|r| r.ratio()),
    );
    println!(
        "mean score/U4 {per_u4}, mean score/min(U2,U3) {:.3}, mean new cells per placement {:.2}, mean points per placement {:.1}",
        mean(&|r| r.score() / r.u2.min(r.u3).max(1) as f64),
        mean(&|r| r.per_placement(r.verdict.new_cells as f64)),
        mean(&|r| r.per_placement(r.score())),
    );
    if let Some(line) = exact_summary(rows) {
        println!("{line}");
    }
    // Every plan scores at most U4, so no solver's mean of ratios can pass the mean of U4 / naive.
    if with_u4.len() == rows.len() && !rows.is_empty() {
        let ceiling = mean(&|r| r.u4.unwrap_or(0) as f64 / r.baseline().max(1.0));
        println!(
            "mean U4/naive {ceiling:.3}: no plan can reach a higher mean of ratios on these seeds"
        );
    }
}

/// The exact search's line under the table, when it ran: score / (optimum or bound) over the
/// rows with a bound, then over the proven ones; "none" where a set is empty (no mean of
/// nothing).
pub fn exact_summary(rows: &[Row]) -> Option<String> {
    let ran: Vec<&Row> = rows.iter().filter(|r| r.exact.is_some()).collect();
    if ran.is_empty() {
        return None;
    }
    let ratio = |r: &Row, e: &ExactRow| e.bound.map(|b| r.score() / b.max(1) as f64);
    let ratios: Vec<f64> = ran
        .iter()
        .filter_map(|r| r.exact.as_ref().and_then(|e| ratio(r, e)))
        .collect();
    let proven: Vec<f64> = ran
        .iter()
        .filter_map(|r| {
            let e = r.exact.as_ref().filter(|e| e.proven)?;
            ratio(r, e)
        })
        .collect();
    let stats = |xs: &[f64]| match xs.is_empty() {
        true => None,
        false => Some((
            xs.iter().sum::<f64>() / xs.len() as f64,
            xs.iter().copied().fold(f64::INFINITY, f64::min),
        )),
    };
    let bounded = match stats(&ratios) {
        Some((mean, worst)) => format!("mean {mean:.4}, worst {worst:.4} over {}", ratios.len()),
        None => "no bound reached".to_string(),
    };
    let optima = match stats(&proven) {
        Some((mean, worst)) => format!(
            "optimum proven on {} of {}: there mean {mean:.4}, worst {worst:.4}, optimal on {}",
            proven.len(),
            ran.len(),
            proven.iter().filter(|&&x| x >= 1.0).count()
        ),
        None => format!("optimum proven on none of {}", ran.len()),
    };
    Some(format!("score/(optimum or bound): {bounded}; {optima}"))
}

pub fn run(args: Args) -> ExitCode {
    if args.shard.is_some() && args.json.is_none() {
        return crate::fail("--shard writes its rows to --json FILE (give one)");
    }
    let plan = Plan {
        seeds_text: args.seeds.text,
        seeds: args.seeds.seeds,
        seconds: args.seconds.as_secs_f64(),
        work: args.work,
        solver_seed: args.solver_seed,
        u4_sweeps: args.u4_sweeps,
        exact: args.exact,
        exact_nodes: args.exact_nodes,
        sizes: args.sizes.sizes(),
        phase_seconds: Some(args.phase_seconds.as_secs_f64()),
    };
    let _json = match crate::process::outputs::claim(&[("--json", args.json.as_deref())], &[]) {
        Ok(c) => c,
        Err(e) => return crate::fail(e),
    };
    if plan.work.is_none() {
        crate::process::load::warn_if_busy();
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    print_header(&plan);
    let mut rows = Vec::new();
    for (index, &seed) in plan.seeds.iter().enumerate() {
        if !shard.holds(index) {
            continue;
        }
        let row = match bench_seed(index, seed, &plan) {
            Ok(r) => r,
            Err(e) => return crate::fail(e),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scruffle::check::Verdict;

    fn row(seed: u64, score: u32, exact: Option<ExactRow>) -> Row {
        Row {
            index: seed as usize,
            seed,
            width: 10,
            height: 10,
            words: 20,
            verdict: Verdict {
                score: score.into(),
                placements: 5,
                new_cells: 20,
                crossed_cells: 0,
            },
            baseline: 100u32.into(),
            u2: 1000,
            u3: 900,
            u4: None,
            u4_sweeps: None,
            bounds_cut: false,
            exact,
            lns_iterations: 0,
            seconds: 0.1,
        }
    }

    fn exact(bound: Option<u64>, proven: bool) -> Option<ExactRow> {
        Some(ExactRow {
            best: 0,
            bound,
            proven,
            nodes: 1,
            seconds: 0.0,
        })
    }

    #[test]
    fn the_exact_summary_never_averages_nothing() {
        assert_eq!(exact_summary(&[row(1, 200, None)]), None);
        let none_proven = [
            row(1, 200, exact(Some(400), false)),
            row(2, 300, exact(None, false)),
        ];
        assert_eq!(
            exact_summary(&none_proven).unwrap(),
            "score/(optimum or bound): mean 0.5000, worst 0.5000 over 1; optimum proven on none of 2"
        );
        let nothing = [row(1, 200, exact(None, false))];
        assert_eq!(
            exact_summary(&nothing).unwrap(),
            "score/(optimum or bound): no bound reached; optimum proven on none of 1"
        );
        let one_proven = [
            row(1, 200, exact(Some(200), true)),
            row(2, 300, exact(Some(600), false)),
        ];
        assert_eq!(
            exact_summary(&one_proven).unwrap(),
            "score/(optimum or bound): mean 0.7500, worst 0.5000 over 2; optimum proven on 1 of 2: there mean 1.0000, worst 1.0000, optimal on 1"
        );
    }
}
