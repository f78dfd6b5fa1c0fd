//! The merge's re-check of a game read from a shard file: its moves, re-played on the seed's board
//! by the independent replay checker, decide the final scores, the ranks, the turn count and who
//! moved when; the failures must fit them, and the turn times their limits. A file whose numbers
//! its moves do not give (a hand edit, a broken disk, another program's output) is refused.

use super::plan::PlanConfig;
use super::schedule::GameResult;
use crate::penguins::check;

/// The failure kinds the referee records.
const FAILURE_KINDS: [&str; 3] = ["timeout", "invalid", "ended"];

/// Check plan game `game` (already matched to the plan: seats, commands, list lengths) against its
/// own moves.
pub fn recheck(config: &PlanConfig, game: &GameResult) -> Result<(), String> {
    let players = game.seats.len();
    if game.referee_error.is_some() {
        // A game the referee could not run: nothing played, nothing scored.
        let untouched = game.moves.is_empty()
            && game.turns == 0
            && game.final_scores.iter().all(|&s| s == 0)
            && game.ranks.iter().all(|&r| r == 1)
            && game.failures.iter().all(Option::is_none);
        return match untouched {
            true => Ok(()),
            false => Err("a game the referee could not run holds moves or results".into()),
        };
    }
    let mut failed_at = Vec::with_capacity(players);
    for (seat, (kind, detail)) in game.failures.iter().zip(&game.failure_details).enumerate() {
        failed_at.push(match (kind, detail) {
            (None, None) => None,
            (Some(kind), Some(detail)) if FAILURE_KINDS.contains(&kind.as_str()) => {
                Some(failure_turn(detail).ok_or(format!("seat {seat}: failure without its turn"))?)
            }
            _ => return Err(format!("seat {seat}: a failure that is not the referee's")),
        });
    }
    let actions: Vec<String> = game.moves.split_whitespace().map(action).collect();
    let actions: Vec<&str> = actions.iter().map(String::as_str).collect();
    let board: Vec<String> = bot::penguins::generate_board(game.seed)
        .chunks(8)
        .map(|row| row.iter().map(|&f| char::from(b'0' + f)).collect())
        .collect();
    let outcome = check::outcome(&board, &config.rules, players, &actions, &failed_at)
        .map_err(|e| format!("its moves do not re-play: {e}"))?;
    if game.final_scores != outcome.final_scores || game.ranks != outcome.ranks {
        return Err(format!(
            "final scores {:?} and ranks {:?}, but its moves give {:?} and {:?}",
            game.final_scores, game.ranks, outcome.final_scores, outcome.ranks
        ));
    }
    if game.turns != actions.len() {
        return Err(format!("{} turns, but {} moves", game.turns, actions.len()));
    }
    check_times(config, game, &outcome.movers)
}

/// Each seat's turn times: one first turn (within the first-turn limit) if it moved at all, then
/// one time per later move (within the turn limit), the slowest of all as its maximum.
fn check_times(config: &PlanConfig, game: &GameResult, movers: &[usize]) -> Result<(), String> {
    for seat in 0..game.seats.len() {
        let moved = movers.iter().filter(|&&p| p == seat).count();
        let first = game.first_turn_ms[seat];
        let later = &game.later_turn_ms[seat];
        let within = |t: f64, limit: u64| t >= 0.0 && t <= limit as f64;
        let max = first
            .into_iter()
            .chain(later.iter().copied())
            .fold(0.0, f64::max);
        let fits = first.is_some() == (moved > 0)
            && later.len() == moved.saturating_sub(1)
            && first.is_none_or(|t| within(t, config.first_turn_ms))
            && later.iter().all(|&t| within(t, config.turn_ms))
            && game.max_turn_ms[seat] == max;
        if !fits {
            return Err(format!(
                "seat {seat}: turn times that do not fit its {moved} moves and the limits"
            ));
        }
    }
    Ok(())
}

/// `0D4` back to `MOVE 0 D4`.
fn action(compact: &str) -> String {
    let split = compact
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(compact.len());
    format!("MOVE {} {}", &compact[..split], &compact[split..])
}

/// The turn a failure happened at, from its detail `turn N: ...`.
fn failure_turn(detail: &str) -> Option<usize> {
    detail
        .strip_prefix("turn ")?
        .split(':')
        .next()?
        .parse()
        .ok()
}
