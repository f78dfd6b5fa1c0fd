//! Large-neighbourhood search: clear a window of the board (every play touching it), refill it
//! (some of the time first line by line with the line DP, `region`, then greedily, then the
//! entries its letters spell inserted where the order allows, `insert`), keep the
//! result under a falling threshold (small losses, pro rata to the window, accepted early, none
//! at the end); the best plan seen is returned. Windows are centred on double/triple cells half
//! the time, since the score concentrates there.

use super::greedy::{extend, Params, Start};
use super::insert::insert_from;
use super::layout::{Dir, Placement, Pos};
use super::linefill::LineFill;
use super::plan::{Context, Plan};
use super::region::{self, Window};
use super::solver::Budget;
use rand::Rng;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, Default)]
pub struct LnsStats {
    pub iterations: u64,
    pub improvements: u64,
    /// Times the windows had stalled and the whole board was rebuilt, and how many won.
    pub rebuilds: u64,
    pub rebuild_wins: u64,
}

/// The windows have stalled when the best plan has not improved for this many iterations and
/// for at least as many as it took to reach its last improvement (then the whole board is rebuilt
/// with `rebuild`, and the count starts again).
const STALL_MIN: u64 = 300;

/// Share of the iterations whose window is first refilled line by line with the line DP
/// (`region`); measured against 0 on bench seeds (docs/scruffle.md).
const DP_SHARE: f64 = 0.3;

/// A refill may lose up to this share of the plan's points pro rata to the window's share of the
/// open cells, falling to nothing at the end. A threshold of 0.2% of the whole plan let big boards
/// drift: one window there holds a few hundred points and every loss passed (seed 17: no better
/// plan in 290 iterations). Pro rata to the window, 17 of 20 bench seeds gained at fixed work
/// and 19 of 20 held-out seeds on the clock (docs/scruffle.md).
const LOSS_PER_WINDOW_SHARE: f64 = 0.02;

/// The loss a refill of `window` may take and still be kept, `progress` of the way through.
fn accepted_loss(best: u64, window: &Window, open_cells: usize, progress: f64) -> u64 {
    let share = window.area() as f64 / open_cells.max(1) as f64;
    (best as f64 * LOSS_PER_WINDOW_SHARE * share * (1.0 - progress).max(0.0)) as u64
}

/// Standalone candidates per start cell taken into a refill, best first (all of them made an
/// iteration four times slower for the same result per iteration).
const PER_CELL: usize = 16;

