//! One refereed game: the rules come from the `bot` library; the bots are processes that receive
//! exactly the CodinGame input for their turn and must answer a listed action in time.

use std::time::{Duration, Instant};

use bot::penguins::protocol::{init_input, quote, turn_input};
use bot::penguins::{cell_name, generate_board, parse_cell, Cell, Move, MoveList, Rules, State};

use super::replay::{Failure, Pushed, Replay, TurnRecord};
use crate::process::{BotProcess, Line, ReadFailure};

#[derive(Clone, Debug)]
pub struct RefereeConfig {
    pub seed: u64,
    pub rules: Rules,
    pub first_turn: Duration,
    pub turn: Duration,
    /// Judge each answer by the CPU time the bot's process group used on the turn instead of the
    /// wall clock (which still bounds the wait at `CPU_JUDGE_WALL_FACTOR` times the limit): on a
    /// busy machine a descheduled bot is not "too slow".
    pub cpu_time: bool,
}

/// With the CPU-time judge, how many times the limit the referee waits on the wall clock.
pub const CPU_JUDGE_WALL_FACTOR: u32 = 4;

/// How long past the limit the referee keeps waiting for a line, so that its own scheduling
/// delay never decides a verdict; the line's read time alone decides.
const VERDICT_GRACE: Duration = Duration::from_millis(100);

/// The timeout verdict for an answer read `elapsed` after the input was sent, the bot having
/// used `cpu` on the turn (when known). The wall-clock judge: over the limit is late, whatever
/// the referee's own delay in looking at it (the same `elapsed` is the recorded turn time, so a
/// recorded turn never exceeds its limit); the CPU time is named, to tell a bot that computed too
/// long from one that was descheduled. The CPU-time judge: over the limit in CPU time is late.
fn late_answer(
    elapsed: Duration,
    cpu: Option<Duration>,
    limit: Duration,
    cpu_judge: bool,
) -> Option<String> {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    match (cpu_judge, cpu) {
        (true, Some(cpu)) => (cpu > limit).then(|| {
            format!(
                "used {:.1} ms of CPU time, over the {} ms limit (answered after {:.1} ms)",
                ms(cpu),
                limit.as_millis(),
                ms(elapsed)
            )
        }),
        _ => (elapsed > limit).then(|| {
            let cpu = cpu.map_or(String::new(), |c| format!(" (CPU time {:.1} ms)", ms(c)));
            format!(
                "answered after {:.1} ms, over the {} ms limit{cpu}",
                ms(elapsed),
                limit.as_millis()
            )
        }),
    }
}

fn board_rows(state: &State) -> Vec<String> {
    let grid = state.fish_grid();
    grid.chunks(8)
        .map(|row| row.iter().map(|&f| char::from(b'0' + f)).collect())
        .collect()
}

/// Split an answer into the command and the optional `MSG` text.
fn split_message(line: &str) -> (&str, Option<String>) {
    let line = line.trim();
    match line.find(" MSG") {
        Some(at) => (
            line[..at].trim_end(),
            Some(line[at + 4..].trim().to_string()),
        ),
        None => (line, None),
    }
}

/// The bot's answer as a move: exactly `MOVE <id> <cell>` (the message already split off), as
/// the stub defines it; the bot side reads listed actions more loosely, the referee does not.
fn parse_answer(command: &str) -> Option<(u32, Cell)> {
    match command.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["MOVE", id, cell] => Some((id.parse().ok()?, parse_cell(cell)?)),
        _ => None,
    }
}

/// Why a bot stopped talking: how it ended (exit status, an unfinished line) and the end of its
/// stderr.
fn ended_detail(bot: &mut BotProcess, what: &str, partial: Option<&Line>) -> String {
    let how = format!("{what}: {}", bot.end_cause(partial));
    let stderr = bot.new_stderr();
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(last) => format!("{how}; its stderr ends: {}", quote(last)),
        None => format!("{how}; no stderr"),
    }
}

/// Why a game could not be played at all (no result: not a loss of either side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPlayed {
    /// The bot of `seat` could not be started: no process (too many open files, ...), or its
    /// command could not be run (the shell's status 127 "not found" or 126 "not executable")
    /// before its first answer.
    NotStarted { seat: usize, cause: String },
    /// A game the referee refuses to set up.
    Refused(String),
}

