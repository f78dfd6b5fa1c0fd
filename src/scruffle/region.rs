//! Region repair with the line DP: after the LNS has cleared a window, every row through it gets
//! its best string given the letters around (`LineFill`), then every column through it given the
//! rows' new letters, so crossing letters are chosen together rather than word by word. The
//! greedy refill then completes what the strings left open.

use super::layout::{Dir, Layout, Placement, Pos, Segment};
use super::linefill::LineFill;
use super::plan::{Context, Plan};

/// A rectangle of cells, inclusive bounds.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub x0: usize,
    pub x1: usize,
    pub y0: usize,
    pub y1: usize,
}

impl Window {
    /// Cells in the window's rectangle (obstacles included).
    pub fn area(&self) -> usize {
        (self.x1 - self.x0 + 1) * (self.y1 - self.y0 + 1)
    }

    /// Whether the word of `len` letters at `pos` covers a cell of the window.
    pub fn touches(&self, layout: &Layout, pos: Pos, len: usize) -> bool {
        let (x, y) = layout.xy(pos);
        match pos.dir() {
            Dir::H => (self.y0..=self.y1).contains(&y) && x <= self.x1 && x + len > self.x0,
            Dir::V => (self.x0..=self.x1).contains(&x) && y <= self.y1 && y + len > self.y0,
        }
    }

    /// Remove every play of `plan` that covers a cell of the window (a subsequence of a valid
    /// order stays valid); the freed cells go to `freed`, the removed plays to `removed`.
    pub fn clear(
        &self,
        ctx: &Context,
        plan: &mut Plan,
        freed: &mut Vec<usize>,
        removed: &mut Vec<Placement>,
    ) {
        plan.remove_where(
            ctx,
            |p| {
                let hit = self.touches(ctx.layout, p.pos, ctx.words[p.word as usize].len());
                if hit {
                    removed.push(*p);
                }
                hit
            },
            freed,
        );
    }
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

/// How much of a crossing column's loss a row pays for a letter the column does not want there
/// (0.25-2 tried on bench seeds 3, 6, 7 by the improving moves they make; docs/scruffle.md).
const CROSS_SCALE: f64 = 0.5;

/// Fill the rows, then the columns, through `window` with their best strings; the score gained.
/// A row's letters are priced by the crossing columns: before the rows, one DP solve per column
/// gives the letters its best string wants on the window's empty cells and the value of its
/// occurrences over each; a row letter other than the wanted one pays that value (scaled), so
/// a hot row no longer takes the cells its crossing columns need with letters they cannot use.
pub fn refill_window(
    ctx: &Context,
    plan: &mut Plan,
    fill: &mut LineFill,
    window: &Window,
    price: f64,
) -> u64 {
    let segs = lines(ctx, window);
    // (cell, wanted letter, loss), sorted by cell.
    let mut wanted: Vec<(usize, u8, f64)> = segs
        .iter()
        .filter(|s| s.dir == Dir::V)
        .flat_map(|&seg| fill.wanted(ctx, plan, seg, price))
        .collect();
    wanted.sort_by_key(|w| w.0);
    segs.into_iter()
        .map(|seg| {
            let bonus = (seg.dir == Dir::H).then(|| row_bonus(ctx, seg, &wanted));
            fill.fill_with(ctx, plan, seg, price, bonus.as_deref())
        })
        .sum()
}

/// The letter bonus of each cell of row `seg`: minus the scaled loss of the crossing column for
/// every letter but the one it wants (0 where it wants none).
fn row_bonus(ctx: &Context, seg: Segment, wanted: &[(usize, u8, f64)]) -> Vec<[f64; 26]> {
    seg.cells(ctx.layout)
        .map(|c| match wanted.binary_search_by_key(&c, |w| w.0) {
            Ok(k) => {
                let (_, letter, loss) = wanted[k];
                let mut b = [-loss * CROSS_SCALE; 26];
                b[(letter - b'A') as usize] = 0.0;
                b
            }
            Err(_) => [0.0; 26],
        })
        .collect()
}
