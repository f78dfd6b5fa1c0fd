//! The exact solver: branch and bound over every candidate placement of a frame (`model`), cut by
//! a Lagrangian bound (`bound`), searched best first (`search`). On a small case the frame is the
//! whole board and the search proves the optimum when it ends in time; otherwise it returns the
//! best plan found and a bound on the optimum.

pub mod bound;
pub mod model;
pub mod search;

use super::layout::{Layout, Placement};
use bound::Lagrange;
use model::{Frame, Model};
use std::time::Instant;

/// Subgradient steps on the prices before the search.
const ROOT_STEPS: usize = 300;

/// What the exact solver found.
#[derive(Clone, Debug)]
pub struct Exact {
    /// The best plan: `floor`'s plays unless the search found better.
    pub plays: Vec<Placement>,
    pub score: u64,
    /// An upper bound on the optimum (the optimum itself when `proven`).
    pub bound: u64,
    pub proven: bool,
    pub nodes: u64,
    pub candidates: usize,
}

/// The best plan of the whole board: the search starts from `floor` (a valid plan and its
/// score) and stops at `deadline` or after `node_limit` nodes.
pub fn solve_board(
    layout: &Layout,
    words: &[Vec<u8>],
    floor: (&[Placement], u64),
    deadline: Instant,
    node_limit: u64,
) -> Exact {
    let frame = Frame::whole(layout, words.len());
    let model = Model::new(layout, words, &frame);
    let mut lag = Lagrange::new(&model);
    let root = lag.tighten(&model, floor.1 as f64, ROOT_STEPS);
    let found = search::search(&model, lag, floor.1, deadline, node_limit);
    let (plays, score) = match found.score > floor.1 {
        true => (placements(&model, &found.order), found.score),
        false => (floor.0.to_vec(), floor.1),
    };
    let bound = match found.complete {
        true => score,
        false => (root + 1e-6).floor().max(score as f64) as u64,
    };
    Exact {
        plays,
        score,
        bound,
        proven: found.complete,
        nodes: found.nodes,
        candidates: model.cands.len(),
    }
}

/// Candidates in play order as placements, each spelling's entries handed out in turn.
pub fn placements(model: &Model, order: &[u32]) -> Vec<Placement> {
    let mut next = vec![0usize; model.spellings.len()];
    order
        .iter()
        .map(|&k| {
            let c = &model.cands[k as usize];
            let s = c.spelling as usize;
            let word = model.spellings[s].entries[next[s]];
            next[s] += 1;
            Placement { word, pos: c.pos }
        })
        .collect()
}
