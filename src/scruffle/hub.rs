//! Hub openings: on an empty board, lay the best row string through each double/triple cell and
//! then the best column string through it (the row's letter on the hub cell fixed), both by the
//! line DP (`LineFill`: unused entries only, a price per new letter, each occurrence given a new
//! cell of its own), hottest cells first; the packing greedy then completes the board. Crossing
//! hot lines thus get strings chosen together, where the greedy commits one word at a time.
//! A high letter price keeps only the strings worth much more per cell than the greedy's average,
//! so a hub plan is the greedy plan with its hottest lines chosen by the DP.

use super::greedy::{extend, Params, Start};
use super::layout::Dir;
use super::linefill::LineFill;
use super::plan::{Context, Plan};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Cells a hub's strings reach on each side of the hub cell (measured against 12 and 30 on bench
/// seeds 1-8, docs/scruffle.md).
const REACH: usize = 20;

/// Letter prices of the hub runs, as multiples of the reference plan's points per filled cell
/// (from 2 to 14 tried: low prices fill the hot lines with cheap short words and lose to the
/// greedy by 5-35%; the best run is kept).
const PRICE_MULTIPLES: [f64; 3] = [5.0, 8.0, 12.0];

/// Node-steps of the line DP one hub run may spend (fixed-work runs stay deterministic and a huge
/// automaton cannot eat the budget): about a second of DP.
const WORK: usize = 400_000_000;

/// Mixed into the solver seed for the hub runs' random stream, so the search that follows sees the
/// same draws whether or not a hub plan wins.
const STREAM: u64 = 0x4855_4220_4f50_454e;

/// The best of the hub runs, each completed by the greedy with cell price `alpha`; prices come
/// from `reference` (the best opening so far). Nothing runs past `deadline`; `None` if no run
/// started.
pub fn best_hub_plan(
    ctx: &Context,
    reference: &Plan,
    alpha: f32,
    seed: u64,
    deadline: Instant,
) -> Option<Plan> {
    let filled = (0..ctx.layout.cells())
        .filter(|&c| reference.grid.letter(c) != 0)
        .count();
    let cell_value = reference.score as f64 / filled.max(1) as f64;
    let mut fill = LineFill::new(ctx);
    let mut best: Option<Plan> = None;
    for m in PRICE_MULTIPLES {
        if Instant::now() >= deadline {
            break;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ STREAM);
        let plan = hub_plan(ctx, &mut fill, m * cell_value, alpha, &mut rng, deadline);
        if best.as_ref().is_none_or(|b| plan.score > b.score) {
            best = Some(plan);
        }
    }
    best
}

/// One hub run: hubs at letter price `price`, then the greedy.
fn hub_plan<R: Rng>(
    ctx: &Context,
    fill: &mut LineFill,
    price: f64,
    alpha: f32,
    rng: &mut R,
    deadline: Instant,
) -> Plan {
    let mut plan = Plan::empty(ctx);
    lay_hubs(ctx, &mut plan, fill, price, rng, deadline);
    let params = Params::opening(alpha);
    let seeds: Vec<usize> = (0..ctx.layout.cells())
        .filter(|&c| plan.grid.letter(c) != 0)
        .collect();
    let from = Start {
        seeds: &seeds,
        ..Start::default()
    };
    extend(ctx, &mut plan, params, from, rng, deadline);
    plan
}

/// The hub cells, hottest first: by the product of the word factors within reach along the row
/// and along the column (a T where hot lines cross before a lone D); ties in a seeded order.
fn hub_order<R: Rng>(ctx: &Context, rng: &mut R) -> Vec<usize> {
    let layout = ctx.layout;
    let heat = |c: usize| -> f64 {
        [Dir::H, Dir::V]
            .into_iter()
            .filter_map(|dir| layout.segment_around(dir, c, REACH, REACH))
            .map(|seg| {
                seg.cells(layout)
                    .map(|d| layout.word_factor(d) as f64)
                    .product::<f64>()
            })
            .product()
    };
    let mut cells: Vec<(f64, usize)> = (0..layout.cells())
        .filter(|&c| layout.is_open(c) && layout.word_factor(c) > 1)
        .map(|c| (heat(c), c))
        .collect();
    cells.shuffle(rng);
    cells.sort_by(|a, b| b.0.total_cmp(&a.0));
    cells.into_iter().map(|(_, c)| c).collect()
}

/// Add the row then the column string through each hub cell to `plan` (normally empty), until the
/// work cap or `deadline`; returns the score gained.
pub fn lay_hubs<R: Rng>(
    ctx: &Context,
    plan: &mut Plan,
    fill: &mut LineFill,
    price: f64,
    rng: &mut R,
    deadline: Instant,
) -> u64 {
    let layout = ctx.layout;
    let nodes = ctx.automaton.nodes();
    let mut work = 0;
    let before = plan.score;
    'hubs: for c in hub_order(ctx, rng) {
        for dir in [Dir::H, Dir::V] {
            let Some(seg) = layout.segment_around(dir, c, REACH, REACH) else {
                continue;
            };
            work += nodes * seg.len;
            if work > WORK || Instant::now() >= deadline {
                break 'hubs;
            }
            fill.fill(ctx, plan, seg, price);
        }
    }
    plan.score - before
}
