//! `tester arena`: many refereed Penguins games in parallel from a fixed seed list, with seat
//! rotation on each seed, W/D/L tables, Weng-Lin (OpenSkill) ratings, failure counts, an SPRT mode,
//! per-bot turn-time percentiles, and JSON/CSV output.

mod report;
mod schedule;
pub mod sprt;
mod timing;

use clap::Parser;
use rayon::prelude::*;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bot::cli::args::{integer_in, millis, millis_threshold};
use bot::penguins::Rules;

use crate::penguins::output_path;
use crate::penguins::referee::{run_game, RefereeConfig};
use schedule::{GameResult, Scheduled};
use sprt::{SprtConfig, Verdict};

#[derive(Parser)]
pub struct Args {
    /// A bot as NAME=COMMAND (give 2 or more). `{seed}` in COMMAND becomes a per-game, per-seat seed.
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Player counts to play, comma-separated (2, 3, 4).
    #[arg(long, default_value = "2", value_delimiter = ',')]
    players: Vec<usize>,
    /// Games per player count (seeds x seat rotations; rounded down to whole rotations).
    #[arg(long, default_value_t = 100, value_parser = game_count)]
    games: usize,
    /// First seed of the fixed seed list (seeds are SEED, SEED+1, ...).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Parallel games (default: cores - 1, at least 1).
    #[arg(long, value_parser = workers)]
    workers: Option<usize>,
    /// Time for each bot's first turn, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = millis)]
    first_ms: u64,
    /// Time for every later turn, in milliseconds.
    #[arg(long, default_value_t = 50, value_parser = millis)]
    turn_ms: u64,
    /// Later turns slower than this many milliseconds are counted in the timing table.
    #[arg(long, default_value_t = 45.0, value_parser = millis_threshold)]
    slow_ms: f64,
    /// Rules, comma-separated words applied in order: league1, league2 (the default: push and
    /// early end), push, no-push, early-end, no-early-end, one-fish, score-under.
    #[arg(long, default_value = "league2")]
    rules: String,
    /// Write the full results (config, tables, ratings, every game) as JSON here.
    #[arg(long, value_parser = output_path)]
    json: Option<String>,
    /// Write one CSV row per game and seat here.
    #[arg(long, value_parser = output_path)]
    csv: Option<String>,
    /// Write every game's replay JSON into this directory.
    #[arg(long)]
    replays: Option<String>,
    /// SPRT mode: "A,B" asks whether bot A is stronger than bot B (2-player games only).
    #[arg(long)]
    sprt: Option<String>,
    /// SPRT: Elo advantage of A under H0 (-1000..1000).
    #[arg(long, default_value_t = 0.0, value_parser = elo, allow_negative_numbers = true)]
    elo0: f64,
    /// SPRT: Elo advantage of A under H1 (-1000..1000, above --elo0).
    #[arg(long, default_value_t = 20.0, value_parser = elo, allow_negative_numbers = true)]
    elo1: f64,
    /// SPRT: false-positive rate (between 0 and 1, exclusive).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    alpha: f64,
    /// SPRT: false-negative rate (between 0 and 1, exclusive).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    beta: f64,
    /// SPRT: stop after this many games without a verdict.
    #[arg(long, default_value_t = 2000, value_parser = game_count)]
    max_games: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Most games one arena run plays per player count.
const MAX_GAMES: u64 = 1_000_000;
/// Most parallel games.
const MAX_WORKERS: u64 = 256;

fn game_count(text: &str) -> Result<usize, String> {
    integer_in(text, 1, MAX_GAMES).map(|n| n as usize)
}

fn workers(text: &str) -> Result<usize, String> {
    integer_in(text, 1, MAX_WORKERS).map(|n| n as usize)
}

/// A rate strictly between 0 and 1.
fn probability(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 1.0 => Ok(p),
        _ => Err("must be a number between 0 and 1 (exclusive)".into()),
    }
}

/// An Elo difference, within what a win rate can express.
fn elo(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(e) if (-1000.0..=1000.0).contains(&e) => Ok(e),
        _ => Err("must be a number from -1000 to 1000".into()),
    }
}

