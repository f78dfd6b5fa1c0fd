//! Exact window repair: after the LNS clears a window, the best set of plays over the emptied
//! cells, with the rest of the plan fixed (its letters may be crossed, not changed), found by the
//! candidate search of the small-case solver, and appended to the plan in a valid order.

use super::bound::Lagrange;
use super::model::{Frame, Model};
use super::{placements, search};
use crate::scruffle::layout::Placement;
use crate::scruffle::plan::{Context, Plan};
use std::time::Instant;

/// Candidates of one window at most: beyond this the model costs more than the greedy refill of
/// many windows.
const MAX_CANDIDATES: usize = 3_000;

/// Spellings x start positions tried at most for a model of every entry at every position; above
/// it (large word lists) the model holds only the caller's `hints`.
const MAX_TRIES: usize = 200_000;

/// Price steps before the search (the root bound only orders the cuts; a window is small).
const PRICE_STEPS: usize = 20;

/// Append to `plan` the best plays over the empty cells `free` (cleared by the caller) that start
/// in `starts` (x0, x1, y0, y1 of start cells), searched until `node_limit` nodes or `deadline`;
/// on large word lists only among `hints`. Returns whether the search was complete (its set is
/// the optimum of its candidates).
pub fn refill(
    ctx: &Context,
    plan: &mut Plan,
    free: &[usize],
    starts: (usize, usize, usize, usize),
    hints: &[Placement],
    node_limit: u64,
    deadline: Instant,
) -> bool {
    let layout = ctx.layout;
    let mut frame = Frame {
        free: vec![false; layout.cells()],
        letters: (0..layout.cells()).map(|c| plan.grid.letter(c)).collect(),
        available: plan.used.iter().map(|&u| !u).collect(),
        starts: Some(starts),
        allowed: None,
    };
    for &c in free {
        frame.free[c] = layout.is_open(c) && frame.letters[c] == 0;
    }
    let (x0, x1, y0, y1) = starts;
    let tries = (x1 - x0 + 1) * (y1 - y0 + 1) * 2 * ctx.words.len();
    let model = match tries <= MAX_TRIES {
        true => Model::new(layout, ctx.words, &frame),
        false => Model::among(layout, ctx.words, &frame, hints),
    };
    if model.cands.is_empty() || model.cands.len() > MAX_CANDIDATES {
        return false;
    }
    let mut lag = Lagrange::new(&model);
    lag.tighten(&model, 0.0, PRICE_STEPS);
    let found = search::search(&model, lag, 0, deadline, node_limit);
    let mut filled = Vec::new();
    for p in placements(&model, &found.order) {
        plan.push(ctx, p, &mut filled);
    }
    found.complete
}
