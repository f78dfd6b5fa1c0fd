//! Sharded Splitter sessions: the results file of `--shard K/N --json FILE`, and `tester splitter
//! merge`, which reports the merged games through the session's own collector and conclusion.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::session::{self, Config, GameRecord, Outcome, SessionError};
use crate::shard::{self, Part, RunInfo, Shard};

/// Where the "Time taken" lines come from: the session's clock, or the shards' recorded times.
pub enum Clock {
    Live(Instant),
    Recorded(BTreeMap<u8, Duration>),
}

impl Clock {
    pub fn elapsed(&self, layout: u8) -> Duration {
        match self {
            Clock::Live(started) => started.elapsed(),
            Clock::Recorded(times) => times.get(&layout).copied().unwrap_or_default(),
        }
    }
}

/// What decides the games (not how they are run: jobs, output, --silent, --keep-going).
#[derive(Clone, Serialize, Deserialize)]
pub struct Plan {
    pub command: String,
    pub vs: Option<String>,
    pub games: u32,
    pub seed: String,
    pub layouts: Vec<u8>,
    pub timeout_ms: u64,
}

/// A shard's results file.
#[derive(Serialize, Deserialize)]
pub struct SplitterFile {
    pub run: RunInfo,
    pub config: Plan,
    /// Per layout: the "Time taken" of its four lines, in milliseconds (a merge adds the shards').
    pub layout_ms: BTreeMap<u8, u64>,
    /// Every game of the command played, in plan order (a failed one with its error).
    pub main: Vec<GameRecord>,
    /// Every game of the --vs command played, in plan order.
    pub vs: Vec<GameRecord>,
}

impl SplitterFile {
    pub fn new(
        config: &Config,
        shard: Shard,
        outcome: &Outcome,
        times: &BTreeMap<u8, Duration>,
    ) -> SplitterFile {
        let mut main: Vec<GameRecord> = outcome.main.values().flatten().cloned().collect();
        let mut vs: Vec<GameRecord> = outcome.vs.values().flatten().cloned().collect();
        // A failed game is the command's unless the command already has that game (when the two
        // commands are the same text, the two games are the same game anyway).
        for rec in &outcome.failed {
            let taken = main
                .iter()
                .any(|m| (m.layout, m.game) == (rec.layout, rec.game));
            match rec.command == config.command && !taken {
                true => main.push(rec.clone()),
                false => vs.push(rec.clone()),
            }
        }
        let position = |layout: u8| config.layouts.iter().position(|&l| l == layout);
        main.sort_by_key(|g| (position(g.layout), g.game));
        vs.sort_by_key(|g| (position(g.layout), g.game));
        SplitterFile {
            run: RunInfo::new("splitter", shard),
            config: Plan {
                command: config.command.clone(),
                vs: config.vs.clone(),
                games: config.games,
                seed: config.seed.clone().unwrap_or_default(),
                layouts: config.layouts.clone(),
                timeout_ms: config.timeout.as_millis() as u64,
            },
            layout_ms: times
                .iter()
                .map(|(&layout, t)| (layout, t.as_millis() as u64))
                .collect(),
            main,
            vs,
        }
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        shard::write(path, self)
    }
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Results files (`tester splitter --shard K/N --json FILE ...`), in any order: every shard
    /// of the plan.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged games as a results file here (it merges again, as shard 1/1).
    #[arg(long, value_parser = bot::cli::args::output_file)]
    json: Option<PathBuf>,
}

pub fn run_merge(args: MergeArgs) -> ExitCode {
    let inputs: Vec<&std::path::Path> = args.files.iter().map(PathBuf::as_path).collect();
    let _json = match crate::process::outputs::claim(&[("--json", args.json.as_deref())], &inputs) {
        Ok(c) => c,
        Err(e) => return crate::fail(format!("tester splitter merge: {e}")),
    };
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    let result = merge(args, &mut stdout, &mut stderr);
    let _ = std::io::Write::flush(&mut stdout);
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(SessionError::OutputClosed) => bot::cli::pipe::die_of_broken_pipe(),
        Err(e) => crate::fail(format!("tester splitter merge: {e}")),
    }
}

