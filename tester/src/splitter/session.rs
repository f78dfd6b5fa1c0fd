//! Running games against bot processes, and the report.

use super::shard::{Clock, SplitterFile};
use crate::process::interrupt::interrupted;
use crate::process::{BotProcess, Line, ReadFailure, Stderr};
use crate::shard::Shard;
use bot::cli::pipe::is_broken_pipe;
use bot::source_error::quote;
use bot::splitter::score::{breakdown, log_lines};
use bot::splitter::stats::{quantile, stats};
use bot::splitter::{game_seed, official, Board, Dice, DotNetRandom, Layout, PlaceError};
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
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
    /// Play every game even after one failed (the official Tester stops at the first).
    pub keep_going: bool,
    /// Play only this slice of the plan, and write `json` as a results file for `merge`.
    pub shard: Option<Shard>,
}

/// Bot lines kept per move for the echoed log (with the tester's own lines); the rest of a
/// flooding move is counted and dropped, so memory stays bounded.
pub const MAX_LOGGED_LINES_PER_MOVE: usize = 200;

/// One finished game.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// Each move's time: from sending its dice line to reading the answer.
    pub move_ms: Vec<f64>,
    /// The game's wall time: from starting the bot to its last answer (so with its start-up).
    #[serde(default)]
    pub game_ms: f64,
    /// Why the game stopped before its last move: then `score` is 0 and the game is in no total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip)]
    pub log: Vec<String>,
    /// Why the bot chose each move, from its trace file (a command holding `{trace}`), checked
    /// against the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<super::trace::TraceMove>>,
}

#[derive(Debug, Default)]
pub struct Outcome {
    /// Main command's completed games, per layout, in game order.
    pub main: BTreeMap<u8, Vec<GameRecord>>,
    pub vs: BTreeMap<u8, Vec<GameRecord>>,
    /// Games (of either command) that failed, in the order they were reported.
    pub failed: Vec<GameRecord>,
    pub seed: String,
}

/// Why a session did not end well.
#[derive(Debug)]
pub enum SessionError {
    /// Games failed (each reported), or a file could not be written.
    Failed(String),
    /// The report's reader went away (`| head`): games were stopped, nothing more to say.
    OutputClosed,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Failed(e) => write!(f, "{e}"),
            SessionError::OutputClosed => write!(f, "the output was closed"),
        }
    }
}

/// The official report on `out` and the extras on `err`, drawn around the progress bar (itself
/// on stderr); remembers a failed write instead of ignoring it.
struct Report<'a> {
    out: &'a mut dyn Write,
    bar: ProgressBar,
    write_error: Option<std::io::Error>,
}

impl Report<'_> {
    fn out(&mut self, text: &str) {
        if self.write_error.is_some() {
            return;
        }
        let out = &mut *self.out;
        let written = self.bar.suspend(|| writeln!(out, "{text}"));
        if let Err(e) = written {
            self.write_error = Some(e);
        }
    }

    /// The official Tester's last four lines, after `Layout N` when there are several layouts.
    fn final_lines(&mut self, layout: Option<u8>, games: u32, points: u64, elapsed: Duration) {
        if let Some(layout) = layout {
            self.out(&format!("Layout {layout}"));
        }
        for line in final_lines(games, points, elapsed) {
            self.out(&line);
        }
    }
}

pub(super) struct Task {
    pub layout: u8,
    pub game: u32,
    pub vs: bool,
}