impl std::fmt::Display for NotPlayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPlayed::NotStarted { seat, cause } => {
                write!(f, "seat {seat} did not start: {cause}")
            }
            NotPlayed::Refused(e) => f.write_str(e),
        }
    }
}

/// The shell's exit statuses for a command it could not run: found but not executable, not found.
const COULD_NOT_RUN: [i32; 2] = [126, 127];

/// How `play_turn` words a bot whose output closed before it answered.
const CLOSED_WITHOUT_ANSWER: &str = "output closed without an answer";

/// Play one game between `commands` (2-4 seats). `Err` only when the game cannot be played (a
/// bot that cannot even be started); a bot's timeout or bad answer is recorded: in a 2-player
/// game it loses the game there, in a 3-4 player game the seat is deactivated and the others
/// play on.
pub fn run_game(config: &RefereeConfig, commands: &[String]) -> Result<Replay, NotPlayed> {
    let players = commands.len();
    if !(2..=4).contains(&players) {
        return Err(NotPlayed::Refused(format!(
            "{players} bots: Penguins needs 2 to 4"
        )));
    }
    let mut state = State::new(&generate_board(config.seed), players, config.rules)
        .map_err(NotPlayed::Refused)?;
    let mut bots = Vec::new();
    for (seat, command) in commands.iter().enumerate() {
        let bot =
            BotProcess::spawn(command).map_err(|cause| NotPlayed::NotStarted { seat, cause })?;
        bots.push(Some(bot));
    }
    let mut replay = new_replay(config, commands, &state);
    let mut started = vec![false; players];
    let mut moves = MoveList::new();
    let mut too_few_left = false;
    while !state.is_over() {
        let player = state.to_move();
        let turn = replay.turns.len();
        let bot = bots[player].as_mut().expect("an active seat has its bot");
        match play_turn(config, &mut state, bot, turn, &mut started, &mut moves) {
            Ok(record) => replay.turns.push(record),
            Err((kind, detail)) if never_ran(&replay, player, kind, bot) => {
                let cause = detail
                    .strip_prefix(CLOSED_WITHOUT_ANSWER)
                    .unwrap_or(&detail);
                let cause = cause.trim_start_matches(": ").to_string();
                return Err(NotPlayed::NotStarted {
                    seat: player,
                    cause,
                });
            }
            Err((kind, detail)) => {
                if let Some(bot) = bots[player].take() {
                    replay.stderr[player] = bot.finish();
                }
                if !fail_seat(&mut replay, &mut state, kind, detail) {
                    too_few_left = players > 2;
                    break;
                }
            }
        }
    }
    conclude(&mut replay, &state, too_few_left);
    for (seat, bot) in bots.into_iter().enumerate() {
        if let Some(bot) = bot {
            replay.stderr[seat] = bot.finish();
        }
    }
    Ok(replay)
}

/// Whether the seat's failure means its command never ran: its output closed before its first
/// answer and the shell said it could not run the command.
fn never_ran(replay: &Replay, seat: usize, kind: &str, bot: &mut BotProcess) -> bool {
    kind == "ended"
        && !replay.turns.iter().any(|t| t.player == seat)
        && bot.exit_code().is_some_and(|c| COULD_NOT_RUN.contains(&c))
}

/// A replay of a game about to start on `state`.
pub fn new_replay(config: &RefereeConfig, commands: &[String], state: &State) -> Replay {
    let players = commands.len();
    Replay {
        seed: config.seed,
        rules: config.rules.describe(),
        players: commands.to_vec(),
        penguins_per_player: state.penguins_per_player(),
        first_turn_ms: config.first_turn.as_millis() as u64,
        turn_ms: config.turn.as_millis() as u64,
        cpu_time: config.cpu_time,
        initial_board: board_rows(state),
        turns: Vec::new(),
        final_scores: Vec::new(),
        failures: vec![None; players],
        ranks: Vec::new(),
        end_reason: String::new(),
        stderr: vec![String::new(); players],
    }
}

/// Record the failure of the seat to move. `true` when the game goes on without it (3-4 players,
/// at least two seats left: it is deactivated), `false` when the game stops there.
pub fn fail_seat(replay: &mut Replay, state: &mut State, kind: &str, detail: String) -> bool {
    let player = state.to_move();
    replay.failures[player] = Some(Failure {
        kind: kind.to_string(),
        turn: replay.turns.len(),
        detail,
    });
    let left = replay.failures.iter().filter(|f| f.is_none()).count();
    if replay.players.len() == 2 || left < 2 {
        return false;
    }
    state.deactivate(player);
    true
}

