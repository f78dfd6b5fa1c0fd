//! Packing greedy: repeatedly play the candidate with the best score per new cell. Candidates come
//! from two indexes: each entry's precomputed best standalone positions, and — whenever a cell gets
//! a letter — every (entry, offset) with that letter, i.e. the nested extensions along the line
//! (ATE -> LATE -> PLATE) and the crossings through the cell. A max-heap holds them; an entry is
//! re-checked when popped, and a stale one (its new-cell count changed) is dropped because the
//! change pushed a fresher entry.

use super::layout::{Placement, Pos, DIRS};
use super::plan::{Context, Plan};
use dary_heap::QuaternaryHeap;
use rand::Rng;
use std::time::Instant;

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

impl Params {
    /// An opening run's knobs for cell price `alpha` (score-heavy runs may queue crossings that
    /// fill more cells).
    pub fn opening(alpha: f32) -> Params {
        Params {
            alpha,
            new_cap: if alpha >= 3.0 { 12 } else { 4 },
            noise: 0.0,
            standalone: true,
        }
    }
}

/// The queue is purged of dead entries once it holds this many, and then whenever it has grown by
/// half since the last purge. On the largest bench case (seed 17, 88x89, 6,964 entries) an
/// opening pushes about 4.4 million entries, of which 1,300 are played: without purges the pops
/// were half of the solver's time; purges at 1.25x-1.5x growth took the openings from 32 s to
/// 20 s there (2x: 23 s, 3x: 32 s), 25% less on seed 4, 10% on seeds 2, 10 and 19.
const MIN_PURGE: usize = 1 << 14;

#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u32,
    word: u32,
    pos: Pos,
    new: u16,
}

impl Entry {
    /// Can it still be played as queued: its position still fills exactly `new` cells (cells
    /// only fill during a run, so once false it stays false)?
    fn fresh(&self, ctx: &Context, plan: &Plan) -> bool {
        let w = &ctx.words[self.word as usize];
        self.new > 0 && plan.grid.probe(ctx.layout, w, self.pos) == Some(self.new as usize)
    }
}

struct Run<'c, 'a, R> {
    ctx: &'c Context<'a>,
    params: Params,
    rng: &'c mut R,
    heap: QuaternaryHeap<Entry>,
    next_standalone: Vec<u32>,
    deadline: Instant,
}

