//! `tester penguins`: referee one game. Two command-line forms:
//! - ours: `--bot CMD --bot CMD [..] [--seed N] [--replay FILE] [--html FILE]`, a readable summary;
//! - cg-brutaltester's: `-p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N] [-l FILE]`, one score per
//!   seat per line on stdout (-1 = that seat failed), for brutaltester, psyleague and cgarena.

mod brutal;
pub mod check;
mod fake;
pub mod referee;
pub mod replay;
#[cfg(test)]
mod simulated_tests;
pub mod viewer;

use clap::Parser;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use bot::penguins::Rules;
use referee::{run_game, RefereeConfig};
use replay::Replay;

#[derive(Parser)]
#[command(after_help = BRUTALTESTER_FORM)]
pub struct Args {
    /// A bot command (run through `sh -c`); give 2 to 4, in seat order.
    #[arg(long = "bot")]
    bots: Vec<String>,
    /// Board seed (the same seed gives the same board).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rules, comma-separated words applied in order: league1, league2 (the default: push and
    /// early end), push, no-push, early-end, no-early-end, one-fish, score-under.
    #[arg(long, default_value = "league2")]
    rules: String,
    /// Time for each bot's first turn, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = bot::cli::args::millis)]
    first_ms: u64,
    /// Time for every later turn, in milliseconds.
    #[arg(long, default_value_t = 50, value_parser = bot::cli::args::millis)]
    turn_ms: u64,
    /// Judge answers by the CPU time the bot used on the turn, not the wall clock (which then
    /// waits up to 4 times the limit): on a busy machine, a bot that was descheduled is not late.
    #[arg(long)]
    cpu_time: bool,
    /// Write the replay (JSON) here.
    #[arg(long, value_parser = output_path)]
    replay: Option<String>,
    /// Write the replay viewer (one self-contained HTML page) here.
    #[arg(long, value_parser = output_path)]
    html: Option<String>,
    /// Render an existing replay JSON to --html instead of playing.
    #[arg(long)]
    view: Option<String>,
    /// Verify an existing replay JSON with the independent checker instead of playing.
    #[arg(long)]
    check: Option<String>,
    /// Act as a scripted fake bot (for referee tests): first, push, late:N:MS, illegal, garbage, silent, exit.
    #[arg(long, hide = true)]
    fake_bot: Option<String>,
    /// The cg-brutaltester form: -p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N] [-l FILE].
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    raw: Vec<String>,
}

/// The `--help` section on the cg-brutaltester form, which clap does not parse (`-p1` is no
/// clap flag): its options in clap's layout.
const BRUTALTESTER_FORM: &str = "\
The cg-brutaltester form (psyleague and cgarena use it) prints one line per seat, its score or -1 \
when it failed:
  -p1 <CMD>, -p2 <CMD>  The bots of seats 1 and 2 (both needed)
  -p3 <CMD>, -p4 <CMD>  The bots of seats 3 and 4 (-p4 needs -p3)
  -d <seed=N>           The board seed; without it one is drawn and printed on stderr
  -l <FILE>             Write the replay (JSON) here
Of the options above, --rules, --first-ms and --turn-ms apply to it, given before -p1.";

/// A file written after the game(s): its folder must exist before they start.
pub fn output_path(text: &str) -> Result<String, String> {
    bot::cli::args::output_file(text).map(|_| text.to_string())
}

pub fn run(args: Args) -> ExitCode {
    if let Some(kind) = &args.fake_bot {
        return match fake::run(kind) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::fail(format!("fake bot: {e}")),
        };
    }
    if !args.raw.is_empty() {
        return brutal::run(&args.raw, &args.rules, args.first_ms, args.turn_ms);
    }
    if let Some(path) = &args.check {
        return check_file(path);
    }
    if let Some(path) = &args.view {
        return view(path, args.html.as_deref());
    }
    let rules = match Rules::parse(&args.rules) {
        Ok(r) => r,
        Err(e) => return crate::fail(format!("--rules: {e}")),
    };
    if !(2..=4).contains(&args.bots.len()) {
        return crate::fail(format!(
            "tester penguins: give 2 to 4 --bot commands (got {})",
            args.bots.len()
        ));
    }
    let config = RefereeConfig {
        seed: args.seed,
        rules,
        first_turn: Duration::from_millis(args.first_ms),
        turn: Duration::from_millis(args.turn_ms),
        cpu_time: args.cpu_time,
    };
    let outputs = [("--replay", &args.replay), ("--html", &args.html)];
    let (replay, _outputs) = match referee_game(&config, &args.bots, &outputs) {
        Ok(played) => played,
        Err(code) => return code,
    };
    print_summary(&replay);
    if let Err(e) = save(&replay, args.replay.as_deref(), args.html.as_deref()) {
        return crate::fail(e);
    }
    ExitCode::SUCCESS
}

