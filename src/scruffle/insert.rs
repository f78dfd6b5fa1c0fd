//! Sub-word insertion: a list entry already spelled on the board (ATE inside PLATE, or letters laid
//! by crossing words) scores again if it is played *before* the play that completed it. Inserting
//! entry Y just before play m — the last play to fill one of Y's cells — gives Y the cells m filled
//! first inside Y's span; every other play keeps its new cells, so the order stays valid as long as
//! m keeps a new cell outside Y. When it does not, another order of all the plays may still give
//! everyone a new cell (m played before an earlier play it crosses, say): peeling from the end
//! finds one if there is any. A trie walk along every line finds the candidates.

use super::layout::{Dir, Layout, Placement, Pos, DIRS};
use super::plan::{Context, Plan};
use crate::words::Trie;
use std::ops::Range;
use std::time::Instant;

/// For every cell, the index (in play order) of the play that first filled it.
fn first_fill(ctx: &Context, plays: &[Placement]) -> Vec<u32> {
    let mut owner = vec![u32::MAX; ctx.layout.cells()];
    for (i, p) in plays.iter().enumerate() {
        for c in ctx.layout.span(p.pos, ctx.words[p.word as usize].len()) {
            if owner[c] == u32::MAX {
                owner[c] = i as u32;
            }
        }
    }
    owner
}

/// Is `cell` inside the span of `len` letters at `pos`?
fn in_span(layout: &Layout, pos: Pos, len: usize, cell: usize) -> bool {
    let (x0, y0) = layout.xy(pos);
    let (x, y) = (cell % layout.width, cell / layout.width);
    match pos.dir() {
        Dir::H => y == y0 && x >= x0 && x < x0 + len,
        Dir::V => x == x0 && y >= y0 && y < y0 + len,
    }
}

/// The last play to fill a cell of `word` at `pos` (all its cells already filled), and whether it
/// keeps a new cell outside that span (then `word` can be inserted just before it).
fn last_filler(
    ctx: &Context,
    plays: &[Placement],
    owner: &[u32],
    word: usize,
    pos: Pos,
) -> Option<(usize, bool)> {
    let len = ctx.words[word].len();
    let m = ctx.layout.span(pos, len).map(|c| owner[c]).max()? as usize;
    let host = plays[m];
    let host_len = ctx.words[host.word as usize].len();
    let keeps = ctx
        .layout
        .span(host.pos, host_len)
        .any(|c| owner[c] == m as u32 && !in_span(ctx.layout, pos, len, c));
    Some((m, keeps))
}

/// Insert every entry found spelled on the board wherever some order of the plays allows (until
/// `deadline`); returns how many.
pub fn insert_pass(ctx: &Context, plan: &mut Plan, deadline: Instant) -> usize {
    let layout = ctx.layout;
    insert_from(
        ctx,
        plan,
        0..layout.width,
        0..layout.height,
        &|_| true,
        deadline,
    )
}

/// `insert_pass` for the spellings that start on the cells of columns `xs` and rows `ys` (read
/// rightwards and downwards). Reordering the whole plan is tried only for spellings over a cell
/// where `changed` holds: elsewhere an earlier pass found no order (one may appear when plays far
/// away change; such a spelling waits until its own cells change).
pub fn insert_from(
    ctx: &Context,
    plan: &mut Plan,
    xs: Range<usize>,
    ys: Range<usize>,
    changed: &dyn Fn(usize) -> bool,
    deadline: Instant,
) -> usize {
    let spellings = &ctx.spellings;
    let layout = ctx.layout;
    let mut owner = first_fill(ctx, &plan.plays);
    let mut inserted = 0;
    let mut filled = Vec::new();
    let starts = ys.flat_map(|y| xs.clone().map(move |x| (x, y * layout.width + x)));
    for (x, start) in starts {
        if x == xs.start && Instant::now() >= deadline {
            break;
        }
        if plan.grid.letter(start) == 0 {
            continue;
        }
        for dir in DIRS {
            let step = layout.step(dir);
            let limit = match dir {
                Dir::H => layout.width,
                Dir::V => layout.height,
            };
            let first = layout.along(dir, start);
            let mut node = Trie::ROOT;
            let mut len = 0;
            while first + len < limit {
                let letter = plan.grid.letter(start + len * step);
                let Some(next) = (letter != 0)
                    .then(|| spellings.trie.child(node, letter))
                    .flatten()
                else {
                    break;
                };
                node = next;
                len += 1;
                if !spellings.trie.is_terminal(node) {
                    continue;
                }
                let pos = Pos::new(dir, start);
                for &word in spellings.entries(node) {
                    if plan.used[word as usize] {
                        continue;
                    }
                    let Some((m, keeps)) =
                        last_filler(ctx, &plan.plays, &owner, word as usize, pos)
                    else {
                        continue;
                    };
                    let p = Placement { word, pos };
                    filled.clear();
                    if keeps {
                        plan.insert(ctx, m, p, &mut filled);
                    } else if let Some(order) = layout
                        .span(pos, ctx.words[word as usize].len())
                        .any(changed)
                        .then(|| reorder_with(ctx, plan, p))
                        .flatten()
                    {
                        *plan = Plan::from_plays(ctx, &order);
                    } else {
                        continue;
                    }
                    debug_assert!(filled.is_empty());
                    owner = first_fill(ctx, &plan.plays);
                    inserted += 1;
                }
            }
        }
    }
    inserted
}

/// A valid order of `plan`'s plays and `extra` together, if there is one. Peeled from the end: the
/// last play must own a cell no other remaining play covers, and any such play can go last (the
/// rest of a valid order stays valid without it), so the peeling fails only if no order exists.
/// A cell's covering plays are kept as a count and the XOR of their ids, which names the one
/// left when the count falls to 1.
fn reorder_with(ctx: &Context, plan: &Plan, extra: Placement) -> Option<Vec<Placement>> {
    let layout = ctx.layout;
    let plays: Vec<Placement> = plan.plays.iter().copied().chain([extra]).collect();
    let mut cover = vec![0u32; layout.cells()];
    let mut xor = vec![0u32; layout.cells()];
    let span = |i: usize| layout.span(plays[i].pos, ctx.words[plays[i].word as usize].len());
    for i in 0..plays.len() {
        for c in span(i) {
            cover[c] += 1;
            xor[c] ^= i as u32 + 1;
        }
    }
    // Cells only the play covers, and the plays that have one (in any order: each can go last).
    let mut private: Vec<u32> = (0..plays.len())
        .map(|i| span(i).filter(|&c| cover[c] == 1).count() as u32)
        .collect();
    let mut ready: Vec<usize> = (0..plays.len()).filter(|&i| private[i] > 0).collect();
    let mut alive = vec![true; plays.len()];
    let mut reversed = Vec::with_capacity(plays.len());
    while let Some(i) = ready.pop() {
        if !alive[i] {
            continue;
        }
        alive[i] = false;
        reversed.push(plays[i]);
        for c in span(i) {
            cover[c] -= 1;
            xor[c] ^= i as u32 + 1;
            if cover[c] == 1 {
                let j = xor[c] as usize - 1;
                private[j] += 1;
                if private[j] == 1 {
                    ready.push(j);
                }
            }
        }
    }
    (reversed.len() == plays.len()).then(|| {
        reversed.reverse();
        reversed
    })
}