/// Play the legal move `mv` of the seat to move and record it (answer time, message and stderr
/// are the caller's to fill in).
pub fn play_and_record(state: &mut State, mv: Move, turn: usize) -> TurnRecord {
    let player = state.to_move();
    let pushed = state.pushed_by(mv).map(|id| Pushed {
        id,
        owner: state.penguin_owner(id),
        cell: cell_name(
            state
                .penguin_cell(id)
                .expect("a pushed penguin is on the board"),
        ),
    });
    state.apply(mv);
    TurnRecord {
        turn,
        player,
        action: mv.command(),
        message: None,
        time_ms: 0.0,
        cpu_ms: None,
        board: board_rows(state),
        penguins: state
            .penguins_on_board()
            .map(|(id, owner, cell)| (id, owner, cell_name(cell)))
            .collect(),
        scores: state.scores().to_vec(),
        stderr: String::new(),
        pushed,
    }
}

/// Fill in how the game ended: reason, final scores, ranks.
pub fn conclude(replay: &mut Replay, state: &State, too_few_left: bool) {
    replay.end_reason = end_reason(state, &replay.failures, too_few_left);
    replay.final_scores = state.final_scores();
    replay.ranks = ranks(&replay.final_scores, &replay.failures);
}

/// One turn of `player`: send the input, judge the answer, apply it. `Err((kind, detail))` when
/// the seat fails (`timeout`, `invalid`, `ended`).
fn play_turn(
    config: &RefereeConfig,
    state: &mut State,
    bot: &mut BotProcess,
    turn: usize,
    started: &mut [bool],
    moves: &mut MoveList,
) -> Result<TurnRecord, (&'static str, String)> {
    let player = state.to_move();
    let mut input = String::new();
    let limit = if started[player] {
        config.turn
    } else {
        input.push_str(&init_input(state, player));
        config.first_turn
    };
    started[player] = true;
    input.push_str(&turn_input(state));
    // The bot is idle now (waiting for its input): its CPU time so far is the turn's start.
    let cpu_before = bot.cpu_time();
    // The clock starts before writing: the bot may answer before `send` returns.
    let sent = Instant::now();
    // A failed write means the bot is gone or closed its input: `end_cause` says which.
    if bot.send(&input).is_err() {
        return Err(("ended", ended_detail(bot, "before reading its input", None)));
    }
    // Wait a little past the limit: a line read in time but handed over late (a busy
    // referee) is still judged by when it was read, and a late one by its real time.
    let wall_limit = if config.cpu_time {
        limit * CPU_JUDGE_WALL_FACTOR
    } else {
        limit
    };
    let (elapsed, line) = match bot.read_line(sent + wall_limit + VERDICT_GRACE) {
        Ok(line) => (line.read_at.saturating_duration_since(sent), line),
        Err(ReadFailure::Timeout) => {
            let mut detail = format!("no answer within {} ms", wall_limit.as_millis());
            let cause = bot.silence_cause();
            if !cause.is_empty() {
                detail.push_str(&format!(" ({cause})"));
            }
            return Err(("timeout", detail));
        }
        Err(ReadFailure::Ended { partial }) => {
            let what = CLOSED_WITHOUT_ANSWER;
            return Err(("ended", ended_detail(bot, what, partial.as_ref())));
        }
    };
    let cpu = cpu_before.and_then(|before| Some(bot.cpu_time()?.saturating_sub(before)));
    // The CPU judge's wall-clock cap is a limit of its own.
    if let Some(detail) = late_answer(elapsed, cpu, wall_limit, false) {
        return Err(("timeout", detail));
    }
    if let Some(detail) = late_answer(elapsed, cpu, limit, config.cpu_time) {
        return Err(("timeout", detail));
    }
    let turn_stderr = bot.new_stderr();
    let text = line.text();
    let (command, message) = split_message(&text);
    state.legal_moves(moves);
    let chosen = parse_answer(command).and_then(|(id, cell)| {
        moves
            .iter()
            .copied()
            .find(|m| m.penguin as u32 == id && m.to == cell)
    });
    let Some(mv) = chosen else {
        return Err(("invalid", format!("invalid action {}", line.quoted())));
    };
    Ok(TurnRecord {
        message,
        time_ms: elapsed.as_secs_f64() * 1000.0,
        cpu_ms: cpu.map(|c| c.as_secs_f64() * 1000.0),
        stderr: turn_stderr,
        ..play_and_record(state, mv, turn)
    })
}

