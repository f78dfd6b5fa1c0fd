//! What the searches share: the static `Context` of a case (geometry, entries, position table,
//! letter index, spellings) and a `Plan`, a valid play order with the board it leaves.

use super::automaton::Automaton;
use super::grid::Grid;
use super::layout::{Dir, Layout, Placement};
use super::spellings::Spellings;
use super::table::Table;

/// Everything static about one case that the searches share.
pub struct Context<'a> {
    pub layout: &'a Layout,
    pub words: &'a [Vec<u8>],
    pub table: &'a Table,
    /// `by_letter[l]`: every (entry, offset) whose letter at that offset is `'A' + l`.
    pub by_letter: Vec<Vec<(u32, u16)>>,
    /// `by_letter` grouped by the letter before each pair, and by the letter after it.
    before: Beside,
    after: Beside,
    pub spellings: Spellings,
    /// The distinct spellings that fit, for the line DP.
    pub automaton: Automaton,
}

impl<'a> Context<'a> {
    pub fn new(layout: &'a Layout, words: &'a [Vec<u8>], table: &'a Table) -> Context<'a> {
        // Entries longer than every open run never fit: they are left out of the indexes.
        let longest = layout.longest_run();
        let mut by_letter = vec![Vec::new(); 26];
        for (i, w) in words.iter().enumerate() {
            if w.len() > longest {
                continue;
            }
            for (k, &b) in w.iter().enumerate() {
                if k < u16::MAX as usize {
                    by_letter[(b - b'A') as usize].push((i as u32, k as u16));
                }
            }
        }
        let before = Beside::new(&by_letter, |i, k| k.checked_sub(1).map(|j| words[i][j]));
        let after = Beside::new(&by_letter, |i, k| words[i].get(k + 1).copied());
        Context {
            layout,
            words,
            table,
            by_letter,
            before,
            after,
            spellings: Spellings::new(words, longest),
            automaton: Automaton::new(words, |i| words[i].len() <= longest),
        }
    }
}

impl Context<'_> {
    /// The (entry, offset) pairs of `by_letter` that may cross `cell`, which holds `letter`,
    /// along `dir` on `grid`: a word covering the cell before or after it must agree with its
    /// letter, and cannot cover an obstacle or run off the board. Every pair left out would fail
    /// the grid's probe; on a full board this skips most of the list.
    pub fn crossing_pairs(&self, grid: &Grid, dir: Dir, cell: usize, letter: u8) -> &[(u32, u16)] {
        let l = (letter - b'A') as usize;
        let (layout, step) = (self.layout, self.layout.step(dir));
        let along = layout.along(dir, cell);
        let (_, limit) = layout.line_shape(dir);
        // What lies next to the cell: None for an obstacle or the edge, else its letter or 0.
        let letter_at = |c: Option<usize>| c.filter(|&c| layout.is_open(c)).map(|c| grid.letter(c));
        let all = &self.by_letter[l];
        let before = self
            .before
            .pairs(all, l, letter_at((along > 0).then(|| cell - step)));
        let after = self
            .after
            .pairs(all, l, letter_at((along + 1 < limit).then(|| cell + step)));
        if before.len() <= after.len() {
            before
        } else {
            after
        }
    }
}

/// The pairs of `by_letter`, in its order, grouped by the letter next to them on one side.
struct Beside {
    /// `[n * 26 + l]`: the pairs of `by_letter[l]` whose word has `'A' + n` on this side of the
    /// offset, or stops there.
    next_to: Vec<Vec<(u32, u16)>>,
    /// `[l]`: the pairs of `by_letter[l]` whose word stops at the offset on this side.
    stops: Vec<Vec<(u32, u16)>>,
}

impl Beside {
    /// `neighbour(entry, offset)`: the entry's letter next to the offset on this side, if any.
    fn new(
        by_letter: &[Vec<(u32, u16)>],
        neighbour: impl Fn(usize, usize) -> Option<u8>,
    ) -> Beside {
        let mut next_to = vec![Vec::new(); 26 * 26];
        let mut stops = vec![Vec::new(); 26];
        for (l, list) in by_letter.iter().enumerate() {
            for &pair in list {
                match neighbour(pair.0 as usize, pair.1 as usize) {
                    Some(b) => next_to[(b - b'A') as usize * 26 + l].push(pair),
                    None => {
                        stops[l].push(pair);
                        for n in 0..26 {
                            next_to[n * 26 + l].push(pair);
                        }
                    }
                }
            }
        }
        Beside { next_to, stops }
    }

    /// The pairs of `all` (= `by_letter[l]`) that fit beside a neighbouring cell that is
    /// `Some(0)` empty, `Some(letter)` filled, or `None` an obstacle or the board's edge.
    fn pairs<'s>(&'s self, all: &'s [(u32, u16)], l: usize, next: Option<u8>) -> &'s [(u32, u16)] {
        match next {
            None => &self.stops[l],
            Some(0) => all,
            Some(b) => &self.next_to[(b - b'A') as usize * 26 + l],
        }
    }
}

/// A valid play in order, with the board it leaves and its running score.
#[derive(Clone)]
pub struct Plan {
    pub grid: Grid,
    pub plays: Vec<Placement>,
    pub used: Vec<bool>,
    pub score: u64,
}

impl Plan {
    pub fn empty(ctx: &Context) -> Plan {
        Plan {
            grid: Grid::new(ctx.layout.cells()),
            plays: Vec::new(),
            used: vec![false; ctx.words.len()],
            score: 0,
        }
    }

    /// The plan of `plays` in order (each checked by the caller, as for `push`).
    pub fn from_plays(ctx: &Context, plays: &[Placement]) -> Plan {
        let mut plan = Plan::empty(ctx);
        let mut filled = Vec::new();
        for &p in plays {
            plan.push(ctx, p, &mut filled);
        }
        plan
    }

    /// Append a play the caller has checked (fits, letters agree, >= 1 new cell).
    pub fn push(&mut self, ctx: &Context, p: Placement, filled: &mut Vec<usize>) {
        let w = &ctx.words[p.word as usize];
        self.grid.place(ctx.layout, w, p.pos, filled);
        self.used[p.word as usize] = true;
        // Saturating: on boards of triple cells the true totals pass any machine integer (the
        // exact total is `Solution::total`).
        self.score = self.score.saturating_add(ctx.layout.score(w, p.pos));
        self.plays.push(p);
    }

    /// Put a play at `index` in the order; the caller has checked that the order stays valid.
    pub fn insert(&mut self, ctx: &Context, index: usize, p: Placement, filled: &mut Vec<usize>) {
        self.push(ctx, p, filled);
        let p = self.plays.pop().expect("just pushed");
        self.plays.insert(index, p);
    }

    /// Remove every play for which `drop` is true (a subsequence of a valid order stays valid:
    /// removing a play only leaves more cells empty for the later ones).
    pub fn remove_where(
        &mut self,
        ctx: &Context,
        mut drop: impl FnMut(&Placement) -> bool,
        freed: &mut Vec<usize>,
    ) {
        let mut kept = Vec::with_capacity(self.plays.len());
        for p in std::mem::take(&mut self.plays) {
            if drop(&p) {
                let w = &ctx.words[p.word as usize];
                self.grid.remove(ctx.layout, w, p.pos, freed);
                self.used[p.word as usize] = false;
                self.score = self.score.saturating_sub(ctx.layout.score(w, p.pos));
            } else {
                kept.push(p);
            }
        }
        self.plays = kept;
    }
}