/// Check the files, then report their games in plan order as the session reports them.
pub fn merge(
    args: MergeArgs,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> Result<Outcome, SessionError> {
    let failed = SessionError::Failed;
    let files = shard::load::<SplitterFile>(&args.files, "splitter").map_err(failed)?;
    let plan = files[0].body.config.clone();
    let config =
        session_config(&plan, args.json).map_err(|e| failed(format!("{}: {e}", files[0].name)))?;
    let per_seed = 1 + usize::from(config.vs.is_some());
    let task_count = config.layouts.len() * config.games as usize * per_seed;
    let describe = |i: usize| {
        let seed = i / per_seed;
        let layout = config.layouts[seed / config.games as usize];
        let which = if i % per_seed == 1 { " (--vs)" } else { "" };
        format!(
            "layout {layout} game {}{which}",
            seed % config.games as usize
        )
    };
    let mut parts = Vec::new();
    for file in &files {
        let lists = [(&file.body.main, false), (&file.body.vs, true)];
        let mut games = Vec::new();
        for (list, vs) in lists {
            for rec in list {
                let index = task_index(&config, rec, vs)
                    .and_then(|index| replay_check(rec).map(|_| index))
                    .map_err(|e| failed(format!("{}: {e}", file.name)))?;
                games.push(index);
            }
        }
        parts.push(Part {
            name: &file.name,
            shard: file.run.shard,
            scope: 0..task_count,
            games,
        });
    }
    let order =
        shard::assemble(&parts, 0..task_count, |i| i / per_seed, describe).map_err(failed)?;
    let records: Vec<(usize, GameRecord)> = order
        .iter()
        .enumerate()
        .map(|(i, &(p, j))| {
            let body = &files[p].body;
            let main = body.main.len();
            let rec = match j < main {
                true => &body.main[j],
                false => &body.vs[j - main],
            };
            (i, rec.clone())
        })
        .collect();
    let mut times = BTreeMap::new();
    for file in &files {
        for (&layout, &ms) in &file.body.layout_ms {
            *times.entry(layout).or_insert(Duration::ZERO) += Duration::from_millis(ms);
        }
    }
    session::report_played(&config, records, Clock::Recorded(times), out, err)
}

/// The session that plays `plan` (checked: it comes from a file).
fn session_config(plan: &Plan, json: Option<PathBuf>) -> Result<Config, String> {
    let layouts_ok = matches!(plan.layouts.as_slice(), [1] | [2] | [1, 2]);
    if !layouts_ok || u64::from(plan.games) > super::MAX_GAMES || plan.command.trim().is_empty() {
        return Err(format!(
            "a plan no `tester splitter` runs (layouts {:?}, {} games)",
            plan.layouts, plan.games
        ));
    }
    let timeout = bot::cli::args::millis(&plan.timeout_ms.to_string())
        .map_err(|e| format!("timeout_ms {}: {e}", plan.timeout_ms))?;
    Ok(Config {
        command: plan.command.clone(),
        vs: plan.vs.clone(),
        games: plan.games,
        silent: true,
        seed: Some(plan.seed.clone()),
        layouts: plan.layouts.clone(),
        jobs: 1,
        json,
        timeout: Duration::from_millis(timeout),
        progress: false,
        keep_going: true,
        shard: Some(Shard::WHOLE),
    })
}

/// Where a game of a file sits in the plan's task list (checked against the plan).
fn task_index(config: &Config, rec: &GameRecord, vs: bool) -> Result<usize, String> {
    let which = if vs { "--vs" } else { "--command" };
    let position = config.layouts.iter().position(|&l| l == rec.layout);
    let (Some(position), true) = (position, rec.game < config.games) else {
        return Err(format!(
            "layout {} game {} of the {which} command is not in the plan",
            rec.layout, rec.game
        ));
    };
    let command = if vs {
        config.vs.as_deref()
    } else {
        Some(config.command.as_str())
    };
    let seed = config.seed.as_deref().unwrap_or_default();
    if command != Some(rec.command.as_str())
        || rec.int_seed != bot::splitter::game_seed(seed, rec.game)
    {
        return Err(format!(
            "layout {} game {}: not the plan's {which} command or seed",
            rec.layout, rec.game
        ));
    }
    let per_seed = 1 + usize::from(config.vs.is_some());
    let seed_index = position * config.games as usize + rec.game as usize;
    Ok(seed_index * per_seed + usize::from(vs))
}

/// A game of a results file checked against the rules: its dice are its seed's, its moves are
/// legal in order, a completed game has every round's move and the score its final board scores,
/// and a failed one scores 0 (it is in no total). A file edited by hand fails here, in one line.
fn replay_check(rec: &GameRecord) -> Result<(), String> {
    let game = format!("layout {} game {}", rec.layout, rec.game);
    let layout = bot::splitter::official(rec.layout);
    let rounds = layout.default_rounds();
    let answered = rec.moves.len();
    let rolled = rec.dice.len();
    let complete = rec.error.is_none();
    // A completed game has a roll per move; a failed one may hold the roll left unanswered.
    let shape_ok = answered <= rounds
        && match complete {
            true => rolled == rounds && answered == rounds,
            false => rolled == answered || rolled == answered + 1,
        };
    if !shape_ok {
        return Err(format!(
            "{game}: {rolled} rolls and {answered} moves, not a {}game of {rounds} rounds",
            if complete { "completed " } else { "" }
        ));
    }
    let mut rng = bot::splitter::DotNetRandom::new(rec.int_seed);
    let mut board = bot::splitter::Board::new(&layout, rounds);
    for (round, dice) in rec.dice.iter().enumerate() {
        let expected = rng.roll();
        if [expected.0, expected.1] != *dice {
            return Err(format!(
                "{game} round {}: dice {} {} are not its seed's ({} {})",
                round + 1,
                dice[0],
                dice[1],
                expected.0,
                expected.1
            ));
        }
        let Some(&[die, x, y]) = rec.moves.get(round) else {
            break;
        };
        let illegal =
            |why: String| format!("{game} round {}: move {die} {x} {y}: {why}", round + 1);
        let die = u8::try_from(die).map_err(|_| illegal(format!("{die} was not rolled")))?;
        let mv = bot::splitter::Move { die, x, y };
        board
            .place(&layout, expected, mv)
            .map_err(|e| illegal(e.to_string()))?;
    }
    let scored = match complete {
        true => bot::splitter::score(&layout, &board.values),
        false => 0,
    };
    if rec.score != scored {
        return Err(format!(
            "{game}: recorded score {} but its moves score {scored}",
            rec.score
        ));
    }
    Ok(())
}

/// `--shard` needs a seed given (every shard must draw the same dice) and a file to write.
pub fn check_args(config: &Config) -> Result<(), String> {
    if config.shard.is_some() && config.seed.is_none() {
        return Err("--shard needs --seed S: every shard must roll the same dice".into());
    }
    if config.shard.is_some() && config.json.is_none() {
        return Err("--shard writes its results to --json FILE (give one)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::hostile::{merge_files, refused_cleanly};
    use test_support::fuzz::config;
    use test_support::proptest::prelude::*;

    fn plan() -> Plan {
        Plan {
            command: "./main".into(),
            vs: Some("./other".into()),
            games: 4,
            seed: "s".into(),
            layouts: vec![1, 2],
            timeout_ms: 1000,
        }
    }

    /// A real game of `plan()`'s dice, each roll answered by the first legal move the rules
    /// list (`last`: the last one), with the score its final board scores.
    fn record(command: &str, layout_no: u8, game: u32, last: bool) -> GameRecord {
        let layout = bot::splitter::official(layout_no);
        let mut board = bot::splitter::Board::new(&layout, 22);
        let (mut dice, mut moves) = (Vec::new(), Vec::new());
        for d in bot::splitter::game_dice("s", game, 22) {
            let legal = board.legal_moves(&layout, d);
            let mv = if last {
                legal[legal.len() - 1]
            } else {
                legal[0]
            };
            board.place(&layout, d, mv).unwrap();
            dice.push([d.0, d.1]);
            moves.push([mv.die as usize, mv.x, mv.y]);
        }
        GameRecord {
            command: command.into(),
            layout: layout_no,
            game,
            int_seed: bot::splitter::game_seed("s", game),
            dice,
            moves,
            score: bot::splitter::score(&layout, &board.values),
            move_ms: vec![0.5; 22],
            game_ms: 11.0,
            error: None,
            log: Vec::new(),
            trace: None,
        }
    }

    /// The results files of `count` shards of `plan()` (the --vs bot plays the last legal move).
    fn shard_files(count: usize) -> Vec<serde_json::Value> {
        let plan = plan();
        (1..=count)
            .map(|index| {
                let shard = Shard { index, count };
                let mut file = serde_json::json!({
                    "run": RunInfo::new("splitter", shard),
                    "config": plan,
                    "layout_ms": {"1": 1500, "2": 900},
                    "main": [],
                    "vs": [],
                });
                for (position, &layout) in plan.layouts.iter().enumerate() {
                    for game in (0..plan.games).filter(|&g| shard.holds(position * 4 + g as usize))
                    {
                        let main = record("./main", layout, game, false);
                        let vs = record("./other", layout, game, true);
                        file["main"]
                            .as_array_mut()
                            .unwrap()
                            .push(serde_json::json!(main));
                        file["vs"]
                            .as_array_mut()
                            .unwrap()
                            .push(serde_json::json!(vs));
                    }
                }
                file
            })
            .collect()
    }

    fn merge_these(files: &[serde_json::Value], tag: &str) -> Result<(String, String), String> {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = merge_files(files, tag, |paths| {
            let args = MergeArgs {
                files: paths,
                json: None,
            };
            merge(args, &mut out, &mut err)
        });
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        result
            .map(|_| (text(out), text(err)))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn shards_merge_into_the_session_report() {
        let (out, err) = merge_these(&shard_files(3), "good").unwrap();
        // Per layout: the 4 games' points; the times are the shards' sums (1.5 s and 0.9 s per
        // shard, 3 shards), in whole seconds. (The average's form is the report's own.)
        let points = |layout: u8, last: bool| -> Vec<i64> {
            let rec = |g| record("", layout, g, last).score as i64;
            (0..4).map(rec).collect()
        };
        let lines: Vec<&str> = out
            .lines()
            .filter(|l| !l.starts_with("Points per game"))
            .collect();
        let gotten = |layout| {
            format!(
                "Points gotten {}",
                points(layout, false).iter().sum::<i64>()
            )
        };
        let (one, two) = (gotten(1), gotten(2));
        assert_eq!(
            lines,
            [
                "Layout 1",
                "Games played 4",
                one.as_str(),
                "Time taken 4S",
                "Layout 2",
                "Games played 4",
                two.as_str(),
                "Time taken 2S"
            ]
        );
        let (main, vs) = (points(1, false), points(1, true));
        let diff = main.iter().zip(&vs).map(|(a, b)| a - b).sum::<i64>() as f64 / 4.0;
        assert!(
            err.contains(&format!(
                "# layout 1 paired difference (command - vs) over 4 seeds: {diff:+.3}"
            )),
            "{err}"
        );
    }

    /// A game edited by hand (its score, a move, its dice, a move dropped) is refused in one line
    /// naming the file and the game; the files as written merge.
    #[test]
    fn edited_games_are_refused_against_the_rules() {
        let good = shard_files(2);
        assert!(merge_these(&good, "edit-none").is_ok());
        type Edit = fn(&mut serde_json::Value);
        let edits: [(Edit, &str); 5] = [
            (
                |g| g["score"] = 999.into(),
                "layout 1 game 0: recorded score 999 but its moves score",
            ),
            (
                |g| g["moves"][1] = g["moves"][0].clone(),
                "layout 1 game 0 round 2: move",
            ),
            (
                |g| g["dice"][3] = serde_json::json!([6, 6]),
                "layout 1 game 0 round 4: dice 6 6 are not its seed's",
            ),
            (
                |g| {
                    g["moves"].as_array_mut().unwrap().pop();
                },
                "layout 1 game 0: 22 rolls and 21 moves, not a completed game of 22 rounds",
            ),
            (
                |g| g["moves"][0][0] = 262.into(),
                "layout 1 game 0 round 1: move 262",
            ),
        ];
        for (edit, want) in edits {
            let mut files = good.clone();
            // Shard 1 holds layout 1 game 0; its 6 and 6 come up on no roll of it.
            let game = &mut files[0]["main"][0];
            assert_eq!(
                (game["layout"].as_u64(), game["game"].as_u64()),
                (Some(1), Some(0))
            );
            assert!(!game["dice"].to_string().contains("[6,6]"));
            edit(game);
            let e = merge_these(&files, "edit").unwrap_err();
            assert!(e.contains(want), "{want}: {e}");
            assert!(e.contains("hostile-") && !e.contains('\n'), "{e}");
        }
    }

    proptest! {
        #![proptest_config(config("splitter merge: damaged results files"))]
        #[test]
        fn damaged_results_files_are_refused_in_one_line_or_merged(
            file in 0usize..3,
            damages in prop::collection::vec((any::<u64>(), any::<u8>()), 1..4),
        ) {
            let checked = refused_cleanly(shard_files(3), file, &damages, |f| merge_these(f, "fuzz"));
            prop_assert!(checked.is_ok(), "{checked:?}");
        }
    }
}
