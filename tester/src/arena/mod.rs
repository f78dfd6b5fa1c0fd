//! `tester arena`: many refereed Penguins games in parallel from a fixed seed list, with seat
//! rotation on each seed, W/D/L tables, Weng-Lin (OpenSkill) ratings, failure counts, an SPRT mode,
//! per-bot turn-time percentiles, and JSON/CSV output.

mod compose;
mod index;
mod merge;
mod plan;
mod recheck;
mod report;
mod schedule;
pub mod sprt;
mod timing;
mod unplayed;

use clap::Parser;
use rayon::prelude::*;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bot::cli::args::{integer_in, millis, millis_threshold};
use bot::penguins::Rules;

use crate::penguins::output_path;
use crate::penguins::referee::{run_game, NotPlayed, RefereeConfig};
use crate::shard::{RunInfo, Shard};
use plan::{Plan, PlanConfig};
use schedule::{GameResult, Scheduled};
use sprt::SprtConfig;

#[derive(Parser)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<Merge>,
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
    /// Judge answers by the CPU time each bot used on the turn instead of the wall clock (which
    /// then waits up to 4 times the limit): on a busy machine, a descheduled bot is not late.
    /// The timing table shows wall and CPU times either way.
    #[arg(long)]
    cpu_time: bool,
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
    /// Write every game's replay JSON into this directory, with its viewer page beside it
    /// (`.html`), and at the end `index.html`: every game of the run, linking its viewer.
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
    /// SPRT: games per round (even: both seatings of a seed); the test is checked after each
    /// round, so the verdict does not depend on --workers or on the machines.
    #[arg(long, default_value_t = 20, value_parser = round_games)]
    round_games: usize,
    /// Play only the K-th of N interleaved slices of the plan (by seed) and write its results to
    /// --json, for `tester arena merge`.
    #[arg(long, value_parser = crate::shard::parse_shard)]
    shard: Option<Shard>,
    /// SPRT shards: play round R only (1-based; --round-games games from game x
    /// --round-games); `tester arena merge` of rounds 1..R gives the verdict.
    #[arg(long, value_parser = round_number)]
    round: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Subcommand)]
enum Merge {
    /// Merge the results files of shards (`--shard K/N --json FILE`) into the report of the whole
    /// plan. Exit status 3: an SPRT without a verdict yet (play the next round).
    Merge(merge::Args),
}

/// Most games one arena run plays per player count.
const MAX_GAMES: u64 = 1_000_000;
/// Most parallel games.
const MAX_WORKERS: u64 = 256;

fn game_count(text: &str) -> Result<usize, String> {
    integer_in(text, 1, MAX_GAMES).map(|n| n as usize)
}

fn round_games(text: &str) -> Result<usize, String> {
    match integer_in(text, 2, MAX_GAMES)? {
        n if n % 2 == 0 => Ok(n as usize),
        _ => Err("must be even (both seatings of each seed)".into()),
    }
}

fn round_number(text: &str) -> Result<usize, String> {
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    if let Some(Merge::Merge(merge)) = args.merge {
        return merge::run(merge);
    }
    let result = run_arena(&args);
    let kept = "--json and --csv not written; the replays of finished games are kept";
    if let Some(code) = crate::process::interrupt::stopped("tester arena", kept) {
        return code;
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(format!("tester arena: {e}")),
    }
}

