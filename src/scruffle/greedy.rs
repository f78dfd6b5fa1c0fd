//! Packing greedy: repeatedly play the candidate with the best score per new cell. Candidates come
//! from two indexes: each entry's precomputed best standalone positions, and — whenever a cell gets
//! a letter — every (entry, offset) with that letter, i.e. the nested extensions along the line
//! (ATE -> LATE -> PLATE) and the crossings through the cell. A max-heap holds them; an entry is
//! re-checked when popped, and a stale one (its new-cell count changed) is dropped because the
//! change pushed a fresher entry.

use super::grid::Grid;
use super::layout::{Layout, Placement, Pos, DIRS};
use super::table::Table;
use rand::Rng;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Everything static about one case that the searches share.
pub struct Context<'a> {
    pub layout: &'a Layout,
    pub words: &'a [Vec<u8>],
    pub table: &'a Table,
    /// `by_letter[l]`: every (entry, offset) whose letter at that offset is `'A' + l`.
    by_letter: Vec<Vec<(u32, u16)>>,
}

impl<'a> Context<'a> {
    pub fn new(layout: &'a Layout, words: &'a [Vec<u8>], table: &'a Table) -> Context<'a> {
        let mut by_letter = vec![Vec::new(); 26];
        for (i, w) in words.iter().enumerate() {
            for (k, &b) in w.iter().enumerate() {
                if k < u16::MAX as usize {
                    by_letter[(b - b'A') as usize].push((i as u32, k as u16));
                }
            }
        }
        Context {
            layout,
            words,
            table,
            by_letter,
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

/// Knobs of one greedy run.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Priority is score / (new cells + alpha): 0 is pure score per cell, large is pure score.
    pub alpha: f32,
    /// Crossing candidates that would fill more than this many cells are not queued.
    pub new_cap: usize,
    /// Priorities are multiplied by 1 + noise * U[0, 1) (0 = deterministic).
    pub noise: f32,
    /// Queue the standalone positions (off for local repairs on a full board).
    pub standalone: bool,
}

#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u32,
    word: u32,
    pos: Pos,
    new: u16,
}

struct Run<'c, 'a, R> {
    ctx: &'c Context<'a>,
    params: Params,
    rng: &'c mut R,
    heap: BinaryHeap<Entry>,
    next_standalone: Vec<u32>,
}

impl<R: Rng> Run<'_, '_, R> {
    fn key(&mut self, score: u64, new: usize) -> u32 {
        let mut k = score as f32 / (new as f32 + self.params.alpha).max(1e-3);
        if self.params.noise > 0.0 {
            k *= 1.0 + self.params.noise * self.rng.random::<f32>();
        }
        k.to_bits() // non-negative floats order like their bits
    }

    /// Queue the next kept standalone position of `word` that is still entirely empty.
    fn push_standalone(&mut self, plan: &Plan, word: usize) {
        let top = self.ctx.table.top(word);
        let w = &self.ctx.words[word];
        while let Some(&(score, pos)) = top.get(self.next_standalone[word] as usize) {
            self.next_standalone[word] += 1;
            if plan.grid.probe(self.ctx.layout, w, pos) == Some(w.len()) {
                let key = self.key(score, w.len());
                self.heap.push(Entry {
                    key,
                    word: word as u32,
                    pos,
                    new: w.len() as u16,
                });
                return;
            }
        }
    }

    /// Queue every valid position of an unused entry that puts a matching letter on `cell`.
    fn push_through(&mut self, plan: &Plan, cell: usize) {
        let letter = plan.grid.letter(cell);
        if letter == 0 {
            return;
        }
        let ctx = self.ctx;
        for dir in DIRS {
            for &(word, k) in &ctx.by_letter[(letter - b'A') as usize] {
                if plan.used[word as usize] {
                    continue;
                }
                let w = &ctx.words[word as usize];
                let Some(pos) = ctx.layout.through(dir, cell, k as usize, w.len()) else {
                    continue;
                };
                match plan.grid.probe(ctx.layout, w, pos) {
                    Some(new) if new > 0 && new <= self.params.new_cap => {
                        let key = self.key(ctx.layout.score(w, pos), new);
                        self.heap.push(Entry {
                            key,
                            word,
                            pos,
                            new: new as u16,
                        });
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Extend `plan` greedily until nothing fits or `deadline` passes. `seeds` are filled cells whose
/// crossing positions are queued at the start, `extra` are placements to queue too (for repairs
/// after a removal: the removed plays themselves, so the repair can always restore them).
pub fn extend<R: Rng>(
    ctx: &Context,
    plan: &mut Plan,
    params: Params,
    seeds: &[usize],
    extra: &[Placement],
    rng: &mut R,
    deadline: Instant,
) {
    let mut run = Run {
        ctx,
        params,
        rng,
        heap: BinaryHeap::new(),
        next_standalone: vec![0; ctx.words.len()],
    };
    if params.standalone {
        for w in 0..ctx.words.len() {
            if !plan.used[w] {
                run.push_standalone(plan, w);
            }
        }
    }
    for &c in seeds {
        run.push_through(plan, c);
    }
    for p in extra {
        let w = &ctx.words[p.word as usize];
        if plan.used[p.word as usize] {
            continue;
        }
        if !params.standalone {
            run.push_standalone(plan, p.word as usize);
        }
        if let Some(new) = plan.grid.probe(ctx.layout, w, p.pos).filter(|&n| n > 0) {
            let key = run.key(ctx.layout.score(w, p.pos), new);
            run.heap.push(Entry {
                key,
                word: p.word,
                pos: p.pos,
                new: new as u16,
            });
        }
    }
    let mut filled = Vec::new();
    let mut pops = 0u32;
    while let Some(e) = run.heap.pop() {
        pops = pops.wrapping_add(1);
        if pops.is_multiple_of(1024) && Instant::now() >= deadline {
            break;
        }
        let word = e.word as usize;
        if plan.used[word] {
            continue;
        }
        let w = &ctx.words[word];
        let fresh = plan.grid.probe(ctx.layout, w, e.pos) == Some(e.new as usize) && e.new > 0;
        if !fresh {
            if e.new as usize == w.len() {
                run.push_standalone(plan, word);
            }
            continue;
        }
        filled.clear();
        plan.push(
            ctx,
            Placement {
                word: e.word,
                pos: e.pos,
            },
            &mut filled,
        );
        for &c in &filled {
            run.push_through(plan, c);
        }
    }
}
