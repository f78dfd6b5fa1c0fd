//! Rebuilding the rules' position from one turn's input. The input lists only the penguins on the
//! board, under CodinGame's ids (which may be numbered in any order); ours are
//! `owner * per_player + k`, so each owner's penguins are renumbered in CodinGame-id order and the
//! map between the two is returned. A penguin missing from the list was either not placed yet or
//! pushed into the sea.

use std::collections::HashMap;

use super::input::{Init, Turn};
use crate::penguins::board::{Cell, CELLS, NO_CELL};
use crate::penguins::rules::Rules;
use crate::penguins::state::{Move, State};

/// The position a turn describes, with `init.me` to move, and the map from CodinGame penguin ids
/// to ours.
pub fn build_state(
    init: &Init,
    turn: &Turn,
    rules: Rules,
) -> Result<(State, HashMap<u32, usize>), String> {
    let mut fish = [0u8; CELLS];
    fish.copy_from_slice(&turn.fish);
    let mut lines = turn.penguins.clone();
    lines.sort_by_key(|p| (p.owner, p.id));
    let mut ids = HashMap::new();
    let mut rank = vec![0usize; init.players];
    let mut placed = Vec::new();
    for p in &lines {
        if ids.contains_key(&p.id) {
            return Err(format!("penguin id {} listed twice", p.id));
        }
        ids.insert(p.id, p.owner * init.per_player + rank[p.owner]);
        rank[p.owner] += 1;
        placed.push((p.owner, p.cell));
    }
    let mut state = State::from_position(
        rules,
        init.players,
        init.per_player,
        &fish,
        &placed,
        &turn.scores,
        init.me,
    )?;
    if placement_is_over(turn, &ids, placed.len(), init) {
        state.end_placement();
    }
    Ok((state, ids))
}

/// Whether penguins missing from the input were pushed into the sea rather than not yet placed.
/// The listed actions tell: slides name penguins on the board, a placement names one that is not.
/// Without a readable list, a board that has lost a tile is past placement (placing never removes
/// a tile; the generated board has 60).
fn placement_is_over(turn: &Turn, ids: &HashMap<u32, usize>, on_board: usize, init: &Init) -> bool {
    if on_board == init.players * init.per_player {
        return false; // nobody is missing: nothing to decide
    }
    let parsed: Vec<u32> = turn
        .actions
        .iter()
        .filter_map(|a| a.parsed.map(|p| p.0))
        .collect();
    if !parsed.is_empty() {
        return parsed.iter().all(|id| ids.contains_key(id));
    }
    turn.fish.iter().filter(|&&f| f > 0).count() < 60
}

/// A listed action as a move in `state`: a penguin on the board slides, any other id places.
pub fn action_to_move(
    state: &State,
    ids: &HashMap<u32, usize>,
    me: usize,
    id: u32,
    to: Cell,
) -> Move {
    match ids
        .get(&id)
        .and_then(|&ours| Some((ours, state.penguin_cell(ours)?)))
    {
        Some((ours, from)) => Move {
            penguin: ours as u8,
            from,
            to,
        },
        None => Move {
            penguin: state.next_unplaced(me).unwrap_or(0) as u8,
            from: NO_CELL,
            to,
        },
    }
}
