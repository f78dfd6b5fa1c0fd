//! The exact solver. On the whole board, `branch` splits on the letters of the cells, bounded by
//! U4's dual (`dual`); where a node's rows and columns agree, the candidate search closes it:
//! branch and bound over every candidate placement that keeps to the node's letters (`model`),
//! cut by a Lagrangian bound (`bound`), best first (`search`). When the search ends it has
//! proved the optimum; otherwise it returns the best plan found and a bound on the optimum.
//! `keep` runs the same candidate search over the board a plan leaves when some of its plays are
//! dropped (those below the most valuable ones, or a band of lines);
//! `rens` runs it over the candidates a clique relaxation of the whole board uses.

pub mod bound;
pub mod branch;
pub mod keep;
pub mod model;
pub mod rens;
pub mod search;

use super::bounds;
use super::layout::{Layout, Placement};
use super::plan::{Context, Plan};
use bound::Lagrange;
use model::{Frame, Model};
use std::time::Instant;

/// Cases the exact search suits: at most this many open cells (the statement's smallest boards
/// are 10x10 to 15x15) and automaton nodes (a node of the search costs a few dozen sweeps of every
/// row and column).
const SMALL_CELLS: usize = 256;
const SMALL_NODES: usize = 4000;

/// Candidates of one re-solve's model at most (`keep`, `rens`): beyond, it is not tried.
pub const MAX_CANDIDATES: usize = 20_000;

/// Is the case small enough for the exact search to run on the whole board?
pub fn suits(ctx: &Context) -> bool {
    ctx.layout.open_cells() <= SMALL_CELLS && ctx.automaton.nodes() <= SMALL_NODES
}

/// The best plan of the whole board by branch and bound on the letters (`branch`), from the
/// plan `floor` (valid, in play order), until `deadline` or `node_limit` nodes.
pub fn solve_board(
    ctx: &Context,
    floor: &[Placement],
    deadline: Instant,
    node_limit: u64,
) -> Exact {
    let start = Plan::from_plays(ctx, floor);
    let (simple, dual) = bounds::u4_dual(
        ctx.layout,
        ctx.words,
        ctx.table,
        start.score,
        Some(deadline),
    );
    let found = branch::search(ctx, dual, start, deadline, node_limit);
    // min(U2, U3) bounds the optimum too (the search's bound may be looser, and when the search
    // is cut short before any sweep it bounds nothing), unless the position table was cut short
    // (entries left out of it count nothing there).
    let simple = (!ctx.table.truncated()).then_some(simple.u3);
    let bound = match (found.complete, found.bound.is_finite()) {
        (true, _) => Some(found.score),
        (false, true) => {
            let searched = bounds::round_up(found.bound).max(found.score);
            Some(simple.map_or(searched, |s| s.min(searched)))
        }
        (false, false) => simple,
    };
    Exact {
        bound,
        plays: found.plays,
        score: found.score,
        proven: found.complete,
        nodes: found.nodes,
    }
}

/// The best plan among the candidates that put only allowed letters on each cell (`allowed`
/// masks as in `dual`), by the candidate search with `steps` price steps, if it ends within
/// `node_limit` nodes: (plays in order, score). The optimum of every plan that keeps to
/// `allowed` or leaves some of its cells blank.
pub fn solve_within(
    layout: &Layout,
    words: &[Vec<u8>],
    allowed: &[u32],
    floor: u64,
    steps: usize,
    deadline: Instant,
    node_limit: u64,
) -> Option<(Vec<Placement>, u64)> {
    let mut frame = Frame::whole(layout, words.len());
    frame.allowed = Some(allowed.to_vec());
    let model = Model::new(layout, words, &frame);
    let mut lag = Lagrange::new(&model);
    lag.tighten(&model, floor as f64, steps);
    let found = search::search(&model, lag, floor, deadline, node_limit);
    found.complete.then(|| match found.score > floor {
        true => (placements(&model, &found.order), found.score),
        false => (Vec::new(), 0),
    })
}

/// What the exact solver found.
#[derive(Clone, Debug)]
pub struct Exact {
    /// The best plan: `floor`'s plays unless the search found better.
    pub plays: Vec<Placement>,
    pub score: u64,
    /// An upper bound on the optimum (the optimum itself when `proven`), if the search or U2
    /// and U3 give one.
    pub bound: Option<u64>,
    pub proven: bool,
    pub nodes: u64,
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