/// Claim the outputs given as (option, path) before a game (see `process::outputs`).
pub fn claim_outputs(
    outputs: &[(&str, &Option<String>)],
    inputs: &[&str],
) -> Result<crate::process::outputs::Claimed, String> {
    let outputs: Vec<(&str, Option<&Path>)> = outputs
        .iter()
        .map(|(option, path)| (*option, path.as_deref().map(Path::new)))
        .collect();
    let inputs: Vec<&Path> = inputs.iter().map(Path::new).collect();
    crate::process::outputs::claim(&outputs, &inputs)
}

/// Claim the outputs, then referee one game (warning when the machine is busy or a bot lost on
/// time); the replay and the claimed outputs, or the exit code of a failure or a signal.
fn referee_game(
    config: &RefereeConfig,
    commands: &[String],
    outputs: &[(&str, &Option<String>)],
) -> Result<(Replay, crate::process::outputs::Claimed), ExitCode> {
    let claimed =
        claim_outputs(outputs, &[]).map_err(|e| crate::fail(format!("tester penguins: {e}")))?;
    crate::process::load::warn_if_busy();
    let replay = run_game(config, commands);
    if let Some(code) = crate::process::interrupt::stopped("tester penguins", "nothing written") {
        return Err(code);
    }
    let replay = replay.map_err(|e| crate::fail(format!("referee: {e}")))?;
    if (replay.failures.iter().flatten()).any(|f| f.kind == "timeout") {
        crate::process::load::warn_overrun("a bot lost on time");
    }
    Ok((replay, claimed))
}

fn print_summary(replay: &Replay) {
    println!(
        "seed {} rules {} turns {} ({})",
        replay.seed,
        replay.rules,
        replay.turns.len(),
        replay.end_reason
    );
    for (seat, command) in replay.players.iter().enumerate() {
        let times: Vec<f64> = replay
            .turns
            .iter()
            .filter(|t| t.player == seat)
            .map(|t| t.time_ms)
            .collect();
        let max = times.iter().copied().fold(0.0, f64::max);
        let failure = match &replay.failures[seat] {
            Some(f) => format!(
                "  LOST BY DEFAULT: {} at turn {}: {}{}",
                f.kind,
                f.turn,
                f.detail,
                if replay.players.len() > 2 {
                    " (deactivated; its penguins stayed)"
                } else {
                    ""
                }
            ),
            None => String::new(),
        };
        println!(
            "seat {seat}: score {:>5} rank {} max {:.1} ms  {command}{failure}",
            replay.final_scores[seat], replay.ranks[seat], max
        );
    }
}

/// Write the replay JSON and/or HTML page where asked.
pub fn save(replay: &Replay, json: Option<&str>, html: Option<&str>) -> Result<(), String> {
    if let Some(path) = json {
        let text = serde_json::to_string(replay).map_err(|e| format!("replay: {e}"))?;
        bot::cli::output::write(Path::new(path), text)?;
    }
    if let Some(path) = html {
        bot::cli::output::write(Path::new(path), viewer::render(replay))?;
    }
    Ok(())
}

fn load(path: &str) -> Result<Replay, String> {
    let bytes = bot::source_error::read_bytes(Path::new(path)).map_err(|e| e.to_string())?;
    Replay::from_json(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("{path}: {e}"))
}

fn check_file(path: &str) -> ExitCode {
    let result = load(path).and_then(|r| check::check(&r).map_err(|e| format!("{path}: {e}")));
    match result {
        Ok(turns) => {
            println!("{path}: ok, {turns} turns verified");
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(e),
    }
}

fn view(path: &str, html: Option<&str>) -> ExitCode {
    let Some(html) = html else {
        return crate::fail("--view needs --html OUT.html");
    };
    let _output = match claim_outputs(&[("--html", &Some(html.to_string()))], &[path]) {
        Ok(c) => c,
        Err(e) => return crate::fail(format!("tester penguins: {e}")),
    };
    let replay = match load(path) {
        Ok(r) => r,
        Err(e) => return crate::fail(e),
    };
    // Only a replay that re-plays legally is drawn: a page would show an impossible game as if
    // it had happened.
    if let Err(e) = check::check(&replay) {
        return crate::fail(format!(
            "{path}: not rendered, the replay does not re-play: {e}"
        ));
    }
    match save(&replay, None, Some(html)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(e),
    }
}