/// The plan the arguments describe, checked.
fn plan_config(args: &Args) -> Result<PlanConfig, String> {
    let bots = parse_bots(&args.bots)?;
    let rules = Rules::parse(&args.rules).map_err(|e| format!("--rules: {e}"))?;
    if let Some(bad) = args.players.iter().find(|p| !(2..=4).contains(*p)) {
        return Err(format!("--players: {bad} (must be 2, 3 or 4)"));
    }
    if let Some((i, p)) =
        (args.players.iter().enumerate()).find(|(i, p)| args.players[..*i].contains(p))
    {
        return Err(format!(
            "--players: {p} is given twice (position {})",
            i + 1
        ));
    }
    let plan = match &args.sprt {
        Some(pair) => {
            let (a, b) = sprt_pair(pair, &bots)?;
            Plan::Sprt {
                a,
                b,
                test: SprtConfig::new(args.elo0, args.elo1, args.alpha, args.beta)?,
                max_games: args.max_games,
                round_games: args.round_games,
            }
        }
        None => Plan::Fixed {
            players: args.players.clone(),
            games: args.games,
        },
    };
    let config = PlanConfig {
        bots,
        first_seed: args.seed,
        first_turn_ms: args.first_ms,
        turn_ms: args.turn_ms,
        slow_ms: args.slow_ms,
        cpu_time: args.cpu_time,
        rules: rules.describe(),
        plan,
    };
    config.check()?;
    Ok(config)
}

fn run_arena(args: &Args) -> Result<(), String> {
    // Everything checked before the first line of output.
    let config = plan_config(args)?;
    let sprt = matches!(config.plan, Plan::Sprt { .. });
    if (args.shard.is_some() || args.round.is_some()) && args.json.is_none() {
        return Err("--shard and --round write their results to --json FILE (give one)".into());
    }
    match (sprt, args.round) {
        (false, Some(_)) => return Err("--round is for --sprt shards".into()),
        (true, None) if args.shard.is_some() => {
            return Err(
                "--shard with --sprt needs --round R: SPRT shards are played round by round".into(),
            )
        }
        (true, Some(r)) if r > config.rounds() => {
            return Err(format!(
                "--round {r}: --max-games {} ends after round {}",
                args.max_games,
                config.rounds()
            ))
        }
        _ => {}
    }
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let workers = args
        .workers
        .unwrap_or(cores.saturating_sub(1).max(1))
        .max(1);
    // One worker runs one game, whose bots think in turn: only several games at once compete.
    if workers > 1 && workers >= cores {
        let cores = match cores {
            1 => "1 core".to_string(),
            n => format!("{n} cores"),
        };
        eprintln!("note: {workers} workers on {cores}: bots compete for CPU and may time out");
    }
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir).map_err(|e| format!("--replays {dir}: {e}"))?;
        bot::cli::output::check_folder(std::path::Path::new(dir))
            .map_err(|e| format!("--replays: {e}"))?;
    }
    let outputs = [("--json", &args.json), ("--csv", &args.csv)];
    let _outputs = crate::penguins::claim_outputs(&outputs, &[])?;
    crate::process::load::warn_if_busy();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let limits = Limits {
        rules: Rules::parse(&args.rules).map_err(|e| format!("--rules: {e}"))?,
        first_turn: Duration::from_millis(args.first_ms),
        turn: Duration::from_millis(args.turn_ms),
        cpu_time: args.cpu_time,
    };
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let state = RunState::default();
    compose::print_header(&config, &workers.to_string());
    let started = Instant::now();
    let blocks = config.blocks(args.round.map(|r| (r, r)));
    // A shard plays its slice of each block; the whole plan is slice 1/1.
    let mut play = |block: &plan::Block| {
        let slice: Vec<Scheduled> = block
            .games
            .iter()
            .filter(|(i, _)| shard.holds(config.unit(*i)))
            .map(|(_, game)| game.clone())
            .collect();
        play_all(&slice, &config, &limits, &pool, args, &state).map(Some)
    };
    let verdict = args.round.is_none();
    let composed = compose::compose(&config, &blocks, &mut play, verdict, !args.quiet)?;
    let seconds = started.elapsed().as_secs_f64();
    compose::print_total(composed.games.len(), seconds);
    if let Some(e) = compose::unplayed_error(&composed) {
        return Err(e);
    }
    if (composed.games.iter()).any(|g| g.failures.iter().flatten().any(|k| k == "timeout")) {
        crate::process::load::warn_overrun("a bot lost on time");
    }
    if args.shard.is_some() || args.round.is_some() {
        let round = args
            .round
            .map_or(String::new(), |r| format!(" of round {r}"));
        eprintln!(
            "shard {shard}{round}: {} games; `tester arena merge` of every shard's --json gives the whole plan's report",
            composed.games.len()
        );
    }
    if let Some(dir) = &args.replays {
        index::write(dir, &config.bots, &composed.games)?;
    }
    let run = RunInfo::new("arena", shard);
    let summary = report::Summary::new(run, &config, composed, workers, seconds);
    if let Some(path) = &args.json {
        crate::shard::write(std::path::Path::new(path), &summary)?;
    }
    if let Some(path) = &args.csv {
        bot::cli::output::write(std::path::Path::new(path), report::csv(&summary))?;
    }
    let failed = state
        .replays_failed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((count, first)) = failed {
        return Err(format!(
            "--replays: {count} replays not written (the games count; --json and --csv are written), first: {first}"
        ));
    }
    Ok(())
}

