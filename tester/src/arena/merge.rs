//! `tester arena merge`: the results files of shards (and of SPRT rounds) back into the report of
//! the whole plan, printed by the same `compose` as a run on one machine.

use serde::Deserialize;
use std::path::PathBuf;
use std::process::ExitCode;

use super::compose::{self, Composed};
use super::plan::{Plan, PlanConfig};
use super::report::{self, Summary};
use super::schedule::GameResult;
use crate::penguins::output_path;
use crate::shard::{self, Part, RunInfo, Shard};

#[derive(clap::Args)]
pub struct Args {
    /// Results files (`tester arena ... --shard K/N --json FILE`), in any order: every shard of
    /// the plan (for an SPRT: of rounds 1..R).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged results (config, tables, ratings, every game) as JSON here; it merges
    /// again like a shard 1/1.
    #[arg(long, value_parser = output_path)]
    json: Option<String>,
    /// Write one CSV row per game and seat here.
    #[arg(long, value_parser = output_path)]
    csv: Option<String>,
    /// No SPRT progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

/// What the merge reads of a results file (the rest of the summary is recomputed).
#[derive(Deserialize)]
struct ArenaFile {
    rounds: Option<(usize, usize)>,
    config: PlanConfig,
    workers: usize,
    seconds: f64,
    games: Vec<GameResult>,
}

/// Exit status of a merge whose SPRT needs another round.
const SPRT_CONTINUES: u8 = 3;

pub fn run(args: Args) -> ExitCode {
    match merge(&args) {
        Ok(Some(_)) => ExitCode::from(SPRT_CONTINUES),
        Ok(None) => ExitCode::SUCCESS,
        Err(e) => crate::fail(format!("tester arena merge: {e}")),
    }
}

/// Print the merged report; `Some(round)`: an SPRT that continues with that round.
fn merge(args: &Args) -> Result<Option<usize>, String> {
    let files = shard::load::<ArenaFile>(&args.files, "arena")?;
    let config = files[0].body.config.clone();
    config
        .check()
        .map_err(|e| format!("{}: a plan no arena plays: {e}", files[0].name))?;
    let mut parts = Vec::new();
    for file in &files {
        let name = &file.name;
        let scope = match (&config.plan, file.body.rounds) {
            (Plan::Fixed { .. }, None) => 0..config.len(),
            (Plan::Sprt { .. }, Some((first, last)))
                if 1 <= first && first <= last && last <= config.rounds() =>
            {
                config.round_range(first, last)
            }
            (Plan::Sprt { .. }, Some((first, last))) => {
                return Err(format!(
                    "{name}: rounds {first}..{last} are not within the plan's rounds 1..{}",
                    config.rounds()
                ))
            }
            (Plan::Sprt { .. }, None) => {
                return Err(format!("{name}: an SPRT results file without its rounds"))
            }
            (Plan::Fixed { .. }, Some(_)) => {
                return Err(format!("{name}: rounds given for a plan without an SPRT"))
            }
        };
        let games = file
            .body
            .games
            .iter()
            .map(|game| {
                let index = config.index_of(game).ok_or_else(|| {
                    format!(
                        "{name}: a game of {} players on seed {} rotation {} is not in the plan",
                        game.players, game.seed, game.rotation
                    )
                })?;
                config
                    .check_game(index, game)
                    .map_err(|e| format!("{name}: {e}"))?;
                Ok(index)
            })
            .collect::<Result<Vec<usize>, String>>()?;
        parts.push(Part {
            name,
            shard: file.run.shard,
            scope,
            games,
        });
    }
    let required = match config.plan {
        Plan::Fixed { .. } => 0..config.len(),
        Plan::Sprt { .. } => 0..parts.iter().map(|p| p.scope.end).max().unwrap_or(0),
    };
    let order = shard::assemble(&parts, required, |i| config.unit(i), |i| config.describe(i))?;
    let games: Vec<GameResult> = order
        .iter()
        .map(|&(p, j)| files[p].body.games[j].clone())
        .collect();
    let last_round = config
        .rounds()
        .min(games.len() / round_games(&config).max(1));
    let blocks = config.blocks(Some((1, last_round)));
    let mut source = |block: &super::plan::Block| {
        let range = match (block.games.first(), block.games.last()) {
            (Some(first), Some(last)) => first.0..last.0 + 1,
            _ => 0..0,
        };
        Ok(games.get(range).map(<[GameResult]>::to_vec))
    };
    let mut worker_counts: Vec<usize> = files.iter().map(|f| f.body.workers).collect();
    worker_counts.sort_unstable();
    worker_counts.dedup();
    let workers = match worker_counts.as_slice() {
        [one] => one.to_string(),
        many => format!("{}-{} (per shard)", many[0], many[many.len() - 1]),
    };
    compose::print_header(&config, &workers);
    let composed: Composed = compose::compose(&config, &blocks, &mut source, true, !args.quiet)?;
    // Rounds after the verdict were not needed: left out, as a run on one machine stops there.
    let last_used = composed.rounds.map_or(0, |(_, last)| last);
    if composed.rounds.is_some() && last_used < last_round {
        eprintln!(
            "note: rounds {}..{last_round} left out: the test decided after round {last_used}",
            last_used + 1
        );
    }
    let seconds: f64 = files
        .iter()
        .filter(|f| f.body.rounds.is_none_or(|(first, _)| first <= last_used))
        .map(|f| f.body.seconds)
        .sum();
    compose::print_total(composed.games.len(), seconds);
    let next_round = composed.sprt.as_ref().and_then(|s| s.next_round);
    let run = RunInfo {
        shard: Shard::WHOLE,
        ..files[0].run.clone()
    };
    let workers = *worker_counts.last().unwrap_or(&1);
    let summary = Summary::new(run, &config, composed, workers, seconds);
    if let Some(path) = &args.json {
        shard::write(std::path::Path::new(path), &summary)?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, report::csv(&summary))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    Ok(next_round)
}

fn round_games(config: &PlanConfig) -> usize {
    match config.plan {
        Plan::Sprt { round_games, .. } => round_games,
        Plan::Fixed { .. } => 1,
    }
}