/// The plan: per layout, per game, the command then the `--vs` command (the seeds are the unit
/// shards are cut by, so both games of a pair are played together); only the shard's slice.
pub(super) fn tasks(config: &Config) -> Vec<Task> {
    let shard = config.shard.unwrap_or(Shard::WHOLE);
    let mut tasks = Vec::new();
    for (position, &layout) in config.layouts.iter().enumerate() {
        for game in 0..config.games {
            if !shard.holds(position * config.games as usize + game as usize) {
                continue;
            }
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
    tasks
}

/// Play every game, print the official report on `out` and the extras on `err`. A failed game
/// stops the session (as the official Tester stops), unless `keep_going`; either way every game
/// played is reported and written to the JSON file, the failed ones with their error.
pub fn run_session(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome, SessionError> {
    let seed = match &config.seed {
        Some(s) => s.clone(),
        None => {
            let s = rand::random::<u32>().to_string();
            let _ = writeln!(err, "tester splitter: no --seed given, using --seed {s}");
            s
        }
    };
    let tasks = tasks(config);
    let started = Instant::now();
    let mut report = Report {
        out,
        bar: crate::progress::bar(tasks.len() as u64, "games", config.progress),
        write_error: None,
    };
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
    let mut outcome = Outcome {
        seed: seed.clone(),
        ..Outcome::default()
    };
    let mut collect = Collector::new(config, &tasks, Clock::Live(started));
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.min(tasks.len().max(1)) {
            let tx = tx.clone();
            let (tasks, next, abort, seed) = (&tasks, &next, &abort, &seed);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= tasks.len() || abort.load(Ordering::SeqCst) || interrupted() {
                    break;
                }
                let t = &tasks[i];
                let command = if t.vs {
                    config.vs.as_deref().unwrap_or_default()
                } else {
                    &config.command
                };
                let quiet = config.silent || t.vs;
                let rec = play_game(command, t.layout, seed, t.game, config.timeout, quiet);
                if rec.error.is_some() && !config.keep_going {
                    abort.store(true, Ordering::SeqCst);
                }
                if tx.send((i, rec)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Report finished games in task order, as soon as all earlier ones are in.
        let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
        let mut reported = 0usize;
        for (i, rec) in rx {
            report.bar.inc(1);
            pending.insert(i, rec);
            while let Some(rec) = pending.remove(&reported) {
                collect.take(reported, rec, &mut report, &mut outcome);
                reported += 1;
            }
            if report.write_error.is_some() {
                abort.store(true, Ordering::SeqCst);
            }
        }
        // After a stop, games that ran past a game never started are kept too.
        for (i, rec) in pending {
            collect.take(i, rec, &mut report, &mut outcome);
        }
    });
    report.bar.finish_and_clear();
    conclude(config, &tasks, collect, report, outcome, err)
}

/// Report games already played (a merge of shards): the records in plan order, through the same
/// collector and conclusion as a live session; the "Time taken" lines from `clock`.
pub(super) fn report_played(
    config: &Config,
    records: Vec<(usize, GameRecord)>,
    clock: Clock,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome, SessionError> {
    let tasks = tasks(config);
    let mut report = Report {
        out,
        bar: ProgressBar::hidden(),
        write_error: None,
    };
    let mut outcome = Outcome {
        seed: config.seed.clone().unwrap_or_default(),
        ..Outcome::default()
    };
    let mut collect = Collector::new(config, &tasks, clock);
    for (i, rec) in records {
        collect.take(i, rec, &mut report, &mut outcome);
    }
    conclude(config, &tasks, collect, report, outcome, err)
}

/// The end of a session: the four lines of layouts cut short, the JSON, the extras and the
/// failures.
fn conclude(
    config: &Config,
    tasks: &[Task],
    mut collect: Collector,
    mut report: Report,
    outcome: Outcome,
    err: &mut dyn Write,
) -> Result<Outcome, SessionError> {
    // Layouts cut short (a stop, or failed games) still get their four lines, over the games
    // completed, like the official Ctrl-C handler.
    let several = config.layouts.len() > 1;
    for &layout in &config.layouts {
        let (games, points) = collect.totals.get(&layout).copied().unwrap_or_default();
        let expected = collect.expected(layout);
        if games < expected || expected == 0 {
            let elapsed = collect.elapsed(layout);
            report.final_lines(several.then_some(layout), games, points, elapsed);
        }
    }
    // Every game played is saved, whatever else went wrong.
    if let (Some(path), Some(shard)) = (&config.json, config.shard) {
        SplitterFile::new(config, shard, &outcome, &collect.times)
            .write(path)
            .map_err(SessionError::Failed)?;
    } else if let Some(path) = &config.json {
        let mut all: Vec<&GameRecord> = outcome
            .main
            .values()
            .chain(outcome.vs.values())
            .flatten()
            .chain(&outcome.failed)
            .collect();
        all.sort_by_key(|g| (g.layout, g.game, g.command != config.command));
        let text =
            serde_json::to_string_pretty(&all).map_err(|e| SessionError::Failed(e.to_string()))?;
        bot::cli::output::write(path, text).map_err(SessionError::Failed)?;
    }
    if let Some(e) = &report.write_error {
        return Err(match is_broken_pipe(e) {
            true => SessionError::OutputClosed,
            false => SessionError::Failed(format!("cannot write the report: {e}")),
        });
    }
    extras(config, &outcome, err);
    let stopped = if tasks.len() > outcome.games() {
        let left = tasks.len() - outcome.games();
        format!(
            "; {left} game{} not played (--keep-going plays them)",
            if left == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    match outcome.failed.as_slice() {
        [] => Ok(outcome),
        [one] => Err(SessionError::Failed(format!(
            "{}{stopped}",
            one.error.as_deref().unwrap_or_default()
        ))),
        many => {
            for rec in many {
                let e = rec.error.as_deref().unwrap_or_default();
                let _ = writeln!(err, "tester splitter: {e}");
            }
            Err(SessionError::Failed(format!(
                "{} of {} games failed (listed above){stopped}",
                many.len(),
                outcome.games()
            )))
        }
    }
}

impl Outcome {
    /// Games played, completed or failed.
    pub fn games(&self) -> usize {
        let done: usize = self
            .main
            .values()
            .chain(self.vs.values())
            .map(Vec::len)
            .sum();
        done + self.failed.len()
    }
}

/// Takes finished games in order: echoes their log, keeps the totals, prints each layout's four
/// lines when its last game is in.
struct Collector<'a> {
    config: &'a Config,
    tasks: &'a [Task],
    clock: Clock,
    /// Completed main games and their points, per layout.
    totals: BTreeMap<u8, (u32, u64)>,
    /// Main games per layout in the plan (in the shard's slice).
    expected: BTreeMap<u8, u32>,
    /// The "Time taken" of each layout's four lines printed so far.
    times: BTreeMap<u8, Duration>,
}

impl<'a> Collector<'a> {
    fn new(config: &'a Config, tasks: &'a [Task], clock: Clock) -> Collector<'a> {
        let mut expected = BTreeMap::new();
        for t in tasks.iter().filter(|t| !t.vs) {
            *expected.entry(t.layout).or_default() += 1;
        }
        Collector {
            config,
            tasks,
            clock,
            totals: BTreeMap::new(),
            expected,
            times: BTreeMap::new(),
        }
    }

    fn expected(&self, layout: u8) -> u32 {
        self.expected.get(&layout).copied().unwrap_or(0)
    }

    /// The time taken so far for `layout`'s four lines, remembered for the results file.
    fn elapsed(&mut self, layout: u8) -> Duration {
        let elapsed = self.clock.elapsed(layout);
        self.times.insert(layout, elapsed);
        elapsed
    }

    fn take(&mut self, i: usize, rec: GameRecord, report: &mut Report, outcome: &mut Outcome) {
        let t = &self.tasks[i];
        if !t.vs && !self.config.silent {
            // A failed game's lines too: what the official Tester shows before it stops.
            for line in &rec.log {
                report.out(line);
            }
        }
        if rec.error.is_some() {
            outcome.failed.push(rec);
            return;
        }
        if t.vs {
            outcome.vs.entry(t.layout).or_default().push(rec);
            return;
        }
        let entry = self.totals.entry(t.layout).or_default();
        entry.0 += 1;
        entry.1 += rec.score as u64;
        let (games, points) = *entry;
        outcome.main.entry(t.layout).or_default().push(rec);
        // A layout is complete when its last main game is in: its final four lines.
        if games == self.expected(t.layout) {
            let several = self.config.layouts.len() > 1;
            let elapsed = self.elapsed(t.layout);
            report.final_lines(several.then_some(t.layout), games, points, elapsed);
        }
    }
}

/// The official Tester's last four lines (decimal average and whole seconds, as it prints them).
pub(crate) fn final_lines(games: u32, points: u64, elapsed: Duration) -> [String; 4] {
    [
        format!("Games played {games}"),
        format!("Points gotten {points}"),
        format!(
            "Points per game (avg) {}",
            dotnet_double(points as f64 / games as f64)
        ),
        format!("Time taken {}S", elapsed.as_millis() / 1000),
    ]
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
        let mut game_times: Vec<f64> = games.iter().map(|g| g.game_ms).collect();
        game_times.sort_by(f64::total_cmp);
        let _ = writeln!(
            err,
            "# {name}: {} games, mean {:.3} sd {:.3} {}; move time median {:.2} ms, max {:.2} ms over {} moves; game time median {:.0} ms, max {:.0} ms",
            s.n,
            s.mean,
            s.sd,
            s.ci_text(3),
            quantile(&times, 0.5),
            quantile(&times, 1.0),
            times.len(),
            quantile(&game_times, 0.5),
            quantile(&game_times, 1.0)
        );
    };
    // Game i's dice are Random(hash(seed) + i): another run shares dice where its range meets this.
    let _ = writeln!(
        err,
        "# seed {}: dice of int seeds {}..={} (hash(seed) + game)",
        outcome.seed,
        game_seed(&outcome.seed, 0),
        game_seed(&outcome.seed, config.games.saturating_sub(1))
    );
    for (layout, games) in &outcome.main {
        describe(&format!("layout {layout} {}", config.command), games, err);
        if let (Some(vs_cmd), Some(vs)) = (&config.vs, outcome.vs.get(layout)) {
            describe(&format!("layout {layout} {vs_cmd}"), vs, err);
            // Paired by game (a game either command failed has no pair).
            let diffs: Vec<f64> = games
                .iter()
                .filter_map(|a| {
                    let b = vs.iter().find(|b| b.game == a.game)?;
                    Some(a.score as f64 - b.score as f64)
                })
                .collect();
            let d = stats(&diffs);
            let ci = match d.interval() {
                Some((low, high)) => format!("95% CI [{low:+.3}, {high:+.3}]"),
                None => "95% CI: n too small".into(),
            };
            let _ = writeln!(
                err,
                "# layout {layout} paired difference (command - vs) over {} seeds: {:+.3}, {ci}",
                d.n, d.mean
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
                "field {} is not a number (the official Tester crashes here)",
                k + 1
            )
        })
    };
    Ok(Some((choice, field(1)?, field(2)?)))
}

/// What one bot line is, for the move asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A `#` line: ignored.
    Comment,
    /// The first field is not a number: skipped ("Input not a number skipping!").
    NotANumber,
    /// A legal move: the die named, where, and the board cell.
    Move {
        die: u8,
        x: i64,
        y: i64,
        cell: usize,
    },
}

/// Judge one bot line (its bytes; not UTF-8 never makes a number) as the official Tester does;
/// `Err` is its crash (a field that is not a number, a die not rolled, an illegal cell), as one
/// line quoting the answer.
pub fn judge(line: &[u8], layout: &Layout, board: &Board, dice: Dice) -> Result<Answer, String> {
    let text = String::from_utf8_lossy(line);
    if text.starts_with('#') {
        return Ok(Answer::Comment);
    }
    let parsed = parse_answer(&text).map_err(|e| format!("answer {}: {e}", quote(line)))?;
    let Some((choice, x, y)) = parsed else {
        return Ok(Answer::NotANumber);
    };
    let Ok(die) = u8::try_from(choice) else {
        return Err(format!("{choice} was not rolled please try again!"));
    };
    let cell = board
        .check(layout, dice, die, x, y)
        .map_err(|e: PlaceError| e.to_string())?;
    Ok(Answer::Move { die, x, y, cell })
}

/// The echoed log of one game: every line of a move up to `MAX_LOGGED_LINES_PER_MOVE`, then a
/// count of the lines left out.
#[derive(Default)]
struct GameLog {
    quiet: bool,
    lines: Vec<String>,
    this_move: usize,
    dropped: u64,
}

impl GameLog {
    fn push(&mut self, line: String) {
        if self.quiet {
            return;
        }
        if self.this_move < MAX_LOGGED_LINES_PER_MOVE {
            self.lines.push(line);
            self.this_move += 1;
        } else {
            self.dropped += 1;
        }
    }

    fn end_move(&mut self) {
        if self.dropped > 0 {
            self.lines.push(format!(
                "[tester: {} more lines of this move not shown]",
                self.dropped
            ));
        }
        self.this_move = 0;
        self.dropped = 0;
    }
}

/// Play one game; a failure is recorded in the game's `error`, with what was played before it.
fn play_game(
    command: &str,
    layout_no: u8,
    seed: &str,
    game: u32,
    timeout: Duration,
    quiet: bool,
) -> GameRecord {
    let mut rec = GameRecord {
        command: command.to_string(),
        layout: layout_no,
        game,
        int_seed: game_seed(seed, game),
        dice: Vec::new(),
        moves: Vec::new(),
        score: 0,
        move_ms: Vec::new(),
        game_ms: 0.0,
        error: None,
        log: Vec::new(),
        trace: None,
    };
    let mut log = GameLog {
        quiet,
        ..GameLog::default()
    };
    let trace = command
        .contains(super::trace::PLACEHOLDER)
        .then(super::trace::fresh_path);
    if let Err(e) = play_into(&mut rec, timeout, &mut log, trace.as_deref()) {
        log.end_move();
        rec.error = Some(e);
    }
    if let Some(path) = &trace {
        let _ = std::fs::remove_file(path);
    }
    rec.log = log.lines;
    rec
}

/// Lines a bot printed during one move without making one.
#[derive(Default)]
struct Skipped {
    lines: u64,
    first: Option<String>,
}

impl Skipped {
    fn add(&mut self, line: &Line) {
        self.lines += 1;
        if self.first.is_none() {
            self.first = Some(line.quoted());
        }
    }

    /// For a timeout message: what the bot printed instead of a move.
    fn describe(&self) -> Option<String> {
        let first = self.first.as_ref()?;
        Some(format!(
            "it printed {} lines, none a move (the first: {first}; the Tester skips '#' lines and lines whose first field is not a number, such as 'p N X,Y')",
            self.lines
        ))
    }
}

/// Play the game of `rec`; with `trace`, the command's `{trace}` names that file, and the trace
/// the bot wrote there is checked and kept.
fn play_into(
    rec: &mut GameRecord,
    timeout: Duration,
    log: &mut GameLog,
    trace: Option<&std::path::Path>,
) -> Result<(), String> {
    let (command, layout_no, game, int_seed) =
        (rec.command.clone(), rec.layout, rec.game, rec.int_seed);
    let command = match trace {
        Some(path) => super::trace::substitute(&command, path),
        None => command,
    };
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
    let started = Instant::now();
    let mut bot = BotProcess::spawn_with("/bin/bash", &command, Stderr::PassThrough)?;
    let _ = bot.send(&layout.header_text(rounds));
    let _ = bot.send(&format!("{} {}\n", dice.0, dice.1));
    let mut asked = Instant::now();
    let mut skipped = Skipped::default();
    loop {
        let round = rec.moves.len() + 1;
        // Whatever the bot prints, nothing read after this counts.
        let line = match bot.read_line(asked + timeout) {
            Ok(line) => line,
            Err(ReadFailure::Ended { partial }) => {
                return Err(format!(
                    "{}: the bot's output closed before it answered dice {} {}: {}",
                    whose(round),
                    dice.0,
                    dice.1,
                    bot.end_cause(partial.as_ref())
                ));
            }
            Err(ReadFailure::Timeout) => {
                crate::process::load::warn_overrun("a bot gave no answer within --timeout-ms");
                let cause = skipped
                    .describe()
                    .unwrap_or_else(|| match bot.silence_cause() {
                        c if c.is_empty() => "hung bot?".to_string(),
                        c => c,
                    });
                return Err(format!(
                    "{}: no answer within {} ms to dice {} {}: {cause}",
                    whose(round),
                    timeout.as_millis(),
                    dice.0,
                    dice.1
                ));
            }
        };
        let text = line.text();
        log.push(match line.cut {
            0 => text.to_string(),
            cut => format!("{text} [tester: line cut, {cut} more bytes not shown]"),
        });
        let (die, x, y, cell) = match judge(&line.bytes, &layout, &board, dice) {
            Ok(Answer::Move { die, x, y, cell }) => (die, x, y, cell),
            Ok(answer) => {
                if answer == Answer::NotANumber {
                    log.push("Input not a number skipping!".to_string());
                }
                skipped.add(&line);
                continue;
            }
            Err(e) => return Err(format!("{}: {e}", whose(round))),
        };
        let took = line.read_at.saturating_duration_since(asked);
        rec.move_ms.push(took.as_secs_f64() * 1000.0);
        rec.game_ms = line
            .read_at
            .saturating_duration_since(started)
            .as_secs_f64()
            * 1000.0;
        rec.moves.push([die as usize, x as usize, y as usize]);
        log.end_move();
        skipped = Skipped::default();
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
    if let Some(path) = trace {
        let checked = super::trace::read(path, &layout, &rec.dice, &rec.moves);
        rec.trace =
            Some(checked.map_err(|e| {
                format!("layout {layout_no} game {game} (int seed {int_seed}): {e}")
            })?);
    }
    let b = breakdown(&layout, &board.values);
    rec.score = b.total();
    for line in log_lines(&b) {
        log.push(line);
    }
    for row in board.rows(&layout) {
        log.push(bot::splitter::layout::join_row(&row));
    }
    log.push(String::new());
    Ok(())
}
