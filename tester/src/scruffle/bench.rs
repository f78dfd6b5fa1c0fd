//! Solver against the naive greedy on generated cases: every output is validated and scored by the
//! independent checker in the same run, beside the bounds U2, U3 and U4 (computed after the
//! solver's budget, never inside it). `bench_seed` measures one case into a `Row`; printing is
//! separate, so the rows can be gathered, split into shards or merged before they are shown.

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
    /// Subgradient sweeps of the letter-aware bound U4 (0 = do not compute it; at most 100,000).
    /// Every sweep's bound is valid; 30 sweeps left it 10-20% above its 300-sweep value.
    #[arg(long, default_value_t = 300, value_parser = |t: &str| args::integer_in(t, 0, MAX_U4_SWEEPS).map(|n| n as usize))]
    u4_sweeps: usize,
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
/// compute the bounds.
pub fn bench_seed(index: usize, seed: u64, plan: &Plan) -> Result<Row, String> {
    let case_text = generate_sized(seed, &plan.sizes);
    let start = Instant::now();
    let board = input::Board::parse(&case_text.board, "board").expect("generated board parses");
    let words = input::parse_words(&case_text.words, "words").expect("generated words parse");
    let case = Case::new(&board, words);
    let budget = match plan.work {
        Some(iterations) => Budget::work(iterations),
        None => Budget::until(start + Duration::from_secs_f64(plan.seconds * 0.97)),
    };
    let solution = case.solve(plan.solver_seed, budget);
    let seconds = start.elapsed().as_secs_f64();
    if plan.work.is_none() && seconds > plan.seconds {
        crate::process::load::warn_overrun("the solver overran --seconds");
    }
    if debug() {
        eprintln!("debug seed {seed}: {:?}", solution.stats);
    }
    let baseline = case.baseline();
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
    let lower = solved
        .score
        .clone()
        .max(base.score.clone())
        .to_u64()
        .unwrap_or(u64::MAX);
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
    let (bounds, u4) = if plan.u4_sweeps > 0 {
        let u4 = case.u4(
            lower,
            U4Params {
                iterations: plan.u4_sweeps,
                deadline: None,
                parallel: true,
            },
        );
        (u4.simple, Some(u4.value))
    } else {
        (case.bounds(lower), None)
    };
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
        u4,
        exact,
        lns_iterations: solution.stats.lns_iterations,
        seconds,
    })
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
    println!(
        "Scruffle bench: seeds {}{sizes}, {budget}, solver seed {}, U4 {} sweeps{exact}",
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
