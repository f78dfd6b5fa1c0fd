//! Re-solve part of a plan exactly: drop some of its plays, keep the others (their letters and
//! their order), and run the candidate search over every entry left, at every position that
//! agrees with the kept letters. Which plays to drop (`drop_sets`): those below the most
//! valuable ones, or a band of parallel lines.

use super::bound::Lagrange;
use super::model::{Frame, Model};
use super::{placements, search, MAX_CANDIDATES};
use crate::scruffle::layout::Dir;
use crate::scruffle::plan::{Context, Plan};
use std::collections::HashSet;
use std::time::Instant;

/// The re-solves also drop each pair among this many top plays: on a small case whose top two
/// entries trade places, dropping one at a time never frees both spots.
const PAIRS_AMONG: usize = 4;

/// Band widths, in lines: on case 8 of the small cases the optimum re-lays the rows of a
/// six-row band (four plays moved, one added) below plays that stay, which no drop by rank
/// reaches.
const BAND_LINES: [usize; 4] = [3, 4, 5, 6];

/// Price steps before the search.
const PRICE_STEPS: usize = 100;

/// Re-solves over the drop sets of the plan (`drop_sets`), smallest first, each within
/// `node_limit` nodes and all within `work` nodes. A better plan replaces the plan and the walk
/// goes on from where it was (starting over would repeat the small re-solves that just failed);
/// it ends after a whole round without a better plan, when the work is spent, or at `deadline`.
/// Returns the best plan.
pub fn improve(
    ctx: &Context,
    mut plan: Plan,
    node_limit: u64,
    mut work: u64,
    deadline: Instant,
) -> Plan {
    let mut sets = drop_sets(ctx, &plan);
    let (mut at, mut idle) = (0, 0);
    while idle < sets.len() && work > 0 && Instant::now() < deadline {
        if at >= sets.len() {
            at = 0;
        }
        let resolved = resolve_rest(ctx, &plan, &sets[at], node_limit.min(work), deadline);
        work = work.saturating_sub(resolved.nodes);
        match resolved.better {
            Some(better) => {
                plan = better;
                sets = drop_sets(ctx, &plan);
                idle = 0;
            }
            None => idle += 1,
        }
        at += 1;
    }
    plan
}

/// The plays each re-solve keeps (a mask over `plan.plays`), fewest dropped letters first, each
/// mask once, every one dropping at least one play:
/// - by rank, for K = 1 to plays - 1: the top K plays by score; the top K but one of them (so
///   that a top play may move); the top K but two of the top `PAIRS_AMONG`;
/// - by band: the plays of one direction whose line (row for H, column for V) is one of
///   `BAND_LINES` consecutive lines; the crossing plays stay.
pub fn drop_sets(ctx: &Context, plan: &Plan) -> Vec<Vec<bool>> {
    let n = plan.plays.len();
    let mut sets = Vec::new();
    for &lines in &BAND_LINES {
        for dir in [Dir::H, Dir::V] {
            let (count, _) = ctx.layout.line_shape(dir);
            for first in 0..count.saturating_sub(lines - 1) {
                sets.push(
                    plan.plays
                        .iter()
                        .map(|p| {
                            p.pos.dir() != dir
                                || !(first..first + lines).contains(&ctx.layout.line_of(p.pos))
                        })
                        .collect(),
                );
            }
        }
    }
    let mut ranked: Vec<usize> = (0..n).collect();
    ranked.sort_by_key(|&i| std::cmp::Reverse(play_score(ctx, plan, i)));
    for k in (1..n).rev() {
        let top = k.min(PAIRS_AMONG);
        let drops = std::iter::once((None, None))
            .chain((0..k).map(|a| (Some(a), None)))
            .chain((0..top).flat_map(|a| (a + 1..top).map(move |b| (Some(a), Some(b)))));
        for (drop, drop2) in drops {
            let mut kept = vec![false; n];
            for (rank, &i) in ranked.iter().take(k).enumerate() {
                kept[i] = Some(rank) != drop && Some(rank) != drop2;
            }
            sets.push(kept);
        }
    }
    let mut seen = HashSet::new();
    sets.retain(|kept: &Vec<bool>| kept.contains(&false) && seen.insert(kept.clone()));
    let dropped = |kept: &Vec<bool>| -> usize {
        (plan.plays.iter().zip(kept))
            .filter(|(_, &k)| !k)
            .map(|(p, _)| ctx.words[p.word as usize].len())
            .sum()
    };
    // Stable: at equal size, bands before ranks, and ranks from the most kept down.
    sets.sort_by_key(dropped);
    sets
}

fn play_score(ctx: &Context, plan: &Plan, i: usize) -> u64 {
    let p = plan.plays[i];
    ctx.layout.score(&ctx.words[p.word as usize], p.pos)
}

/// What one re-solve found.
pub struct Resolved {
    /// The plan that keeps the plays marked and adds the best set the search found over the rest
    /// of the board, if it beats the plan.
    pub better: Option<Plan>,
    /// The search ended: nothing better exists below the kept plays.
    pub complete: bool,
    /// Nodes of the search.
    pub nodes: u64,
}

/// Keep the plays of `plan` marked in `kept` (in their order) and search the rest of the board
/// within `node_limit` nodes or until `deadline`. A model over `MAX_CANDIDATES` is not searched
/// (nothing found, incomplete).
pub fn resolve_rest(
    ctx: &Context,
    plan: &Plan,
    kept: &[bool],
    node_limit: u64,
    deadline: Instant,
) -> Resolved {
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
        return Resolved {
            better: None,
            complete: false,
            nodes: 0,
        };
    }
    let floor = plan.score.saturating_sub(base.score);
    let mut lag = Lagrange::new(&model);
    lag.tighten(&model, floor as f64, PRICE_STEPS);
    let found = search::search(&model, lag, floor, deadline, node_limit);
    let better = (found.score > floor).then(|| {
        for p in placements(&model, &found.order) {
            base.push(ctx, p, &mut filled);
        }
        base
    });
    Resolved {
        better,
        complete: found.complete,
        nodes: found.nodes,
    }
}
