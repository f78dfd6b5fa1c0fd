//! Region repair with the line DP: after the LNS has cleared a window, every row through it gets
//! its best string given the letters around (`LineFill`), then every column through it given the
//! rows' new letters, so crossing letters are chosen together rather than word by word. The
//! greedy refill then completes what the strings left open.

use super::layout::{Dir, Segment};
use super::linefill::{FillPrices, LineFill};
use super::plan::{Context, Plan};

/// A rectangle of cells, inclusive bounds.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub x0: usize,
    pub x1: usize,
    pub y0: usize,
    pub y1: usize,
}

/// Cells a line string may reach beyond the window on each side.
pub const REACH: usize = 10;

/// Price of a letter on an empty cell in a repair (what a cell is worth elsewhere; measured on
/// bench seeds 3, 5, 7, 13, 15, 16 against 20 and against the greedy refill alone).
pub const LETTER_PRICE: f64 = 5.0;

/// Does the DP refill of one window stay cheap (about a million node-steps per line at most)?
/// Huge word lists make the automaton too big for a repair move.
pub fn affordable(ctx: &Context, window: &Window) -> bool {
    let span = (window.x1 - window.x0).max(window.y1 - window.y0) + 1 + 2 * REACH;
    ctx.automaton.nodes() * span <= 4_000_000
}

/// The sub-segments through the window: one per open run of each row, then of each column.
fn lines(ctx: &Context, w: &Window) -> Vec<Segment> {
    let layout = ctx.layout;
    let width = layout.width;
    let mut out = Vec::new();
    for y in w.y0..=w.y1 {
        for x in w.x0..=w.x1 {
            let c = y * width + x;
            if x == w.x0 || !layout.is_open(c - 1) {
                out.extend(layout.segment_around(Dir::H, c, REACH, w.x1 - x + REACH));
            }
        }
    }
    for x in w.x0..=w.x1 {
        for y in w.y0..=w.y1 {
            let c = y * width + x;
            if y == w.y0 || !layout.is_open(c - width) {
                out.extend(layout.segment_around(Dir::V, c, REACH, w.y1 - y + REACH));
            }
        }
    }
    out
}

/// Fill the rows, then the columns, through `window` with their best strings; the score gained.
pub fn refill_window(
    ctx: &Context,
    plan: &mut Plan,
    fill: &mut LineFill,
    window: &Window,
    prices: FillPrices,
) -> u64 {
    lines(ctx, window)
        .into_iter()
        .map(|seg| fill.fill(ctx, plan, seg, prices))
        .sum()
}

fn knob(name: &str, default: f64) -> f64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `refill_window`, each line's letters priced by what they cost the crossing lines
/// (`LineFill::crossing_bonus`), within `work` node-steps of pricing.
pub fn refill_window_crossing(
    ctx: &Context,
    plan: &mut Plan,
    fill: &mut LineFill,
    window: &Window,
    prices: FillPrices,
) -> u64 {
    let reach = knob("CROSS_REACH", 10.0) as usize;
    let mut work = knob("CROSS_WORK", 2e8) as usize;
    let scale = knob("CROSS_SCALE", 1.0);
    let passes = knob("CROSS_PASSES", 1.0) as usize;
    let price = vec![knob("CROSS_PRICE", LETTER_PRICE); ctx.layout.cells()];
    let prices = FillPrices {
        cell: &price,
        ..prices
    };
    let mut gained = 0;
    if knob("CROSS_CHEAP", 0.0) > 0.0 {
        return refill_window_cheap(ctx, plan, fill, window, prices, scale);
    }
    for _ in 0..passes {
        for seg in lines(ctx, window) {
            let mut bonus = fill.crossing_bonus(ctx, plan, seg, prices, reach, &mut work);
            bonus.iter_mut().flatten().for_each(|b| *b *= scale);
            gained += fill.fill_with(ctx, plan, seg, prices, Some(&bonus));
        }
    }
    gained
}

/// Cheap crossing prices: one solve per column through the window gives the letters it wants and
/// what it loses per cell; the rows are priced by that, then the columns refilled unpriced.
pub fn refill_window_cheap(
    ctx: &Context,
    plan: &mut Plan,
    fill: &mut LineFill,
    window: &Window,
    prices: FillPrices,
    scale: f64,
) -> u64 {
    let segs = lines(ctx, window);
    let mut want: std::collections::HashMap<usize, (u8, f64)> = Default::default();
    for seg in segs.iter().filter(|s| s.dir == super::layout::Dir::V) {
        for (c, l, loss) in fill.wanted(ctx, plan, *seg, prices) {
            want.insert(c, (l, loss));
        }
    }
    let mut gained = 0;
    for seg in segs {
        let bonus: Vec<[f64; 26]> = seg
            .cells(ctx.layout)
            .map(|c| match want.get(&c) {
                Some(&(l, loss)) if seg.dir == super::layout::Dir::H => {
                    let mut b = [-loss * scale; 26];
                    b[(l - b'A') as usize] = 0.0;
                    b
                }
                _ => [0.0; 26],
            })
            .collect();
        gained += fill.fill_with(ctx, plan, seg, prices, Some(&bonus));
    }
    gained
}
