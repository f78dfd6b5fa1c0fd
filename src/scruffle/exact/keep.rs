//! Keep the plan's most valuable plays and re-solve the rest of the board exactly: the candidate
//! search over every entry left, at every position that agrees with the kept letters.

use super::bound::Lagrange;
use super::model::{Frame, Model};
use super::{placements, search, MAX_CANDIDATES};
use crate::scruffle::plan::{Context, Plan};
use std::time::Instant;

/// The re-solves also drop each pair among this many top plays: on a small case whose top two
/// entries trade places, dropping one at a time never frees both spots.
const PAIRS_AMONG: usize = 4;

/// Price steps before the search.
const PRICE_STEPS: usize = 100;

/// Re-solves from the most valuable plays down: for K = plays - 1 down to 1, keep the top K, and
/// then the top K but one (each of them in turn, so that a top play may move), then the top K but
/// two of the top `PAIRS_AMONG`; take the first better plan and start over. Stops when keeping
/// the top K alone is no longer searched to the end within `node_limit` nodes (fewer kept plays
/// would leave a larger search), after `max_resolves` re-solves, or at `deadline`. Returns the
/// best plan.
pub fn improve(
    ctx: &Context,
    mut plan: Plan,
    node_limit: u64,
    max_resolves: u64,
    deadline: Instant,
) -> Plan {
    let mut resolves = 0;
    'restart: loop {
        let n = plan.plays.len();
        let mut ranked: Vec<usize> = (0..n).collect();
        let score_of = |i: usize| {
            let p = plan.plays[i];
            ctx.layout.score(&ctx.words[p.word as usize], p.pos)
        };
        ranked.sort_by_key(|&i| std::cmp::Reverse(score_of(i)));
        for k in (1..n).rev() {
            let mut whole_complete = true;
            // Keep all of the top K, or all but one of them, or all but two of the top few.
            let top = k.min(PAIRS_AMONG);
            let drops = std::iter::once((None, None))
                .chain((0..k).map(|a| (Some(a), None)))
                .chain((0..top).flat_map(|a| (a + 1..top).map(move |b| (Some(a), Some(b)))));
            for (drop, drop2) in drops {
                if resolves >= max_resolves || Instant::now() >= deadline {
                    break 'restart;
                }
                let mut kept = vec![false; n];
                for (rank, &i) in ranked.iter().take(k).enumerate() {
                    kept[i] = Some(rank) != drop && Some(rank) != drop2;
                }
                resolves += 1;
                let (better, complete) = resolve_rest(ctx, &plan, &kept, node_limit, deadline);
                whole_complete &= drop.is_some() || complete;
                if let Some(better) = better {
                    plan = better;
                    continue 'restart;
                }
            }
            if !whole_complete {
                break;
            }
        }
        break;
    }
    plan
}

/// The plan that keeps the plays of `plan` marked in `kept` (in their order) and adds the best set
/// the candidate search finds over the rest of the board, if it beats `plan`; and whether the
/// search was complete.
pub fn resolve_rest(
    ctx: &Context,
    plan: &Plan,
    kept: &[bool],
    node_limit: u64,
    deadline: Instant,
) -> (Option<Plan>, bool) {
    let layout = ctx.layout;
    let mut base = Plan::empty(ctx);
    let mut filled = Vec::new();
    for (i, &p) in plan.plays.iter().enumerate() {
        if kept[i] {
            base.push(ctx, p, &mut filled);
        }
    }
    let frame = Frame {
        free: (0..layout.cells())
            .map(|c| layout.is_open(c) && base.grid.letter(c) == 0)
            .collect(),
        letters: (0..layout.cells()).map(|c| base.grid.letter(c)).collect(),
        available: base.used.iter().map(|&u| !u).collect(),
        starts: None,
        allowed: None,
    };
    let model = Model::new(layout, ctx.words, &frame);
    if model.cands.len() > MAX_CANDIDATES {
        return (None, false);
    }
    let floor = plan.score.saturating_sub(base.score);
    let mut lag = Lagrange::new(&model);
    lag.tighten(&model, floor as f64, PRICE_STEPS);
    let found = search::search(&model, lag, floor, deadline, node_limit);
    if found.score <= floor {
        return (None, found.complete);
    }
    for p in placements(&model, &found.order) {
        base.push(ctx, p, &mut filled);
    }
    (Some(base), found.complete)
}