impl Context<'_> {
    /// Score of `word` at `pos` plus the scores of its unused sub-words on the same span (they can
    /// be played just before it for no extra cell): the value that the greedy ranks by.
    pub fn family_score(&self, plan: &Plan, word: usize, pos: Pos) -> u64 {
        let mut total = self.layout.score(&self.words[word], pos);
        let step = self.layout.step(pos.dir());
        for sub in self.spellings.subs(word) {
            let entries = self.spellings.entries(sub.node);
            // (The first 64 copies only: a list of thousands of duplicates must not slow this.)
            if let Some(&j) = entries.iter().take(64).find(|&&j| !plan.used[j as usize]) {
                let at = Pos::new(pos.dir(), pos.start() + sub.offset as usize * step);
                total = total.saturating_add(self.layout.score(&self.words[j as usize], at));
            }
        }
        total
    }

    /// `plan`'s last play just filled `new_cells`: insert its unused sub-words just before it,
    /// each taking some of those cells, as long as the last play keeps one.
    pub fn insert_subwords(&self, plan: &mut Plan, new_cells: &[usize]) {
        let last = *plan.plays.last().expect("called after a play");
        let word = last.word as usize;
        if self.spellings.subs(word).is_empty() {
            return;
        }
        let len = self.words[word].len();
        let step = self.layout.step(last.pos.dir());
        let mut private: Vec<bool> = vec![false; len];
        for &c in new_cells {
            private[(c - last.pos.start()) / step] = true;
        }
        let mut left = new_cells.len();
        let mut filled = Vec::new();
        for sub in self.spellings.subs(word) {
            let (a, b) = (sub.offset as usize, (sub.offset + sub.len) as usize);
            let taken = private[a..b].iter().filter(|&&p| p).count();
            if taken == 0 || taken >= left {
                continue;
            }
            let entries = self.spellings.entries(sub.node);
            let Some(&j) = entries.iter().find(|&&j| !plan.used[j as usize]) else {
                continue;
            };
            let at = Pos::new(last.pos.dir(), last.pos.start() + a * step);
            plan.insert(
                self,
                plan.plays.len() - 1,
                Placement { word: j, pos: at },
                &mut filled,
            );
            private[a..b].iter_mut().for_each(|p| *p = false);
            left -= taken;
        }
    }
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
                // The family score counts the entry's own score (the table's `score`) once.
                debug_assert_eq!(score, self.ctx.layout.score(w, pos));
                let key = self.key(self.ctx.family_score(plan, word, pos), w.len());
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
            let pairs = ctx.crossing_pairs(&plan.grid, dir, cell, letter);
            for (n, &(word, k)) in pairs.iter().enumerate() {
                // Lists with many duplicates make this loop long: watch the clock.
                if n % 512 == 511 && Instant::now() >= self.deadline {
                    return;
                }
                if plan.used[word as usize] {
                    continue;
                }
                let w = &ctx.words[word as usize];
                let Some(pos) = ctx.layout.through(dir, cell, k as usize, w.len()) else {
                    continue;
                };
                match plan
                    .grid
                    .probe_capped(ctx.layout, w, pos, self.params.new_cap)
                {
                    Some(new) if new > 0 && new <= self.params.new_cap => {
                        let key = self.key(ctx.family_score(plan, word as usize, pos), new);
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

    /// Drop the entries whose pop would do nothing: their entry is used, or their position's
    /// new-cell count changed (cells only fill during a run, so it never comes back, and the
    /// filling queued a fresh entry). Entirely empty positions stay: their pop moves the entry's
    /// standalone stream on. Popping a dead entry has no effect, so the plays are unchanged; on
    /// large cases most of the millions of queued crossings die before their turn.
    fn purge(&mut self, plan: &Plan) {
        let ctx = self.ctx;
        self.heap.retain(|e| {
            let standalone = e.new as usize == ctx.words[e.word as usize].len();
            !plan.used[e.word as usize] && (standalone || e.fresh(ctx, plan))
        });
    }
}

/// Where a greedy run starts besides the standalone positions (for repairs after a removal).
#[derive(Clone, Copy, Default)]
pub struct Start<'s> {
    /// Filled cells whose crossing positions are queued.
    pub seeds: &'s [usize],
    /// Placements queued as they are (e.g. standalone positions over a cleared area).
    pub extra: &'s [Placement],
    /// Removed plays: queued again (so a repair can always restore them), and their entries'
    /// standalone streams restart when `Params::standalone` is off.
    pub revive: &'s [Placement],
}

/// Extend `plan` greedily until nothing fits or `deadline` passes.
pub fn extend<R: Rng>(
    ctx: &Context,
    plan: &mut Plan,
    params: Params,
    from: Start,
    rng: &mut R,
    deadline: Instant,
) {
    extend_purging(ctx, plan, params, from, rng, deadline, MIN_PURGE);
}

/// `extend` with the queue first purged at `min_purge` entries (the tests compare purging from
/// the first play on with never purging).
pub(super) fn extend_purging<R: Rng>(
    ctx: &Context,
    plan: &mut Plan,
    params: Params,
    from: Start,
    rng: &mut R,
    deadline: Instant,
    min_purge: usize,
) {
    let Start {
        seeds,
        extra,
        revive,
    } = from;
    let mut run = Run {
        ctx,
        params,
        rng,
        heap: QuaternaryHeap::new(),
        next_standalone: vec![0; ctx.words.len()],
        deadline,
    };
    if params.standalone {
        for w in 0..ctx.words.len() {
            if w % 256 == 255 && Instant::now() >= deadline {
                break;
            }
            if !plan.used[w] {
                run.push_standalone(plan, w);
            }
        }
    }
    for &c in seeds {
        run.push_through(plan, c);
    }
    if !params.standalone {
        for p in revive {
            if !plan.used[p.word as usize] {
                run.push_standalone(plan, p.word as usize);
            }
        }
    }
    for (n, p) in extra.iter().chain(revive).enumerate() {
        if n % 1024 == 1023 && Instant::now() >= deadline {
            break;
        }
        let w = &ctx.words[p.word as usize];
        if plan.used[p.word as usize] {
            continue;
        }
        if let Some(new) = plan.grid.probe(ctx.layout, w, p.pos).filter(|&n| n > 0) {
            let key = run.key(ctx.family_score(plan, p.word as usize, p.pos), new);
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
    let mut purge_at = min_purge;
    while let Some(e) = run.heap.pop() {
        pops = pops.wrapping_add(1);
        if pops.is_multiple_of(64) && Instant::now() >= deadline {
            break;
        }
        let word = e.word as usize;
        if plan.used[word] {
            continue;
        }
        if !e.fresh(ctx, plan) {
            if e.new as usize == ctx.words[word].len() {
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
        ctx.insert_subwords(plan, &filled);
        for &c in &filled {
            run.push_through(plan, c);
        }
        if run.heap.len() >= purge_at {
            run.purge(plan);
            purge_at = (run.heap.len() + run.heap.len() / 2).max(min_purge);
        }
    }
}

/// Placements of unused entries on runs of empty cells, where the position table (each entry's
/// best standalone positions only) has nothing left: per run and entry, the best offset. Found by
/// scanning the board, so late in a search they fill the gaps the table never covered. Entries
/// with the same letter values share their best offset (computed once per run); the scan stops
/// at `deadline` with what it found.
pub fn gap_candidates(
    ctx: &Context,
    plan: &Plan,
    limit: usize,
    deadline: Instant,
) -> Vec<Placement> {
    let layout = ctx.layout;
    let table = ctx.table;
    let mut by_len: Vec<Vec<u32>> = vec![Vec::new(); table.longest() + 1];
    for (i, w) in ctx.words.iter().enumerate() {
        if !plan.used[i] && !w.is_empty() && w.len() < by_len.len() && !table.top(i).is_empty() {
            by_len[w.len()].push(i as u32);
        }
    }
    // The best offset of each group on the current run, valid while `stamp[group] == run`.
    let mut stamp = vec![0u32; table.groups()];
    let mut best_of = vec![None; table.groups()];
    let mut run_id = 0u32;
    let mut out = Vec::new();
    for dir in DIRS {
        let step = layout.step(dir);
        let (lines, len) = layout.line_shape(dir);
        for j in 0..lines {
            if Instant::now() >= deadline {
                return out;
            }
            let cell = |k: usize| layout.line_cell(dir, j, k);
            let mut k = 0;
            while k < len {
                let empty = |k: usize| layout.is_open(cell(k)) && plan.grid.letter(cell(k)) == 0;
                if !empty(k) {
                    k += 1;
                    continue;
                }
                let start = k;
                while k < len && empty(k) {
                    k += 1;
                }
                let run = k - start;
                run_id += 1;
                for (l, entries) in by_len.iter().enumerate().take(run + 1).skip(1) {
                    for (n, &e) in entries.iter().enumerate() {
                        if n % 256 == 255 && Instant::now() >= deadline {
                            return out;
                        }
                        let g = table.group(e as usize);
                        if stamp[g] != run_id {
                            let w = &ctx.words[e as usize];
                            stamp[g] = run_id;
                            best_of[g] = (0..=run - l)
                                .map(|o| Pos::new(dir, cell(start) + o * step))
                                .max_by_key(|&p| (layout.score(w, p), std::cmp::Reverse(p)));
                        }
                        if let Some(pos) = best_of[g] {
                            out.push(Placement { word: e, pos });
                            if out.len() >= limit {
                                return out;
                            }
                        }
                    }
                }
            }
        }
    }
    out
}