/// What the games of one run share.
#[derive(Default)]
struct RunState {
    /// Set by the first game that could not be played: no game starts after it.
    stop: AtomicBool,
    /// Replays that could not be written: how many, and the first error.
    replays_failed: Mutex<Option<(usize, String)>>,
}

struct Limits {
    rules: Rules,
    first_turn: Duration,
    turn: Duration,
    cpu_time: bool,
}

/// Play `plan` in parallel; results come back in plan order whatever the finishing order.
fn play_all(
    plan: &[Scheduled],
    config: &PlanConfig,
    limits: &Limits,
    pool: &rayon::ThreadPool,
    args: &Args,
    state: &RunState,
) -> Result<Vec<GameResult>, String> {
    let bar = crate::progress::bar(plan.len() as u64, "games", !args.quiet);
    let results: Vec<Result<GameResult, String>> = pool.install(|| {
        plan.par_iter()
            .map(|game| {
                let result = play_one(game, &config.bots, limits, args.replays.as_deref(), state);
                bar.inc(1);
                result
            })
            .collect()
    });
    bar.finish_and_clear();
    results.into_iter().collect()
}

/// Play one game (or skip it, after a game that could not be played); `Err` only when
/// interrupted.
fn play_one(
    game: &Scheduled,
    bots: &[BotSpec],
    limits: &Limits,
    replays: Option<&str>,
    state: &RunState,
) -> Result<GameResult, String> {
    if crate::process::interrupt::interrupted() {
        return Err("interrupted".into());
    }
    let commands = plan::seat_commands(game, bots);
    if state.stop.load(Ordering::Relaxed) {
        let skipped = Err(unplayed::SKIPPED.to_string());
        return Ok(GameResult::new(game, &commands, skipped));
    }
    let config = RefereeConfig {
        seed: game.seed,
        rules: limits.rules,
        first_turn: limits.first_turn,
        turn: limits.turn,
        cpu_time: limits.cpu_time,
    };
    // Every replay is re-verified by the independent checker; a failure is a referee error.
    let replay = run_game(&config, &commands)
        .map_err(|e| match e {
            NotPlayed::NotStarted { seat, cause } => {
                format!("{} did not start: {cause}", bots[game.seats[seat]].name)
            }
            NotPlayed::Refused(e) => e,
        })
        .and_then(|replay| {
            crate::penguins::check::check(&replay)
                .map(|_| replay)
                .map_err(|e| format!("the replay check failed: {e}"))
        });
    // A game cut short by Ctrl-C is no result (its bots were killed), nor a replay.
    if crate::process::interrupt::interrupted() {
        return Err("interrupted".into());
    }
    if replay.is_err() {
        state.stop.store(true, Ordering::Relaxed);
    }
    if let (Some(dir), Ok(replay)) = (replays, &replay) {
        let stem = format!(
            "{dir}/{}",
            index::stem(game.seats.len(), game.seed, game.rotation)
        );
        // A replay not written loses no result: the run goes on, and fails at its end.
        if let Err(e) = crate::penguins::save(
            replay,
            Some(&format!("{stem}.json")),
            Some(&format!("{stem}.html")),
        ) {
            let mut failed = state
                .replays_failed
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match failed.as_mut() {
                Some((count, _)) => *count += 1,
                None => *failed = Some((1, e)),
            }
        }
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
