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
    let inputs: Vec<&std::path::Path> = args.files.iter().map(PathBuf::as_path).collect();
    let outputs = [("--json", &args.json), ("--csv", &args.csv)];
    let outputs: Vec<(&str, Option<&std::path::Path>)> = (outputs.iter())
        .map(|(option, path)| (*option, path.as_deref().map(std::path::Path::new)))
        .collect();
    let _outputs = crate::process::outputs::claim(&outputs, &inputs)?;
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
                super::recheck::recheck(&config, game)
                    .map_err(|e| format!("{name}: {}: {e}", config.describe(index)))?;
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
    if let Some(e) = compose::unplayed_error(&composed) {
        return Err(e);
    }
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
        bot::cli::output::write(std::path::Path::new(path), report::csv(&summary))?;
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

    /// A game played by the library's rules as the referee reports it: the first legal move each
    /// turn, 1.5 ms per answer; in every third game the seat to move fails at turn 7.
    fn game(config: &PlanConfig, index: usize) -> GameResult {
        use crate::penguins::referee::RefereeConfig;
        use crate::penguins::referee::{conclude, fail_seat, new_replay, play_and_record};
        use bot::penguins::{generate_board, MoveList, Rules, State};
        let planned = config.scheduled(index);
        let commands = seat_commands(&planned, &config.bots);
        let rules = Rules::parse(&config.rules).unwrap();
        let referee = RefereeConfig {
            seed: planned.seed,
            rules,
            first_turn: std::time::Duration::from_millis(config.first_turn_ms),
            turn: std::time::Duration::from_millis(config.turn_ms),
            cpu_time: false,
        };
        let players = planned.seats.len();
        let mut state = State::new(&generate_board(planned.seed), players, rules).unwrap();
        let mut replay = new_replay(&referee, &commands, &state);
        let mut moves = MoveList::new();
        let mut too_few_left = false;
        while !state.is_over() {
            let failed = replay.failures.iter().any(Option::is_some);
            if index.is_multiple_of(3) && replay.turns.len() == 7 && !failed {
                if fail_seat(&mut replay, &mut state, "timeout", "no answer".into()) {
                    continue;
                }
                too_few_left = players > 2;
                break;
            }
            state.legal_moves(&mut moves);
            let mut record = play_and_record(&mut state, moves[0], replay.turns.len());
            record.time_ms = 1.5;
            replay.turns.push(record);
        }
        conclude(&mut replay, &state, too_few_left);
        GameResult::new(&planned, &commands, Ok(replay))
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

    #[test]
    fn a_shard_whose_scores_its_moves_do_not_give_is_refused() {
        for sprt in [false, true] {
            let config = plan(sprt);
            assert!(merge_these(&shard_files(&config, 2), "honest").is_ok());
            for (pointer, value) in [
                ("/games/0/final_scores/1", serde_json::json!(99999)),
                ("/games/1/ranks", serde_json::json!([2, 2])),
                ("/games/0/turns", serde_json::json!(2)),
            ] {
                let mut files = shard_files(&config, 2);
                *files[1].pointer_mut(pointer).unwrap() = value;
                let e = merge_these(&files, "forged").unwrap_err();
                assert!(
                    e.contains("plan game") && !e.contains('\n'),
                    "{pointer}: {e}"
                );
            }
        }
    }
}
