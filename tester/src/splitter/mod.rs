//! `tester splitter`: a replacement for the official Splitter Tester (Lucrasoft/Splitter).
//!
//! Same CLI, seeded dice, process handling (one `/bin/bash -c` per game), answer parsing and
//! validation, per-game log lines and final four lines. Extras: `--jobs`, a progress bar,
//! `--json`, a per-move timeout, mean/sd/95% CI, `--layout both` and `--vs CMD` (stderr, so stdout
//! stays what the official Tester prints).

mod html;
mod pool;
mod session;
mod shard;
mod trace;

use clap::Parser;
use std::process::ExitCode;

pub use session::{run_session, Config, SessionError};

#[derive(Parser, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Example: tester splitter --games 200 --seed bot --layout 1 --command \"./target/release/bot splitter\"\n\
Also accepted: tester splitter \"<command>\" <games>"
)]
pub struct Args {
    #[command(subcommand)]
    merge: Option<Merge>,
    /// Positional form of the original GAME.md: `tester splitter "<command>" [games]`.
    positional: Vec<String>,
    /// Games to play per layout, at most 1000000 [default: 200: about 4 minutes for this
    /// project's bot, at 1.4 s a game].
    #[arg(long, value_parser = game_count)]
    games: Option<u32>,
    /// Print only the final summary lines (a progress bar still shows on stderr when it is a
    /// terminal).
    #[arg(long)]
    silent: bool,
    /// Dice seed: game i uses .NET `Random(hash(seed) + i)`, as the official Tester. Without it a
    /// random seed is drawn and reported on stderr. Seeds one apart in their last character are
    /// one game apart (`final43` plays `final42`'s games 1..): give independent runs unrelated
    /// names, and pool runs with `tester splitter pool`, which counts each dice once.
    #[arg(long)]
    seed: Option<String>,
    /// 1 = first board (GridA), `both`, anything else = second board (GridB).
    #[arg(long, default_value = "1")]
    layout: String,
    /// Bot command, run with `/bin/bash -c` in the current directory. Takes every word after it
    /// (joined by spaces) up to `--vs`, so give the tester's other options before it.
    #[arg(long, num_args = 1.., allow_hyphen_values = true)]
    command: Vec<String>,
    /// Games run at the same time (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = jobs)]
    jobs: usize,
    /// Write every game (seed index, dice, moves, score, time per move; a failed game with its
    /// error) to this JSON file.
    #[arg(long, value_parser = bot::cli::args::output_file)]
    json: Option<std::path::PathBuf>,
    /// Give up on a bot that has not answered within this many milliseconds, whatever it prints
    /// meanwhile (reported, exit 1).
    #[arg(long, default_value = "10000", value_parser = bot::cli::args::millis)]
    timeout_ms: u64,
    /// Play every game even after one failed (each failure is reported; exit 1). Without it the
    /// run stops at the first failure, as the official Tester does.
    #[arg(long)]
    keep_going: bool,
    /// Write one self-contained HTML page: score distribution per layout and every game's final
    /// board (values coloured, scoring groups outlined with their points), sortable by score.
    #[arg(long, value_parser = bot::cli::args::output_file)]
    html: Option<std::path::PathBuf>,
    /// Second bot command played on the same seeds: prints the paired mean difference and its CI.
    #[arg(long, num_args = 1.., allow_hyphen_values = true)]
    vs: Vec<String>,
    /// Play only the K-th of N interleaved slices of the games (by seed: a game and its --vs game
    /// together) and write them to --json for `tester splitter merge` (needs --seed).
    #[arg(long, value_parser = crate::shard::parse_shard)]
    shard: Option<crate::shard::Shard>,
}

#[derive(clap::Subcommand, Debug)]
enum Merge {
    /// Merge the results files of shards (`--shard K/N --json FILE`) into the report of the whole
    /// run: the four lines per layout (--silent form; "Time taken" adds the shards' times),
    /// then mean, CI and paired difference on stderr.
    Merge(shard::MergeArgs),
    /// Pool the games of several `--json` results files per layout and bot: the mean and 95% CI
    /// over distinct dice (runs on related seeds share dice; each dice's plays are averaged
    /// first), beside the naive figures over plays.
    Pool(pool::PoolArgs),
}

/// Games per layout when neither `--games` nor the positional count gives them (as the official
/// Tester); `--help` says so.
const DEFAULT_GAMES: u32 = 200;

