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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::plan::seat_commands;
    use crate::arena::sprt::SprtConfig;
    use crate::arena::BotSpec;
    use crate::shard::hostile::{merge_files, refused_cleanly};
    use test_support::fuzz::config;
    use test_support::proptest::prelude::*;

    fn plan(sprt: bool) -> PlanConfig {
        let bot = |name: &str| BotSpec {
            name: name.into(),
            command: format!("{name} --seed {{seed}}"),
        };
        PlanConfig {
            bots: vec![bot("a"), bot("b"), bot("c")],
            first_seed: 5,
            first_turn_ms: 1000,
            turn_ms: 50,
            slow_ms: 45.0,
            cpu_time: false,
            rules: "default".into(),
            plan: match sprt {
                false => Plan::Fixed {
                    players: vec![2, 3],
                    games: 6,
                },
                true => Plan::Sprt {
                    a: 0,
                    b: 1,
                    test: SprtConfig::new(0.0, 20.0, 0.05, 0.05).unwrap(),
                    max_games: 40,
                    round_games: 4,
                },
            },
        }
    }

    /// A played game as the referee would report it: seat 0 first, one turn time each.
    fn game(config: &PlanConfig, index: usize) -> GameResult {
        let planned = config.scheduled(index);
        let n = planned.seats.len();
        GameResult {
            players: n,
            seed: planned.seed,
            rotation: planned.rotation,
            seats: planned.seats.clone(),
            commands: seat_commands(&planned, &config.bots),
            final_scores: (0..n as u32).map(|s| 100 - s).collect(),
            ranks: (1..=n).collect(),
            failures: vec![None; n],
            failure_details: vec![None; n],
            turns: 10,
            max_turn_ms: vec![1.5; n],
            first_turn_ms: vec![Some(3.0); n],
            later_turn_ms: vec![vec![0.5, 1.5]; n],
            later_turn_cpu_ms: vec![vec![Some(0.4), None]; n],
            referee_error: None,
        }
    }

    /// The results files of `count` shards of `config` (for an SPRT: of rounds 1 and 2).
    fn shard_files(config: &PlanConfig, count: usize) -> Vec<serde_json::Value> {
        let (games, rounds) = match config.plan {
            Plan::Fixed { .. } => (config.len(), None),
            Plan::Sprt { .. } => (config.round_range(1, 2).end, Some((1, 2))),
        };
        (1..=count)
            .map(|index| {
                let shard = Shard { index, count };
                let games: Vec<GameResult> = (0..games)
                    .filter(|&i| shard.holds(config.unit(i)))
                    .map(|i| game(config, i))
                    .collect();
                serde_json::json!({
                    "run": RunInfo::new("arena", shard),
                    "rounds": rounds,
                    "config": config,
                    "workers": 1,
                    "seconds": 0.25,
                    "games": games,
                })
            })
            .collect()
    }

    fn merge_these(files: &[serde_json::Value], tag: &str) -> Result<Option<usize>, String> {
        merge_files(files, tag, |paths| {
            merge(&Args {
                files: paths,
                json: None,
                csv: None,
                quiet: true,
            })
        })
    }

    #[test]
    fn shards_of_a_fixed_plan_and_of_sprt_rounds_merge() {
        assert_eq!(
            merge_these(&shard_files(&plan(false), 3), "fixed"),
            Ok(None)
        );
        // Rounds 1 and 2 of 4 games, every seat 0 winning: 4 wins and 4 losses for A, no
        // verdict yet.
        assert_eq!(
            merge_these(&shard_files(&plan(true), 2), "sprt"),
            Ok(Some(3))
        );
    }

    proptest! {
        #![proptest_config(config("arena merge: damaged results files"))]
        #[test]
        fn damaged_results_files_are_refused_in_one_line_or_merged(
            sprt in any::<bool>(),
            file in 0usize..3,
            damages in prop::collection::vec((any::<u64>(), any::<u8>()), 1..4),
        ) {
            let checked = refused_cleanly(shard_files(&plan(sprt), 3), file, &damages, |f| merge_these(f, "fuzz"));
            prop_assert!(checked.is_ok(), "{checked:?}");
        }
    }
}
