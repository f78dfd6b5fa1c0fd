//! One refereed game: the rules come from the `bot` library; the bots are processes that receive
//! exactly the CodinGame input for their turn and must answer a listed action in time.

use std::time::{Duration, Instant};

use bot::penguins::protocol::{init_input, parse_action, turn_input};
use bot::penguins::{cell_name, generate_board, MoveList, Rules, State};

use super::replay::{Failure, Replay, TurnRecord};
use crate::process::{BotProcess, ReadFailure};

#[derive(Clone, Debug)]
pub struct RefereeConfig {
    pub seed: u64,
    pub rules: Rules,
    pub first_turn: Duration,
    pub turn: Duration,
}

/// How long past the limit the referee keeps waiting for a line, so that its own scheduling
/// delay never decides a verdict; the line's read time alone decides.
const VERDICT_GRACE: Duration = Duration::from_millis(100);

/// The timeout verdict for an answer read `elapsed` after the input was sent: over the limit
/// is late, whatever the referee's own delay in looking at it. The same `elapsed` is the
/// recorded turn time, so a recorded turn never exceeds its limit.
fn late_answer(elapsed: Duration, limit: Duration) -> Option<String> {
    (elapsed > limit).then(|| {
        format!(
            "answered after {:.1} ms, over the {} ms limit",
            elapsed.as_secs_f64() * 1000.0,
            limit.as_millis()
        )
    })
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

/// Play one game between `commands` (2-4 seats). `Err` only for a referee problem (a bot that
/// cannot even be started); a bot's timeout or bad answer loses it the game and is recorded.
pub fn run_game(config: &RefereeConfig, commands: &[String]) -> Result<Replay, String> {
    let players = commands.len();
    if !(2..=4).contains(&players) {
        return Err(format!("{players} bots: Penguins needs 2 to 4"));
    }
    let mut state = State::new(&generate_board(config.seed), players, config.rules)?;
    let mut bots = Vec::new();
    for command in commands {
        match BotProcess::spawn(command) {
            Ok(bot) => bots.push(bot),
            Err(e) => {
                for bot in bots {
                    bot.finish();
                }
                return Err(e);
            }
        }
    }
    let mut replay = Replay {
        seed: config.seed,
        rules: config.rules.describe(),
        players: commands.to_vec(),
        penguins_per_player: state.penguins_per_player(),
        first_turn_ms: config.first_turn.as_millis() as u64,
        turn_ms: config.turn.as_millis() as u64,
        initial_board: board_rows(&state),
        turns: Vec::new(),
        final_scores: Vec::new(),
        failures: vec![None; players],
        ranks: Vec::new(),
        end_reason: String::new(),
        stderr: Vec::new(),
    };
    let mut started = vec![false; players];
    let mut moves = MoveList::new();
    while !state.is_over() {
        let player = state.to_move();
        let turn = replay.turns.len();
        let mut input = String::new();
        let limit = if started[player] {
            config.turn
        } else {
            input.push_str(&init_input(&state, player));
            config.first_turn
        };
        started[player] = true;
        input.push_str(&turn_input(&state));
        let fail = |kind: &str, detail: String| Failure {
            kind: kind.to_string(),
            turn,
            detail,
        };
        // The clock starts before writing: the bot may answer before `send` returns.
        let sent = Instant::now();
        if let Err(e) = bots[player].send(&input) {
            let detail = format!("{e}; {}", bots[player].end_cause(None));
            replay.failures[player] = Some(fail("ended", detail));
            break;
        }
        // Wait a little past the limit: a line read in time but handed over late (a busy
        // referee) is still judged by when it was read, and a late one by its real time.
        let (elapsed, line) = match bots[player].read_line(sent + limit + VERDICT_GRACE) {
            Ok(line) => (line.read_at.saturating_duration_since(sent), line),
            Err(ReadFailure::Timeout) => {
                let mut detail = format!("no answer within {} ms", limit.as_millis());
                let cause = bots[player].silence_cause();
                if !cause.is_empty() {
                    detail.push_str(&format!(" ({cause})"));
                }
                replay.failures[player] = Some(fail("timeout", detail));
                break;
            }
            Err(ReadFailure::Ended { partial }) => {
                let cause = bots[player].end_cause(partial.as_ref());
                let detail = format!("output closed without an answer: {cause}");
                replay.failures[player] = Some(fail("ended", detail));
                break;
            }
        };
        if let Some(detail) = late_answer(elapsed, limit) {
            replay.failures[player] = Some(fail("timeout", detail));
            break;
        }
        let turn_stderr = bots[player].new_stderr();
        let text = line.text();
        let (command, message) = split_message(&text);
        state.legal_moves(&mut moves);
        let chosen = parse_action(command).and_then(|(id, cell)| {
            moves
                .iter()
                .copied()
                .find(|m| m.penguin as u32 == id && m.to == cell)
        });
        let Some(mv) = chosen else {
            let detail = format!("invalid action {}", line.quoted());
            replay.failures[player] = Some(fail("invalid", detail));
            break;
        };
        state.apply(mv);
        replay.turns.push(TurnRecord {
            turn,
            player,
            action: mv.command(),
            message,
            time_ms: elapsed.as_secs_f64() * 1000.0,
            board: board_rows(&state),
            penguins: state
                .penguins_on_board()
                .map(|(id, owner, cell)| (id, owner, cell_name(cell)))
                .collect(),
            scores: state.scores().to_vec(),
            stderr: turn_stderr,
        });
    }
    replay.end_reason = match replay.failures.iter().position(Option::is_some) {
        Some(p) => format!("player {p} lost by default"),
        None => "no player can move".to_string(),
    };
    replay.final_scores = state.final_scores();
    replay.ranks = ranks(&replay.final_scores, &replay.failures);
    replay.stderr = bots.into_iter().map(BotProcess::finish).collect();
    Ok(replay)
}

/// 1 + the number of non-failed seats with a strictly higher score; failed seats come last.
fn ranks(scores: &[u32], failures: &[Option<Failure>]) -> Vec<usize> {
    let ok: Vec<usize> = (0..scores.len())
        .filter(|&p| failures[p].is_none())
        .collect();
    (0..scores.len())
        .map(|p| {
            if failures[p].is_some() {
                ok.len() + 1
            } else {
                1 + ok.iter().filter(|&&q| scores[q] > scores[p]).count()
            }
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
            ranks(&[50, 9, 5, 1], &[fail, None, None, None]),
            vec![4, 1, 2, 3]
        );
    }

    #[test]
    fn an_answer_over_the_limit_is_late_and_one_at_or_under_it_is_not() {
        let limit = Duration::from_millis(50);
        assert!(late_answer(Duration::from_micros(50_001), limit).is_some());
        assert!(late_answer(Duration::from_micros(63_800), limit)
            .unwrap()
            .contains("63.8 ms"));
        assert_eq!(late_answer(limit, limit), None);
        assert_eq!(late_answer(Duration::from_millis(12), limit), None);
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