/// Most games per layout (the task list is built up front).
const MAX_GAMES: u64 = 1_000_000;

fn game_count(text: &str) -> Result<u32, String> {
    bot::cli::args::integer_in(text, 0, MAX_GAMES).map(|n| n as u32)
}

fn jobs(text: &str) -> Result<usize, String> {
    bot::cli::args::integer_in(text, 1, 256).map(|n| n as usize)
}

pub fn run(mut args: Args) -> ExitCode {
    match args.merge.take() {
        Some(Merge::Merge(merge)) => return shard::run_merge(merge),
        Some(Merge::Pool(pool)) => return pool::run_pool(pool),
        None => {}
    }
    let html = args.html.clone();
    let config = match config_from_args(args).and_then(|c| shard::check_args(&c).map(|_| c)) {
        Ok(c) => c,
        Err(e) => return crate::fail(format!("tester splitter: {e}")),
    };
    let outputs = [
        ("--json", config.json.as_deref()),
        ("--html", html.as_deref()),
    ];
    let outputs = match crate::process::outputs::claim(&outputs, &[]) {
        Ok(c) => c,
        Err(e) => return crate::fail(format!("tester splitter: {e}")),
    };
    crate::process::load::warn_if_busy();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    let session = run_session(&config, &mut stdout, &mut stderr);
    if let Some(code) =
        crate::process::interrupt::stopped("tester splitter", "--json and --html not written")
    {
        outputs.discard();
        return code;
    }
    match session {
        Ok(outcome) => match html {
            Some(path) => match html::page(&outcome)
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|page| bot::cli::output::write(&path, page))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => crate::fail(format!("tester splitter: --html: {e}")),
            },
            None => ExitCode::SUCCESS,
        },
        Err(SessionError::OutputClosed) => bot::cli::pipe::die_of_broken_pipe(),
        Err(e) => {
            let _ = std::io::Write::flush(&mut stdout);
            crate::fail(format!("tester splitter: {e}"))
        }
    }
}

/// Split `words` at the first `flag`: `--command` and `--vs` take every following word (so a bot's
/// own flags need no quoting), hence `--command A --vs B` arrives as command `[A, --vs, B]`.
fn split_at_flag(mut words: Vec<String>, flag: &str) -> (Vec<String>, Vec<String>) {
    match words.iter().position(|w| w == flag) {
        Some(i) => {
            let rest = words.split_off(i + 1);
            words.pop();
            (words, rest)
        }
        None => (words, Vec::new()),
    }
}

fn config_from_args(args: Args) -> Result<Config, String> {
    let (mut command_words, vs_words_late) = split_at_flag(args.command, "--vs");
    let (mut vs_words, command_words_late) = split_at_flag(args.vs, "--command");
    command_words.extend(command_words_late);
    vs_words.extend(vs_words_late);
    let mut command = command_words.join(" ");
    let mut games = args.games;
    let mut positional = args.positional.into_iter();
    if let Some(cmd) = positional.next() {
        if !command.is_empty() {
            return Err(
                "give the bot command either with --command or positionally, not both".into(),
            );
        }
        command = cmd;
        if let Some(g) = positional.next() {
            if games.is_some() {
                return Err(
                    "give the game count either with --games or positionally, not both".into(),
                );
            }
            games = Some(
                game_count(&g)
                    .map_err(|e| format!("games {}: {e}", bot::source_error::quote(&g)))?,
            );
        }
        if let Some(extra) = positional.next() {
            return Err(format!(
                "unexpected argument {}",
                bot::source_error::quote(&extra)
            ));
        }
    }
    if command.trim().is_empty() {
        return Err("no bot command (use --command CMD or tester splitter \"CMD\" [games])".into());
    }
    let layouts = match args.layout.as_str() {
        "1" => vec![1],
        "both" => vec![1, 2],
        _ => vec![2],
    };
    let vs = vs_words.join(" ");
    Ok(Config {
        command,
        vs: (!vs.trim().is_empty()).then_some(vs),
        games: games.unwrap_or(DEFAULT_GAMES),
        silent: args.silent,
        seed: args.seed,
        layouts,
        jobs: args.jobs,
        json: args.json,
        timeout: std::time::Duration::from_millis(args.timeout_ms),
        // On stderr (when a terminal), so stdout stays what the official Tester prints, --silent
        // or not.
        progress: true,
        keep_going: args.keep_going,
        shard: args.shard,
    })
}

#[cfg(test)]
mod tests;