/// Improve `plan` until `deadline`, or until it reaches `ceiling` (an upper bound: the plan is then
/// optimal); `repair` are the refill greedy's knobs. When the windows stall,
/// `rebuild` is offered the best plan and may return a better one built from scratch, which the
/// search then continues from.
pub fn improve<R: Rng>(
    ctx: &Context,
    plan: Plan,
    repair: Params,
    rng: &mut R,
    budget: Budget,
    ceiling: u64,
    rebuild: &mut dyn FnMut(&Plan) -> Option<Plan>,
) -> (Plan, LnsStats) {
    let deadline = budget.deadline;
    let layout = ctx.layout;
    let (w, h) = (layout.width, layout.height);
    let hot: Vec<usize> = (0..layout.cells())
        .filter(|&c| layout.word_factor(c) > 1)
        .collect();
    let open_cells = layout.open_cells();
    let mut stats = LnsStats::default();
    let mut best = plan.clone();
    let mut plan = plan;
    let mut freed = Vec::new();
    let mut seeds = Vec::new();
    let mut extra = Vec::new();
    let mut removed = Vec::new();
    let mut mark = vec![0u32; layout.cells()];
    let mut cleared = vec![0u32; layout.cells()];
    let mut fill = LineFill::new(ctx);
    let start = Instant::now();
    let span = deadline
        .saturating_duration_since(start)
        .as_secs_f64()
        .max(1e-9);
    // Share of the run done, for the acceptance threshold: by iterations in fixed-work mode.
    let progress = |iterations: u64| match budget.lns_iterations {
        Some(limit) => iterations as f64 / limit.max(1) as f64,
        None => start.elapsed().as_secs_f64() / span,
    };
    let (mut last_improvement, mut last_rebuild) = (0u64, 0u64);
    loop {
        let more = match budget.lns_iterations {
            Some(limit) => stats.iterations < limit,
            None => Instant::now() + Duration::from_millis(2) < deadline,
        };
        if !more || best.score >= ceiling {
            break;
        }
        stats.iterations += 1;
        let stamp = stats.iterations as u32;
        let centre = if !hot.is_empty() && rng.random_bool(0.5) {
            hot[rng.random_range(0..hot.len())]
        } else {
            rng.random_range(0..layout.cells())
        };
        let (cx, cy) = (centre % w, centre / w);
        let (rx, ry) = (rng.random_range(0..4usize), rng.random_range(0..4usize));
        let (x0, x1) = (cx.saturating_sub(rx), (cx + rx).min(w - 1));
        let (y0, y1) = (cy.saturating_sub(ry), (cy + ry).min(h - 1));
        let window = Window { x0, x1, y0, y1 };
        let before = plan.clone();
        freed.clear();
        extra.clear();
        removed.clear();
        window.clear(ctx, &mut plan, &mut freed, &mut removed);
        if rng.random_bool(DP_SHARE) && region::affordable(ctx, &window) {
            region::refill_window(ctx, &mut plan, &mut fill, &window, region::LETTER_PRICE);
        }
        // Kept standalone positions over the window are refill candidates too.
        // Starts reach back along the direction by up to the longest entry.
        let reach = ctx.table.longest().saturating_sub(1);
        for dir in [Dir::H, Dir::V] {
            let (xs, ys) = match dir {
                Dir::H => (x0.saturating_sub(reach)..=x1, y0..=y1),
                Dir::V => (x0..=x1, y0.saturating_sub(reach)..=y1),
            };
            for y in ys {
                for x in xs.clone() {
                    let pos = Pos::new(dir, y * w + x);
                    let fitting = ctx
                        .table
                        .starting_at(dir, pos.start())
                        .filter(|&(_, word)| {
                            !plan.used[word as usize]
                                && window.touches(layout, pos, ctx.words[word as usize].len())
                        });
                    extra.extend(
                        fitting
                            .take(PER_CELL)
                            .map(|(_, word)| Placement { word, pos }),
                    );
                }
            }
        }
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
        for &c in &freed {
            cleared[c] = stamp;
        }
        nearest_letters(ctx, &plan, &freed, &mut mark, stamp, &mut seeds);
        let from = Start {
            seeds: &seeds,
            extra: &extra,
            revive: &removed,
        };
        extend(ctx, &mut plan, repair, from, rng, deadline);
        // The refill's letters may spell unused entries, across as well as along its plays, which
        // no play can add (they have no empty cell): inserted before the play that completed
        // them, they score. Those through the cleared cells start on the window or within
        // `reach` cells before it. Reordering the whole plan (O(plan) a try) is tried only for
        // those over a cleared cell; the others were refused when their own cells last changed.
        let (xs, ys) = (
            x0.saturating_sub(reach)..x1 + 1,
            y0.saturating_sub(reach)..y1 + 1,
        );
        insert_from(ctx, &mut plan, xs, ys, &|c| cleared[c] == stamp, deadline);

        let progress = progress(stats.iterations);
        let threshold = accepted_loss(best.score, &window, open_cells, progress);
        if plan.score > best.score {
            stats.improvements += 1;
            last_improvement = stats.iterations;
            best = plan.clone();
        }
        if plan.score.saturating_add(threshold) < before.score {
            plan = before;
        }
        let quiet = stats.iterations - last_improvement.max(last_rebuild);
        if quiet >= STALL_MIN.max(last_improvement) {
            last_rebuild = stats.iterations;
            stats.rebuilds += 1;
            if let Some(better) = rebuild(&best) {
                stats.rebuild_wins += 1;
                best = better.clone();
                plan = better;
            }
        }
    }
    (best, stats)
}

/// Every position over a freed cell that crosses a letter passes the nearest letter in one of the
/// four directions from that cell: those letters seed the refill.
fn nearest_letters(
    ctx: &Context,
    plan: &Plan,
    freed: &[usize],
    mark: &mut [u32],
    stamp: u32,
    seeds: &mut Vec<usize>,
) {
    let layout = ctx.layout;
    seeds.clear();
    for &c in freed {
        for dir in [Dir::H, Dir::V] {
            let step = layout.step(dir);
            let along = layout.along(dir, c);
            let (_, limit) = layout.line_shape(dir);
            // Backwards: at most `along` steps; forwards: at most `limit - 1 - along`.
            for (count, forward) in [(along, false), (limit - 1 - along, true)] {
                let mut cell = c;
                for _ in 0..count {
                    cell = if forward { cell + step } else { cell - step };
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(side: usize) -> Window {
        Window {
            x0: 3,
            x1: 3 + side - 1,
            y0: 5,
            y1: 5 + side - 1,
        }
    }

    #[test]
    fn accepted_loss_is_pro_rata_to_the_window_and_falls_to_nothing() {
        let best = 1_000_000;
        // A 4x4 window on 400 open cells is 4% of the board: 0.02 x 4% of the plan at the start.
        assert_eq!(accepted_loss(best, &window(4), 400, 0.0), 800);
        // The same window on a board 20 times larger may lose 20 times less.
        assert_eq!(accepted_loss(best, &window(4), 8_000, 0.0), 40);
        // Four times the area, four times the loss; half way through, half of it.
        assert_eq!(accepted_loss(best, &window(8), 8_000, 0.5), 80);
        assert_eq!(accepted_loss(best, &window(8), 8_000, 1.0), 0);
        assert_eq!(accepted_loss(best, &window(8), 8_000, 1.3), 0);
    }
}