/// A named bot command.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BotSpec {
    pub name: String,
    pub command: String,
}

fn parse_bots(specs: &[String]) -> Result<Vec<BotSpec>, String> {
    let mut bots: Vec<BotSpec> = Vec::new();
    for spec in specs {
        let (name, command) = spec
            .split_once('=')
            .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
            .ok_or_else(|| format!("--bot {spec:?}: expected NAME=COMMAND"))?;
        if name.contains([',', '"']) {
            return Err(format!(
                "--bot {spec:?}: the name may not contain ',' or '\"'"
            ));
        }
        if bots.iter().any(|b| b.name == name.trim()) {
            return Err(format!("--bot: the name {name:?} is used twice"));
        }
        bots.push(BotSpec {
            name: name.trim().to_string(),
            command: command.trim().to_string(),
        });
    }
    if bots.len() < 2 {
        return Err("give at least two --bot NAME=COMMAND".into());
    }
    Ok(bots)
}

pub fn run(args: Args) -> ExitCode {
    match run_arena(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(format!("tester arena: {e}")),
    }
}

fn run_arena(args: &Args) -> Result<(), String> {
    let bots = parse_bots(&args.bots)?;
    let rules = Rules::parse(&args.rules).map_err(|e| format!("--rules: {e}"))?;
    if let Some(bad) = args.players.iter().find(|p| !(2..=4).contains(*p)) {
        return Err(format!("--players: {bad} (must be 2, 3 or 4)"));
    }
    // Everything checked before the first line of output.
    let sprt_setup = match &args.sprt {
        Some(pair) => Some((
            sprt_pair(pair, &bots)?,
            SprtConfig::new(args.elo0, args.elo1, args.alpha, args.beta)?,
        )),
        None => None,
    };
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let workers = args
        .workers
        .unwrap_or(cores.saturating_sub(1).max(1))
        .max(1);
    if workers >= cores {
        eprintln!(
            "note: {workers} workers on {cores} cores: bots compete for CPU and may time out"
        );
    }
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir).map_err(|e| format!("--replays {dir}: {e}"))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let limits = Limits {
        rules,
        first_turn: Duration::from_millis(args.first_ms),
        turn: Duration::from_millis(args.turn_ms),
    };
    println!(
        "arena: {} bots, workers {workers}, limits {}/{} ms, rules {}, seeds from {}",
        bots.len(),
        args.first_ms,
        args.turn_ms,
        rules.describe(),
        args.seed
    );
    for bot in &bots {
        println!("  {} = {}", bot.name, bot.command);
    }
    let started = Instant::now();
    let mut sections = Vec::new();
    let mut all_games = Vec::new();
    let sprt_result;
    if let Some(((a, b), config)) = sprt_setup {
        let (games, outcome) = run_sprt(args, &bots, a, b, config, &limits, &pool)?;
        sections.push(report::section(2, &bots, &games, args.slow_ms));
        sprt_result = Some(outcome);
        all_games = games;
    } else {
        sprt_result = None;
        for &players in &args.players {
            let plan = schedule::plan(bots.len(), players, args.games, args.seed);
            if plan.is_empty() {
                return Err(format!(
                    "--games {} is fewer than one rotation of {players} seats",
                    args.games
                ));
            }
            let games = play_all(&plan, &bots, &limits, &pool, args)?;
            let section = report::section(players, &bots, &games, args.slow_ms);
            report::print_section(&section);
            sections.push(section);
            all_games.extend(games);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if let Some(outcome) = &sprt_result {
        report::print_section(&sections[0]);
        report::print_sprt(outcome);
    }
    println!("total: {} games in {seconds:.1} s", all_games.len());
    let summary = report::Summary {
        bots: bots.clone(),
        workers,
        first_turn_ms: args.first_ms,
        turn_ms: args.turn_ms,
        rules: rules.describe(),
        first_seed: args.seed,
        seconds,
        sections,
        sprt: sprt_result,
        games: all_games,
    };
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, report::csv(&summary))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(())
}

struct Limits {
    rules: Rules,
    first_turn: Duration,
    turn: Duration,
}

