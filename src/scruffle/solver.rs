//! The anytime solver: a few packing-greedy runs with different cell prices, then large-neighbourhood
//! search on the best plan until the deadline — clear a random window (every play touching it), refill
//! it greedily from the crossings around it, keep the result if it scores at least as much.

use super::baseline::naive_greedy;
use super::greedy::{extend, Context, Params, Plan};
use super::insert::{insert_pass, Spellings};
use super::layout::{Dir, Placement};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// What the solver did, for reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub greedy_runs: u32,
    pub greedy_score: u64,
    pub best_alpha: f32,
    pub best_prefix: f32,
    pub lns_iterations: u64,
    pub lns_improvements: u64,
    pub inserted: u64,
    pub after_insert: u64,
}

pub struct Solution {
    pub plays: Vec<Placement>,
    pub score: u64,
    pub stats: Stats,
}

/// Opening greedy runs, most useful first: (share of the naive greedy's plays kept as a start,
/// cell price `Params::alpha`). Keeping the naive prefix grabs the hottest spans with the best
/// entries; the packing greedy then fills around them.
const OPENINGS: [(f32, f32); 9] = [
    (0.0, 0.0),
    (1.0, 0.0),
    (0.3, 0.0),
    (0.0, 1.0),
    (0.6, 0.0),
    (0.1, 0.0),
    (0.3, 1.0),
    (0.0, 3.0),
    (0.0, 1000.0),
];

pub fn solve(ctx: &Context, seed: u64, deadline: Instant) -> Solution {
    let start = Instant::now();
    let budget = deadline.saturating_duration_since(start);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut stats = Stats::default();
    let naive = naive_greedy(ctx.layout, ctx.words, ctx.table);

    // Opening: greedy runs within ~40% of the budget (the first always runs).
    let opening_end = start + budget.mul_f64(0.4);
    let mut best: Option<Plan> = None;
    let mut filled = Vec::new();
    for &(prefix, alpha) in &OPENINGS {
        if best.is_some() && Instant::now() >= opening_end {
            break;
        }
        let params = Params {
            alpha,
            new_cap: if alpha >= 3.0 { 12 } else { 4 },
            noise: 0.0,
            standalone: true,
        };
        let mut plan = Plan::empty(ctx);
        filled.clear();
        for &p in &naive[..(naive.len() as f32 * prefix) as usize] {
            plan.push(ctx, p, &mut filled);
        }
        extend(ctx, &mut plan, params, &filled, &[], &mut rng, deadline);
        stats.greedy_runs += 1;
        if best.as_ref().is_none_or(|b| plan.score > b.score) {
            stats.best_alpha = alpha;
            stats.best_prefix = prefix;
            best = Some(plan);
        }
    }
    let mut plan = best.expect("the first greedy run always happens");
    stats.greedy_score = plan.score;
    let spellings = Spellings::new(ctx.words);
    stats.inserted += insert_pass(ctx, &spellings, &mut plan) as u64;
    stats.after_insert = plan.score;

    let repair = Params {
        alpha: stats.best_alpha,
        new_cap: 6,
        noise: 0.15,
        standalone: false,
    };
    let (w, h) = (ctx.layout.width, ctx.layout.height);
    let mut freed = Vec::new();
    let mut seeds = Vec::new();
    let mut mark = vec![0u32; ctx.layout.cells()];
    let mut removed = Vec::new();
    while Instant::now() + Duration::from_millis(2) < deadline {
        stats.lns_iterations += 1;
        let stamp = stats.lns_iterations as u32;
        let cx = rng.random_range(0..w);
        let cy = rng.random_range(0..h);
        let rx = rng.random_range(0..4usize);
        let ry = rng.random_range(0..4usize);
        let (x0, x1) = (cx.saturating_sub(rx), (cx + rx).min(w - 1));
        let (y0, y1) = (cy.saturating_sub(ry), (cy + ry).min(h - 1));
        let layout = ctx.layout;
        let touches = |p: &Placement| {
            let (x, y) = layout.xy(p.pos);
            let len = ctx.words[p.word as usize].len();
            match p.pos.dir() {
                Dir::H => y >= y0 && y <= y1 && x <= x1 && x + len > x0,
                Dir::V => x >= x0 && x <= x1 && y <= y1 && y + len > y0,
            }
        };
        let before = plan.clone();
        freed.clear();
        removed.clear();
        plan.remove_where(
            ctx,
            |p| {
                let hit = touches(p);
                if hit {
                    removed.push(*p);
                }
                hit
            },
            &mut freed,
        );
        for &c in &freed {
            mark[c] = stamp;
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * w + x;
                if layout.is_open(c) && plan.grid.letter(c) == 0 && mark[c] != stamp {
                    mark[c] = stamp;
                    freed.push(c);
                }
            }
        }
        // Every position over a freed cell that crosses a letter passes the nearest letter in one
        // of the four directions: those letters seed the refill.
        seeds.clear();
        for &c in &freed {
            for dir in [Dir::H, Dir::V] {
                let step = layout.step(dir);
                let along = layout.along(dir, c);
                let limit = if dir == Dir::H { w } else { h };
                for forward in [false, true] {
                    let mut i = along;
                    let mut cell = c;
                    loop {
                        if forward {
                            if i + 1 >= limit {
                                break;
                            }
                            i += 1;
                            cell += step;
                        } else {
                            if i == 0 {
                                break;
                            }
                            i -= 1;
                            cell -= step;
                        }
                        if !layout.is_open(cell) {
                            break;
                        }
                        if plan.grid.letter(cell) != 0 {
                            if mark[cell] != stamp {
                                mark[cell] = stamp;
                                seeds.push(cell);
                            }
                            break;
                        }
                    }
                }
            }
        }
        extend(ctx, &mut plan, repair, &seeds, &removed, &mut rng, deadline);
        if plan.score > before.score {
            stats.lns_improvements += 1;
        }
        if plan.score < before.score {
            plan = before;
        }
    }
    Solution {
        plays: plan.plays,
        score: plan.score,
        stats,
    }
}
