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
    /// `after[p * 26 + l]`: the pairs of `by_letter[l]`, in the same order, that can follow a
    /// `'A' + p` in their line: offset 0, or the letter before the offset is `'A' + p`.
    after: Vec<Vec<(u32, u16)>>,
    /// `starts[l]`: the pairs of `by_letter[l]` at offset 0, in the same order.
    starts: Vec<Vec<(u32, u16)>>,
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
        let mut after = vec![Vec::new(); 26 * 26];
        let mut starts = vec![Vec::new(); 26];
        for (l, list) in by_letter.iter().enumerate() {
            for &(i, k) in list {
                if k == 0 {
                    starts[l].push((i, k));
                    for p in 0..26 {
                        after[p * 26 + l].push((i, k));
                    }
                } else {
                    let p = (words[i as usize][k as usize - 1] - b'A') as usize;
                    after[p * 26 + l].push((i, k));
                }
            }
        }
        Context {
            layout,
            words,
            table,
            by_letter,
            after,
            starts,
            spellings: Spellings::new(words, longest),
            automaton: Automaton::new(words, |i| words[i].len() <= longest),
        }
    }
}

impl Context<'_> {
    /// The (entry, offset) pairs of `by_letter` that may cross `cell`, which holds `letter`,
    /// along `dir` on `grid`: a pair whose word would cover the cell before it must agree with
    /// its letter, and cannot cover an obstacle or run off the board. Every pair left out would
    /// fail the grid's probe; on a full board this skips most of the list.
    pub fn crossing_pairs(&self, grid: &Grid, dir: Dir, cell: usize, letter: u8) -> &[(u32, u16)] {
        let l = (letter - b'A') as usize;
        if self.layout.along(dir, cell) == 0 {
            return &self.starts[l];
        }
        let before = cell - self.layout.step(dir);
        if !self.layout.is_open(before) {
            return &self.starts[l];
        }
        match grid.letter(before) {
            0 => &self.by_letter[l],
            p => &self.after[(p - b'A') as usize * 26 + l],
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
        self.score += ctx.layout.score(w, p.pos);
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
                self.score -= ctx.layout.score(w, p.pos);
            } else {
                kept.push(p);
            }
        }
        self.plays = kept;
    }
}