/// Play `plan` in parallel; results come back in plan order whatever the finishing order.
fn play_all(
    plan: &[Scheduled],
    bots: &[BotSpec],
    limits: &Limits,
    pool: &rayon::ThreadPool,
    args: &Args,
) -> Result<Vec<GameResult>, String> {
    let bar = crate::progress::bar(plan.len() as u64, "games", !args.quiet);
    let results: Vec<Result<GameResult, String>> = pool.install(|| {
        plan.par_iter()
            .map(|game| {
                let result = play_one(game, bots, limits, args.replays.as_deref());
                bar.inc(1);
                result
            })
            .collect()
    });
    bar.finish_and_clear();
    results.into_iter().collect()
}

fn play_one(
    game: &Scheduled,
    bots: &[BotSpec],
    limits: &Limits,
    replays: Option<&str>,
) -> Result<GameResult, String> {
    let commands: Vec<String> = game
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &bot)| {
            let seat_seed = game.seed * 10 + seat as u64;
            bots[bot].command.replace("{seed}", &seat_seed.to_string())
        })
        .collect();
    let config = RefereeConfig {
        seed: game.seed,
        rules: limits.rules,
        first_turn: limits.first_turn,
        turn: limits.turn,
    };
    // Every replay is re-verified by the independent checker; a failure is a referee error.
    let replay = run_game(&config, &commands).and_then(|replay| {
        crate::penguins::check::check(&replay)
            .map(|_| replay)
            .map_err(|e| format!("replay check failed (seed {}): {e}", game.seed))
    });
    if let (Some(dir), Ok(replay)) = (replays, &replay) {
        let path = format!(
            "{dir}/p{}-seed{}-rot{}.json",
            game.seats.len(),
            game.seed,
            game.rotation
        );
        crate::penguins::save(replay, Some(&path), None)?;
    }
    Ok(GameResult::new(game, &commands, replay))
}

fn sprt_pair(pair: &str, bots: &[BotSpec]) -> Result<(usize, usize), String> {
    let find = |name: &str| {
        bots.iter()
            .position(|b| b.name == name.trim())
            .ok_or_else(|| format!("--sprt: no bot named {name:?}"))
    };
    let (a, b) = pair
        .split_once(',')
        .ok_or_else(|| format!("--sprt {pair:?}: expected A,B"))?;
    let (a, b) = (find(a)?, find(b)?);
    if a == b {
        return Err("--sprt: A and B must differ".into());
    }
    Ok((a, b))
}

/// Play A vs B in batches (both seatings of each seed) until the SPRT decides or `max_games`.
fn run_sprt(
    args: &Args,
    bots: &[BotSpec],
    a: usize,
    b: usize,
    config: SprtConfig,
    limits: &Limits,
    pool: &rayon::ThreadPool,
) -> Result<(Vec<GameResult>, report::SprtOutcome), String> {
    let mut games = Vec::new();
    let mut next_seed = args.seed;
    let batch = (pool.current_num_threads() * 4).max(2) & !1;
    loop {
        let mut plan = Vec::new();
        while plan.len() < batch {
            for rotation in 0..2 {
                let seats = if rotation == 0 {
                    vec![a, b]
                } else {
                    vec![b, a]
                };
                plan.push(Scheduled {
                    seed: next_seed,
                    rotation,
                    seats,
                });
            }
            next_seed += 1;
        }
        games.extend(play_all(&plan, bots, limits, pool, args)?);
        let (w, d, l) = report::pairwise(&games, a, b);
        let verdict = config.verdict(w, d, l);
        if !args.quiet {
            eprintln!(
                "sprt: {} games, W/D/L {w}/{d}/{l}, LLR {:.2}",
                games.len(),
                config.llr(w, d, l)
            );
        }
        if verdict != Verdict::Continue || games.len() >= args.max_games {
            let outcome = report::SprtOutcome {
                a: bots[a].name.clone(),
                b: bots[b].name.clone(),
                config,
                wins: w,
                draws: d,
                losses: l,
                llr: config.llr(w, d, l),
                bounds: config.bounds(),
                verdict,
                elo: sprt::elo_estimate(w, d, l),
            };
            return Ok((games, outcome));
        }
    }
}
