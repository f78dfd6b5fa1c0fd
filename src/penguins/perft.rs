//! Perft: the number of legal move sequences of a given length (stuck players are skipped by the
//! rules, so a "move" is always a real action). Sequences cut short by the end of the game do not
//! count, as in chess perft.

use std::io::BufRead;

use super::protocol::{build_state, read_init, read_turn, LineReader};
use super::rules::Rules;
use super::state::{Move, MoveList, State};

pub fn perft(state: &mut State, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = state.apply(mv);
        total += perft(state, depth - 1);
        state.undo(undo);
    }
    total
}

/// Perft split by first move.
pub fn divide(state: &mut State, depth: usize) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let undo = state.apply(mv);
            let count = perft(state, depth.saturating_sub(1));
            state.undo(undo);
            (mv, count)
        })
        .collect()
}

/// Read one CodinGame position (init lines and one turn, as sent to the player to move) with no
/// tolerance for malformed lines: perft input is a file, so any problem is an error.
pub fn read_position<R: BufRead>(input: R, rules: Rules) -> Result<State, String> {
    let mut reader = LineReader::new(input);
    let init = read_init(&mut reader)?;
    let turn = read_turn(&mut reader, &init)?.ok_or_else(|| {
        format!(
            "input ended after line {} before the turn",
            reader.line_no()
        )
    })?;
    if let Some(problem) = turn.problems.first() {
        return Err(problem.clone());
    }
    let (state, _) = build_state(&init, &turn, rules)?;
    if state.to_move() != init.me || state.is_over() {
        return Err(format!(
            "player {} (playerId) has no legal move here",
            init.me
        ));
    }
    Ok(state)
}