/// Why the game ended, in words.
fn end_reason(state: &State, failures: &[Option<Failure>], too_few_left: bool) -> String {
    let failed: Vec<usize> = (0..failures.len())
        .filter(|&p| failures[p].is_some())
        .collect();
    let names = |seats: &[usize]| {
        seats
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if failures.len() == 2 && !failed.is_empty() {
        return format!("player {} lost by default", failed[0]);
    }
    let base = if too_few_left {
        let left: Vec<usize> = (0..failures.len())
            .filter(|&p| failures[p].is_none())
            .collect();
        format!("only seat {} is left in the game", names(&left))
    } else if let Some(leader) = (0..state.players()).find(|&p| state.has_move(p)) {
        format!("early end: only seat {leader} could still move and it was ahead")
    } else {
        "no player can move".to_string()
    };
    if failed.is_empty() {
        base
    } else {
        format!("{base} (deactivated: seat {})", names(&failed))
    }
}

/// Seats still in the game rank by score (1 + the number of them with a strictly higher score);
/// failed seats rank below all of those, a later failure above an earlier one (same turn: tie).
fn ranks(scores: &[u32], failures: &[Option<Failure>]) -> Vec<usize> {
    let ok: Vec<usize> = (0..scores.len())
        .filter(|&p| failures[p].is_none())
        .collect();
    (0..scores.len())
        .map(|p| match &failures[p] {
            Some(f) => {
                let outlasted_by = failures
                    .iter()
                    .flatten()
                    .filter(|g| g.turn > f.turn)
                    .count();
                ok.len() + 1 + outlasted_by
            }
            None => 1 + ok.iter().filter(|&&q| scores[q] > scores[p]).count(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_put_failures_last() {
        let fail = Some(Failure {
            kind: "timeout".into(),
            turn: 3,
            detail: String::new(),
        });
        assert_eq!(ranks(&[5, 9, 5], &[None, None, None]), vec![2, 1, 2]);
        assert_eq!(
            ranks(&[50, 9, 5, 1], &[fail.clone(), None, None, None]),
            vec![4, 1, 2, 3]
        );
        let later = Some(Failure {
            turn: 9,
            ..fail.clone().unwrap()
        });
        assert_eq!(
            ranks(&[50, 9, 5, 1], &[fail.clone(), later, None, None]),
            vec![4, 3, 1, 2]
        );
    }

    #[test]
    fn answers_must_be_exactly_move_id_cell() {
        assert_eq!(
            parse_answer("MOVE 3 C5"),
            Some((3, parse_cell("C5").unwrap()))
        );
        for bad in [
            "3 C5",
            "move 3 C5",
            "MOVE 3 C5 x",
            "MOVE 3",
            "JUMP 3 C5",
            "",
        ] {
            assert_eq!(parse_answer(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_answer_over_the_limit_is_late_and_one_at_or_under_it_is_not() {
        let limit = Duration::from_millis(50);
        let ms = Duration::from_millis;
        for cpu in [None, Some(ms(3))] {
            assert!(late_answer(Duration::from_micros(50_001), cpu, limit, false).is_some());
            let late = late_answer(Duration::from_micros(63_800), cpu, limit, false).unwrap();
            assert!(late.contains("63.8 ms"), "{late}");
            assert_eq!(cpu.is_some(), late.contains("CPU time 3.0 ms"), "{late}");
            assert_eq!(late_answer(limit, cpu, limit, false), None);
            assert_eq!(late_answer(ms(12), cpu, limit, false), None);
        }
        // The CPU-time judge: a descheduled bot (long wall time, little CPU) is in time, a bot
        // that computed too long is not, and without a CPU reading the wall clock judges.
        assert_eq!(late_answer(ms(180), Some(ms(30)), limit, true), None);
        let late = late_answer(ms(70), Some(ms(61)), limit, true).unwrap();
        assert!(late.starts_with("used 61.0 ms of CPU time"), "{late}");
        assert!(late_answer(ms(70), None, limit, true).is_some());
    }

    #[test]
    fn messages_are_split_off() {
        assert_eq!(
            split_message("MOVE 1 A2 MSG hi there"),
            ("MOVE 1 A2", Some("hi there".into()))
        );
        assert_eq!(split_message(" MOVE 1 A2 \r"), ("MOVE 1 A2", None));
    }
}
