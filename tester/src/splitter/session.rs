//! Running games against bot processes, and the report.

use crate::process::{BotProcess, ReadFailure, Stderr};
use bot::splitter::score::{breakdown, log_lines};
use bot::splitter::stats::{quantile, stats};
use bot::splitter::{game_seed, official, Board, Dice, DotNetRandom, Layout, PlaceError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Config {
    pub command: String,
    pub vs: Option<String>,
    pub games: u32,
    pub silent: bool,
    pub seed: Option<String>,
    pub layouts: Vec<u8>,
    pub jobs: usize,
    pub json: Option<std::path::PathBuf>,
    pub timeout: Duration,
    pub progress: bool,
}

/// One finished game.
#[derive(Debug, Clone, Serialize)]
pub struct GameRecord {
    pub command: String,
    pub layout: u8,
    /// Game index i: the dice come from `Random(hash(seed) + i)`.
    pub game: u32,
    pub int_seed: i32,
    pub dice: Vec<[u8; 2]>,
    /// Moves as the bot named them: [die, x, y].
    pub moves: Vec<[usize; 3]>,
    pub score: u32,
    pub move_ms: Vec<f64>,
    #[serde(skip)]
    pub log: Vec<String>,
}

#[derive(Debug, Default)]
pub struct Outcome {
    /// Main command's games, per layout, in game order.
    pub main: BTreeMap<u8, Vec<GameRecord>>,
    pub vs: BTreeMap<u8, Vec<GameRecord>>,
    pub seed: String,
}

struct Task {
    layout: u8,
    game: u32,
    vs: bool,
}

/// Play every game, print the official report on `out` and the extras on `err`.
pub fn run_session(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome, String> {
    let seed = match &config.seed {
        Some(s) => s.clone(),
        None => {
            let s = rand::random::<u32>().to_string();
            let _ = writeln!(err, "tester splitter: no --seed given, using --seed {s}");
            s
        }
    };
    let mut tasks = Vec::new();
    for &layout in &config.layouts {
        for game in 0..config.games {
            tasks.push(Task {
                layout,
                game,
                vs: false,
            });
            if config.vs.is_some() {
                tasks.push(Task {
                    layout,
                    game,
                    vs: true,
                });
            }
        }
    }
    let started = Instant::now();
    let bar = config.progress.then(|| {
        let bar = indicatif::ProgressBar::new(tasks.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<GameRecord, Failure>)>();
    let mut outcome = Outcome {
        seed: seed.clone(),
        ..Outcome::default()
    };
    let mut first_error: Option<String> = None;
    let mut totals: BTreeMap<u8, (u32, u64)> = BTreeMap::new();
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.min(tasks.len().max(1)) {
            let tx = tx.clone();
            let (tasks, next, abort, seed) = (&tasks, &next, &abort, &seed);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= tasks.len() || abort.load(Ordering::SeqCst) {
                    break;
                }
                let t = &tasks[i];
                let command = if t.vs {
                    config.vs.as_deref().unwrap_or_default()
                } else {
                    &config.command
                };
                let r = play_game(
                    command,
                    t.layout,
                    seed,
                    t.game,
                    config.timeout,
                    config.silent || t.vs,
                );
                if r.is_err() {
                    abort.store(true, Ordering::SeqCst);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Print finished games in task order, as soon as all earlier ones are in.
        let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
        let mut printed = 0usize;
        for (i, r) in rx {
            if let Some(b) = &bar {
                b.inc(1);
            }
            match r {
                Ok(rec) => {
                    pending.insert(i, rec);
                }
                Err((e, log)) => {
                    if first_error.is_none() {
                        if !config.silent {
                            for line in log {
                                let _ = writeln!(out, "{line}");
                            }
                        }
                        first_error = Some(e);
                    }
                    continue;
                }
            }
            while let Some(rec) = pending.remove(&printed) {
                printed += 1;
                let t = &tasks[printed - 1];
                if t.vs {
                    outcome.vs.entry(t.layout).or_default().push(rec);
                    continue;
                }
                if !config.silent {
                    for line in &rec.log {
                        let _ = writeln!(out, "{line}");
                    }
                }
                let entry = totals.entry(t.layout).or_default();
                entry.0 += 1;
                entry.1 += rec.score as u64;
                outcome.main.entry(t.layout).or_default().push(rec);
                // A layout is complete when its last main game is printed: its final four lines.
                if entry.0 == config.games {
                    if config.layouts.len() > 1 {
                        let _ = writeln!(out, "Layout {}", t.layout);
                    }
                    final_lines(out, entry.0, entry.1, started.elapsed());
                }
            }
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = first_error {
        // Like the official Ctrl-C handler: report what was played before stopping.
        for &layout in &config.layouts {
            let (games, points) = totals.get(&layout).copied().unwrap_or_default();
            if games < config.games {
                if config.layouts.len() > 1 {
                    let _ = writeln!(out, "Layout {layout}");
                }
                final_lines(out, games, points, started.elapsed());
            }
        }
        return Err(e);
    }
    if config.games == 0 {
        for &layout in &config.layouts {
            if config.layouts.len() > 1 {
                let _ = writeln!(out, "Layout {layout}");
            }
            final_lines(out, 0, 0, started.elapsed());
        }
    }
    extras(config, &outcome, err);
    if let Some(path) = &config.json {
        let all: Vec<&GameRecord> = outcome
            .main
            .values()
            .chain(outcome.vs.values())
            .flatten()
            .collect();
        let text = serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(outcome)
}

/// The official Tester's last four lines (decimal average and whole seconds, as it prints them).
pub(crate) fn final_lines(out: &mut dyn Write, games: u32, points: u64, elapsed: Duration) {
    let _ = writeln!(out, "Games played {games}");
    let _ = writeln!(out, "Points gotten {points}");
    let _ = writeln!(
        out,
        "Points per game (avg) {}",
        dotnet_double(points as f64 / games as f64)
    );
    let _ = writeln!(out, "Time taken {}S", elapsed.as_millis() / 1000);
}

/// A double as .NET prints it by default (shortest text that reads back as the same number,
/// invariant culture): `31.7`, `37.75`, `34` for 34.0, `NaN` for 0 / 0. Rust's `Display` for
/// f64 is the same shortest round-trip form for the numbers an average can take (.NET switches to
/// exponent notation only from 1e15 on).
pub(crate) fn dotnet_double(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else {
        x.to_string()
    }
}

/// Mean / sd / CI and move times per layout, and the paired comparison with `--vs`.
fn extras(config: &Config, outcome: &Outcome, err: &mut dyn Write) {
    let describe = |name: &str, games: &[GameRecord], err: &mut dyn Write| {
        let scores: Vec<f64> = games.iter().map(|g| g.score as f64).collect();
        let s = stats(&scores);
        let mut times: Vec<f64> = games
            .iter()
            .flat_map(|g| g.move_ms.iter().copied())
            .collect();
        times.sort_by(f64::total_cmp);
        let _ = writeln!(
            err,
            "# {name}: {} games, mean {:.3} sd {:.3} 95% CI [{:.3}, {:.3}]; move time median {:.2} ms, max {:.2} ms over {} moves",
            s.n,
            s.mean,
            s.sd,
            s.mean - s.ci95,
            s.mean + s.ci95,
            quantile(&times, 0.5),
            quantile(&times, 1.0),
            times.len()
        );
    };
    let _ = writeln!(err, "# seed {}", outcome.seed);
    for (layout, games) in &outcome.main {
        describe(&format!("layout {layout} {}", config.command), games, err);
        if let (Some(vs_cmd), Some(vs)) = (&config.vs, outcome.vs.get(layout)) {
            describe(&format!("layout {layout} {vs_cmd}"), vs, err);
            let diffs: Vec<f64> = games
                .iter()
                .zip(vs)
                .map(|(a, b)| a.score as f64 - b.score as f64)
                .collect();
            let d = stats(&diffs);
            let _ = writeln!(
                err,
                "# layout {layout} paired difference (command - vs) over {} seeds: {:+.3}, 95% CI [{:+.3}, {:+.3}]",
                d.n,
                d.mean,
                d.mean - d.ci95,
                d.mean + d.ci95
            );
        }
    }
}

/// What the official Tester makes of a bot line: `None` to skip it (not a number), or a move.
/// It replaces `,` by a space, splits on single spaces and parses the first three fields; fields
/// that are not integers make it crash, which we report as an error.
pub fn parse_answer(line: &str) -> Result<Option<(i64, i64, i64)>, String> {
    let replaced = line.replace(',', " ");
    let items: Vec<&str> = replaced.split(' ').collect();
    let int = |s: &str| {
        s.trim()
            .parse::<i64>()
            .ok()
            .filter(|v| i32::try_from(*v).is_ok())
    };
    let Some(choice) = int(items[0]) else {
        return Ok(None);
    };
    let field = |k: usize| {
        items.get(k).and_then(|s| int(s)).ok_or_else(|| {
            format!(
                "answer '{line}': field {} is not a number (the official Tester crashes here)",
                k + 1
            )
        })
    };
    Ok(Some((choice, field(1)?, field(2)?)))
}

/// A failed game: the error and the log lines gathered before it.
type Failure = (String, Vec<String>);

fn play_game(
    command: &str,
    layout_no: u8,
    seed: &str,
    game: u32,
    timeout: Duration,
    quiet: bool,
) -> Result<GameRecord, Failure> {
    let mut rec = GameRecord {
        command: command.to_string(),
        layout: layout_no,
        game,
        int_seed: game_seed(seed, game),
        dice: Vec::new(),
        moves: Vec::new(),
        score: 0,
        move_ms: Vec::new(),
        log: Vec::new(),
    };
    match play_into(&mut rec, timeout, quiet) {
        Ok(()) => Ok(rec),
        Err(e) => Err((e, rec.log)),
    }
}

fn play_into(rec: &mut GameRecord, timeout: Duration, quiet: bool) -> Result<(), String> {
    let (command, layout_no, game, int_seed) =
        (rec.command.clone(), rec.layout, rec.game, rec.int_seed);
    let layout: Layout = official(layout_no);
    let rounds = layout.default_rounds();
    let mut rng = DotNetRandom::new(int_seed);
    let mut board = Board::new(&layout, rounds);
    let mut dice: Dice = rng.roll();
    rec.dice.push([dice.0, dice.1]);
    let whose = |round: usize| {
        format!("layout {layout_no} game {game} (int seed {int_seed}) round {round}")
    };
    // As the official Tester: `/bin/bash -c`, the bot's stderr shown as it comes. A closed stdin
    // is not an error here: the missing answer is reported instead.
    let mut bot = BotProcess::spawn_with("/bin/bash", &command, Stderr::PassThrough)?;
    let _ = bot.send(&layout.header_text(rounds));
    let _ = bot.send(&format!("{} {}\n", dice.0, dice.1));
    let mut asked = Instant::now();
    loop {
        let round = rec.moves.len() + 1;
        let wait = timeout.saturating_sub(asked.elapsed());
        let line = match bot.read_line(wait) {
            Ok((_, line)) => line,
            Err(ReadFailure::Ended) => {
                return Err(format!(
                    "{}: the bot closed its output (exited?) before answering dice {} {}",
                    whose(round),
                    dice.0,
                    dice.1
                ));
            }
            Err(ReadFailure::Timeout) => {
                return Err(format!(
                    "{}: no answer within {} ms to dice {} {} (hung bot, or an answer the Tester ignores such as 'p N X,Y')",
                    whose(round),
                    timeout.as_millis(),
                    dice.0,
                    dice.1
                ));
            }
        };
        if !quiet {
            rec.log.push(line.clone());
        }
        if line.starts_with('#') {
            continue;
        }
        let Some((choice, x, y)) =
            parse_answer(&line).map_err(|e| format!("{}: {e}", whose(round)))?
        else {
            if !quiet {
                rec.log.push("Input not a number skipping!".to_string());
            }
            continue;
        };
        let Ok(die) = u8::try_from(choice) else {
            return Err(format!(
                "{}: {choice} was not rolled please try again!",
                whose(round)
            ));
        };
        let cell = board
            .check(&layout, dice, die, x, y)
            .map_err(|e: PlaceError| format!("{}: {e}", whose(round)))?;
        rec.move_ms.push(asked.elapsed().as_secs_f64() * 1000.0);
        rec.moves.push([die as usize, x as usize, y as usize]);
        board.apply(&layout, cell, die, dice.other(die));
        if board.rounds_left == 0 {
            break;
        }
        dice = rng.roll();
        rec.dice.push([dice.0, dice.1]);
        let _ = bot.send(&format!("{} {}\n", dice.0, dice.1));
        asked = Instant::now();
    }
    // Killed now, as the official Tester does after the last move.
    drop(bot);
    let b = breakdown(&layout, &board.values);
    rec.score = b.total();
    if !quiet {
        rec.log.extend(log_lines(&b));
        for row in board.rows(&layout) {
            rec.log.push(bot::splitter::layout::join_row(&row));
        }
        rec.log.push(String::new());
    }
    Ok(())
}
