//! Ejection move for the LNS: put one entry on one of its best standalone positions, removing only
//! the plays whose letters disagree with it there (and the entry's own play, if it has one), then
//! let the refill place the removed entries again. A window clears everything around a spot; this
//! frees exactly what one valuable entry needs. On few-word cases (seeds 1, 6, 9, 11, 12) the
//! windows find no improvement at all, and the score sits in which entries hold the hot spans.

use super::layout::Placement;
use super::plan::{Context, Plan};
use rand::Rng;

/// Entries sampled per move, and positions tried for each (from the head of its standalone list).
const ENTRIES: usize = 8;
const POSITIONS: usize = 16;

/// Which plays cover each cell (rebuilt for each move: a few thousand letters).
#[derive(Default)]
pub struct Cover {
    start: Vec<u32>,
    plays: Vec<u32>,
}

impl Cover {
    fn build(&mut self, ctx: &Context, plan: &Plan) {
        let cells = ctx.layout.cells();
        self.start.clear();
        self.start.resize(cells + 1, 0);
        for p in &plan.plays {
            for c in ctx.layout.span(p.pos, ctx.words[p.word as usize].len()) {
                self.start[c + 1] += 1;
            }
        }
        for c in 0..cells {
            self.start[c + 1] += self.start[c];
        }
        self.plays.clear();
        self.plays.resize(self.start[cells] as usize, 0);
        let mut next = self.start.clone();
        for (i, p) in plan.plays.iter().enumerate() {
            for c in ctx.layout.span(p.pos, ctx.words[p.word as usize].len()) {
                self.plays[next[c] as usize] = i as u32;
                next[c] += 1;
            }
        }
    }

    fn at(&self, cell: usize) -> &[u32] {
        &self.plays[self.start[cell] as usize..self.start[cell + 1] as usize]
    }
}

/// The entries by standalone value, best first (the ones worth forcing onto a hot span).
pub fn by_value(ctx: &Context) -> Vec<u32> {
    let mut order: Vec<u32> = (0..ctx.words.len() as u32)
        .filter(|&i| !ctx.table.top(i as usize).is_empty())
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse(ctx.table.best(i as usize)));
    order
}

/// Choose an entry (biased to high standalone value) and, among its best positions, the one with
/// the best score minus the scores of the plays it displaces; apply it: the
/// displaced plays go to `removed`, the cells they free to `freed`, the cells the entry fills to
/// `filled`. Returns the placement, or `None` (plan untouched) if no candidate helps.
#[allow(clippy::too_many_arguments)]
pub fn eject<R: Rng>(
    ctx: &Context,
    plan: &mut Plan,
    order: &[u32],
    cover: &mut Cover,
    rng: &mut R,
    freed: &mut Vec<usize>,
    removed: &mut Vec<Placement>,
    filled: &mut Vec<usize>,
) -> Option<Placement> {
    if order.is_empty() {
        return None;
    }
    let layout = ctx.layout;
    cover.build(ctx, plan);
    // The score each entry has now (0 if unused).
    let own = |word: u32| -> Option<(usize, u64)> {
        if !plan.used[word as usize] {
            return None;
        }
        plan.plays.iter().position(|p| p.word == word).map(|i| {
            (
                i,
                layout.score(&ctx.words[word as usize], plan.plays[i].pos),
            )
        })
    };
    let mut best: Option<(i64, Placement, Vec<u32>)> = None;
    let mut hit = Vec::new();
    for _ in 0..ENTRIES {
        let r: f64 = rng.random();
        let word = order[((order.len() as f64) * r * r) as usize];
        let w = &ctx.words[word as usize];
        let mine = own(word);
        let top = ctx.table.top(word as usize);
        for &(score, pos) in top.iter().take(POSITIONS) {
            if mine.is_some_and(|(i, _)| plan.plays[i].pos == pos) {
                continue;
            }
            hit.clear();
            let mut fresh = false;
            for (k, c) in layout.span(pos, w.len()).enumerate() {
                let l = plan.grid.letter(c);
                if l == 0 {
                    fresh = true;
                } else if l != w[k] {
                    hit.extend_from_slice(cover.at(c));
                }
            }
            if let Some((i, _)) = mine {
                hit.push(i as u32);
            }
            hit.sort_unstable();
            hit.dedup();
            if !fresh && hit.is_empty() {
                continue;
            }
            let lost: u64 = hit
                .iter()
                .map(|&i| {
                    let p = plan.plays[i as usize];
                    layout.score(&ctx.words[p.word as usize], p.pos)
                })
                .sum();
            let net = score as i64 - lost as i64;
            if best.as_ref().is_none_or(|b| net > b.0) {
                best = Some((net, Placement { word, pos }, hit.clone()));
            }
        }
    }
    let (_, placement, hit) = best?;
    // An entry is played at most once, so its index names the play.
    let words: Vec<u32> = hit.iter().map(|&i| plan.plays[i as usize].word).collect();
    plan.remove_where(
        ctx,
        |p| {
            let gone = words.contains(&p.word);
            if gone {
                removed.push(*p);
            }
            gone
        },
        freed,
    );
    let w = &ctx.words[placement.word as usize];
    match plan.grid.probe(layout, w, placement.pos) {
        Some(new) if new > 0 => {
            filled.clear();
            plan.push(ctx, placement, filled);
            ctx.insert_subwords(plan, filled);
            Some(placement)
        }
        // Cannot happen (every disagreeing letter's plays were removed, and the position had an
        // empty cell or a removed play's private cell); the caller restores the plan.
        _ => None,
    }
}
