//! Choosing one turn's answer: rebuild the position, cross-check our move generator against the
//! listed actions, let the policy choose among the listed actions we agree with, and answer with
//! the chosen line's own text. Never an unlisted action while the list has one.

use std::collections::HashMap;
use std::time::Instant;

use super::input::{Init, Turn};
use super::position::{action_to_move, build_state};
use crate::penguins::board::{cell_name, Cell};
use crate::penguins::policy::Policy;
use crate::penguins::rules::Rules;
use crate::penguins::state::{Move, MoveList};

/// What one turn decided: the line to print and any notes for stderr.
#[derive(Debug)]
pub struct Decision {
    pub output: String,
    pub notes: Vec<String>,
}

/// Decide one turn.
pub fn decide(
    init: &Init,
    turn: &Turn,
    rules: Rules,
    policy: &mut dyn Policy,
    deadline: Instant,
) -> Decision {
    let mut notes = turn.problems.clone();
    let (state, ids) = match build_state(init, turn, rules) {
        // Asked to move in a game our early-end rule says is over: the referee's rule differs
        // (a tie, or no early end at all); search this turn without it.
        Ok((state, _)) if state.is_over() && !turn.actions.is_empty() => {
            notes.push("asked to move although our early-end rule ends the game here; searching without it".into());
            let plain = Rules {
                end_when_leader_alone: false,
                ..rules
            };
            match build_state(init, turn, plain) {
                Ok((state, ids)) => (Some(state), ids),
                Err(_) => (None, HashMap::new()),
            }
        }
        Ok((state, ids)) => (Some(state), ids),
        Err(e) => {
            notes.push(format!("cannot rebuild the position: {e}"));
            (None, HashMap::new())
        }
    };
    let mut ours = MoveList::new();
    if let Some(state) = &state {
        if state.to_move() == init.me && !state.is_over() {
            state.legal_moves(&mut ours);
        }
    }
    // Listed actions our generator also produces: the policy chooses among these.
    let mut agreed: Vec<(Move, usize)> = Vec::new();
    if let Some(state) = &state {
        let mut listed = Vec::new();
        for (index, action) in turn.actions.iter().enumerate() {
            if let Some((id, to)) = action.parsed {
                let mv = action_to_move(state, &ids, init.me, id, to);
                listed.push(mv);
                if ours.contains(&mv) {
                    agreed.push((mv, index));
                }
            }
        }
        if turn.actions_known {
            if let Some(note) = mismatch_note(&ours, &listed) {
                notes.push(note);
            }
        }
    }
    let output = if let (Some(state), false) = (&state, agreed.is_empty()) {
        let legal: Vec<Move> = agreed.iter().map(|a| a.0).collect();
        let chosen = policy.choose(state, &legal, deadline);
        let index = match agreed.iter().find(|a| a.0 == chosen) {
            Some(a) => a.1,
            None => {
                notes.push(format!(
                    "policy {} chose {chosen:?}, not a listed action; playing the first",
                    policy.name()
                ));
                agreed[0].1
            }
        };
        turn.actions[index].text.clone()
    } else if let Some(first) = turn.actions.first() {
        // The list wins even when we understand none of it.
        notes.push("no listed action matches our generator; playing the first listed".into());
        first.text.clone()
    } else {
        let why = if turn.actions_known {
            "prompted with 0 listed actions"
        } else {
            "no readable action list"
        };
        match (&state, ours.is_empty()) {
            (Some(state), false) => {
                notes.push(format!("{why}; playing a move from our own generator"));
                policy.choose(state, &ours, deadline).command()
            }
            _ => {
                notes.push(format!(
                    "{why} and no legal move of our own; answering a penguin of ours standing still"
                ));
                standing_still(turn, init.me)
            }
        }
    };
    Decision { output, notes }
}

/// The answer when nothing is listed and we know no move either (a stuck player that is prompted
/// anyway): `MOVE <id> <cell>` for one of our penguins where it stands, or the stub's own example
/// line if we have none. Any line loses if the referee holds to an empty list; this one at least
/// has the only form the stub defines and keeps one line per turn, so a referee that merely
/// skips such a turn stays in step (`WAIT` is no command of this game).
fn standing_still(turn: &Turn, me: usize) -> String {
    match turn.penguins.iter().find(|p| p.owner == me) {
        Some(p) => format!("MOVE {} {}", p.id, cell_name(p.cell)),
        None => "MOVE 0 A1".to_string(),
    }
}

/// A one-line description of the difference between our moves and the listed ones, if any.
fn mismatch_note(ours: &[Move], listed: &[Move]) -> Option<String> {
    let key = |m: &Move| (m.from, m.to);
    let mut ours_keys: Vec<_> = ours.iter().map(key).collect();
    let mut listed_keys: Vec<_> = listed.iter().map(key).collect();
    ours_keys.sort_unstable();
    ours_keys.dedup();
    listed_keys.sort_unstable();
    listed_keys.dedup();
    if ours_keys == listed_keys {
        return None;
    }
    let show = |keys: Vec<(Cell, Cell)>| {
        keys.iter()
            .take(6)
            .map(|&(f, t)| format!("{}-{}", cell_name(f), cell_name(t)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let missing: Vec<_> = listed_keys
        .iter()
        .copied()
        .filter(|k| !ours_keys.contains(k))
        .collect();
    let extra: Vec<_> = ours_keys
        .iter()
        .copied()
        .filter(|k| !listed_keys.contains(k))
        .collect();
    Some(format!(
        "move generator mismatch (the list wins): ours {} moves, listed {}; listed but not ours [{}]; ours but not listed [{}]",
        ours_keys.len(),
        listed_keys.len(),
        show(missing),
        show(extra)
    ))
}
