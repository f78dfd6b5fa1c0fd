//! The fill engine: generalised arc consistency over slots with per-(length, position, letter)
//! word bitsets, most-constrained slot first weighted by conflicts (dom/wdeg), randomised value
//! order, and restarts with a growing failure limit. Words are distinct.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

const ALL_LETTERS: u32 = (1 << 26) - 1;

/// Words of one length with a bitset per (position, letter).
struct LenIndex {
    words: Vec<Vec<u8>>,
    blocks: usize,
    /// `[pos * 26 + letter]` -> bitset over `words`.
    pos: Vec<Vec<u64>>,
    all: Vec<u64>,
}

/// The dictionary indexed by length (distinct upper-case words only).
pub struct WordIndex {
    by_len: Vec<LenIndex>,
}

impl WordIndex {
    pub fn new(words: &[String]) -> WordIndex {
        let max = words.iter().map(|w| w.len()).max().unwrap_or(0);
        let mut lists: Vec<Vec<Vec<u8>>> = vec![Vec::new(); max + 1];
        for w in words {
            if w.bytes().all(|b| b.is_ascii_uppercase()) {
                lists[w.len()].push(w.as_bytes().iter().map(|b| b - b'A').collect());
            }
        }
        let by_len = lists
            .into_iter()
            .enumerate()
            .map(|(len, mut words)| {
                words.sort();
                words.dedup();
                let blocks = words.len().div_ceil(64);
                let mut pos = vec![vec![0u64; blocks]; len * 26];
                for (k, w) in words.iter().enumerate() {
                    for (p, &ch) in w.iter().enumerate() {
                        pos[p * 26 + ch as usize][k / 64] |= 1 << (k % 64);
                    }
                }
                let mut all = vec![!0u64; blocks];
                if words.len() % 64 != 0 {
                    all[blocks - 1] = (1u64 << (words.len() % 64)) - 1;
                }
                LenIndex {
                    words,
                    blocks,
                    pos,
                    all,
                }
            })
            .collect();
        WordIndex { by_len }
    }

    pub fn count(&self, len: usize) -> usize {
        self.by_len.get(len).map_or(0, |l| l.words.len())
    }
}

/// A slot to fill: its cells in reading order.
#[derive(Clone, Debug)]
pub struct FillSlot {
    pub cells: Vec<usize>,
}

#[derive(Clone)]
struct State {
    masks: Vec<u32>,
    assigned: Vec<Option<u32>>,
    used: Vec<Vec<u64>>,
    counts: Vec<u32>,
}

/// Result of a fill attempt.
pub struct FillOutcome {
    /// Letters (b'A'..) per cell when every slot got a word.
    pub letters: Option<Vec<u8>>,
    /// Conflict weight per slot: where the fill kept failing (for layout repair).
    pub weights: Vec<f64>,
    pub restarts: u32,
    pub nodes: u64,
    /// Unfilled because the deadline came (else the search ran out of candidates).
    pub time_up: bool,
}

pub struct Filler<'a> {
    index: &'a WordIndex,
    slots: Vec<FillSlot>,
    /// Per cell: (slot, position) of each slot through it.
    cell_slots: Vec<Vec<(usize, usize)>>,
    weights: Vec<f64>,
    cand: Vec<u64>,
    tmp: Vec<u64>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    nodes: u64,
}

fn any_and(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

impl<'a> Filler<'a> {
    pub fn new(index: &'a WordIndex, cell_count: usize, slots: Vec<FillSlot>) -> Filler<'a> {
        let mut cell_slots = vec![Vec::new(); cell_count];
        for (s, slot) in slots.iter().enumerate() {
            for (p, &c) in slot.cells.iter().enumerate() {
                cell_slots[c].push((s, p));
            }
        }
        let n = slots.len();
        Filler {
            index,
            slots,
            cell_slots,
            weights: vec![1.0; n],
            cand: Vec::new(),
            tmp: Vec::new(),
            queue: Vec::new(),
            queued: vec![false; n],
            nodes: 0,
        }
    }

    /// Candidates of slot `s` into `self.cand`; returns how many.
    fn candidates(&mut self, st: &State, s: usize) -> u32 {
        let len = self.slots[s].cells.len();
        let Some(li) = self.index.by_len.get(len) else {
            return 0;
        };
        self.cand.clear();
        self.cand
            .extend(li.all.iter().zip(&st.used[len]).map(|(a, u)| a & !u));
        for (p, &cell) in self.slots[s].cells.iter().enumerate() {
            let m = st.masks[cell];
            if m == ALL_LETTERS {
                continue;
            }
            if m.count_ones() == 1 {
                let bits = &li.pos[p * 26 + m.trailing_zeros() as usize];
                for (c, b) in self.cand.iter_mut().zip(bits) {
                    *c &= b;
                }
            } else {
                self.tmp.clear();
                self.tmp.resize(li.blocks, 0);
                let mut rest = m;
                while rest != 0 {
                    let ch = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    for (t, b) in self.tmp.iter_mut().zip(&li.pos[p * 26 + ch]) {
                        *t |= b;
                    }
                }
                for (c, t) in self.cand.iter_mut().zip(&self.tmp) {
                    *c &= t;
                }
            }
        }
        self.cand.iter().map(|b| b.count_ones()).sum()
    }

    /// Narrow the crossing cells of slot `s` to letters some candidate has; queue changed crossers.
    fn revise(&mut self, st: &mut State, s: usize) -> bool {
        if st.assigned[s].is_some() {
            return true;
        }
        let count = self.candidates(st, s);
        st.counts[s] = count;
        if count == 0 {
            self.weights[s] += 1.0;
            return false;
        }
        let len = self.slots[s].cells.len();
        let li = &self.index.by_len[len];
        for p in 0..len {
            let cell = self.slots[s].cells[p];
            if self.cell_slots[cell].len() < 2 {
                continue;
            }
            let m = st.masks[cell];
            let mut support = 0u32;
            let mut rest = m;
            while rest != 0 {
                let ch = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if any_and(&self.cand, &li.pos[p * 26 + ch]) {
                    support |= 1 << ch;
                }
            }
            if support != m {
                st.masks[cell] = support;
                for &(o, _) in &self.cell_slots[cell] {
                    if o != s && !self.queued[o] {
                        self.queued[o] = true;
                        self.queue.push(o);
                    }
                }
            }
        }
        true
    }

    fn propagate(&mut self, st: &mut State) -> bool {
        while let Some(s) = self.queue.pop() {
            self.queued[s] = false;
            if !self.revise(st, s) {
                for q in self.queue.drain(..) {
                    self.queued[q] = false;
                }
                return false;
            }
        }
        true
    }

    fn assign(&mut self, st: &mut State, s: usize, word: u32) -> bool {
        let len = self.slots[s].cells.len();
        st.assigned[s] = Some(word);
        st.used[len][word as usize / 64] |= 1 << (word % 64);
        let w = &self.index.by_len[len].words[word as usize];
        for (p, &cell) in self.slots[s].cells.iter().enumerate() {
            let bit = 1u32 << w[p];
            if st.masks[cell] & bit == 0 {
                return false;
            }
            if st.masks[cell] != bit {
                st.masks[cell] = bit;
                for &(o, _) in &self.cell_slots[cell] {
                    if o != s && !self.queued[o] {
                        self.queued[o] = true;
                        self.queue.push(o);
                    }
                }
            }
        }
        self.propagate(st)
    }

    /// Unassigned slot with the fewest candidates per conflict weight.
    fn choose(&self, st: &State) -> Option<usize> {
        (0..self.slots.len())
            .filter(|&s| st.assigned[s].is_none())
            .min_by(|&a, &b| {
                let ka = st.counts[a] as f64 / self.weights[a];
                let kb = st.counts[b] as f64 / self.weights[b];
                ka.total_cmp(&kb)
            })
    }

    /// Try to fill every slot before `deadline`; `seed` drives value order and restarts.
    pub fn solve(&mut self, cell_count: usize, seed: u64, deadline: Instant) -> FillOutcome {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let used: Vec<Vec<u64>> = self
            .index
            .by_len
            .iter()
            .map(|l| vec![0u64; l.blocks])
            .collect();
        let root = State {
            masks: vec![ALL_LETTERS; cell_count],
            assigned: vec![None; self.slots.len()],
            used,
            counts: vec![0; self.slots.len()],
        };
        let mut restarts = 0;
        let mut fail_limit = 200u64;
        loop {
            let mut st = root.clone();
            for s in 0..self.slots.len() {
                self.queued[s] = true;
                self.queue.push(s);
            }
            if !self.propagate(&mut st) {
                return self.outcome(None, restarts, false);
            }
            match self.search(st, &mut rng, fail_limit, deadline) {
                Search::Solved(st) => {
                    let letters = self.letters(&st, cell_count);
                    return self.outcome(Some(letters), restarts, false);
                }
                // The whole tree was searched within the failure limit: no fill exists.
                Search::Exhausted => return self.outcome(None, restarts, false),
                Search::TimeUp => return self.outcome(None, restarts, true),
                Search::Restart => {}
            }
            restarts += 1;
            fail_limit = fail_limit * 3 / 2;
        }
    }

    fn outcome(&self, letters: Option<Vec<u8>>, restarts: u32, time_up: bool) -> FillOutcome {
        FillOutcome {
            letters,
            weights: self.weights.clone(),
            restarts,
            time_up,
            nodes: self.nodes,
        }
    }

    fn letters(&self, st: &State, cell_count: usize) -> Vec<u8> {
        let mut out = vec![0u8; cell_count];
        for (s, slot) in self.slots.iter().enumerate() {
            let w = &self.index.by_len[slot.cells.len()].words[st.assigned[s].unwrap() as usize];
            for (p, &c) in slot.cells.iter().enumerate() {
                out[c] = b'A' + w[p];
            }
        }
        out
    }

    /// Depth-first search with an explicit stack; gives up after `fail_limit` failures.
    fn search(
        &mut self,
        st: State,
        rng: &mut Xoshiro256PlusPlus,
        fail_limit: u64,
        deadline: Instant,
    ) -> Search {
        struct Frame {
            state: State,
            slot: usize,
            cand: Vec<u64>,
            left: u32,
        }
        let mut failures = 0u64;
        let mut stack: Vec<Frame> = Vec::new();
        let push = |this: &mut Self, st: State, stack: &mut Vec<Frame>| -> Option<State> {
            match this.choose(&st) {
                None => Some(st),
                Some(s) => {
                    let left = this.candidates(&st, s);
                    stack.push(Frame {
                        state: st,
                        slot: s,
                        cand: this.cand.clone(),
                        left,
                    });
                    None
                }
            }
        };
        if let Some(done) = push(self, st, &mut stack) {
            return Search::Solved(done);
        }
        while let Some(top) = stack.last_mut() {
            self.nodes += 1;
            if self.nodes.is_multiple_of(256) && Instant::now() >= deadline {
                return Search::TimeUp;
            }
            if top.left == 0 {
                stack.pop();
                continue;
            }
            // A random remaining candidate.
            let mut k = rng.random_range(0..top.left);
            let mut word = 0;
            for (b, bits) in top.cand.iter_mut().enumerate() {
                let c = bits.count_ones();
                if k < c {
                    let mut x = *bits;
                    for _ in 0..k {
                        x &= x - 1;
                    }
                    let bit = x.trailing_zeros();
                    *bits &= !(1u64 << bit);
                    word = (b * 64) as u32 + bit;
                    break;
                }
                k -= c;
            }
            top.left -= 1;
            let mut child = top.state.clone();
            let slot = top.slot;
            if self.assign(&mut child, slot, word) {
                if let Some(done) = push(self, child, &mut stack) {
                    return Search::Solved(done);
                }
            } else {
                failures += 1;
                if failures >= fail_limit {
                    return Search::Restart;
                }
            }
        }
        Search::Exhausted
    }
}

enum Search {
    Solved(State),
    Restart,
    Exhausted,
    TimeUp,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Exhaustive twin: try every assignment of distinct words (tiny cases only).
    fn brute_force(words: &[&str], slots: &[FillSlot], cells: usize) -> bool {
        fn go(
            i: usize,
            words: &[&str],
            slots: &[FillSlot],
            grid: &mut Vec<u8>,
            used: &mut Vec<bool>,
        ) -> bool {
            if i == slots.len() {
                return true;
            }
            for (k, w) in words.iter().enumerate() {
                if used[k] || w.len() != slots[i].cells.len() {
                    continue;
                }
                let saved = grid.clone();
                let fits = slots[i].cells.iter().zip(w.bytes()).all(|(&c, b)| {
                    let ok = grid[c] == 0 || grid[c] == b;
                    grid[c] = b;
                    ok
                });
                if fits {
                    used[k] = true;
                    if go(i + 1, words, slots, grid, used) {
                        return true;
                    }
                    used[k] = false;
                }
                *grid = saved;
            }
            false
        }
        go(
            0,
            words,
            slots,
            &mut vec![0; cells],
            &mut vec![false; words.len()],
        )
    }

    #[test]
    fn agrees_with_brute_force_on_random_small_puzzles() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let alphabet = b"ABC";
        let mut solved = 0;
        for case in 0..300 {
            // A 3x3 block of cells, with random row and column slots.
            let words: Vec<String> = (0..rng.random_range(3..12))
                .map(|_| {
                    let len = rng.random_range(2..4);
                    (0..len)
                        .map(|_| alphabet[rng.random_range(0..3)] as char)
                        .collect()
                })
                .collect();
            let mut distinct = words.clone();
            distinct.sort();
            distinct.dedup();
            let word_refs: Vec<&str> = distinct.iter().map(|s| s.as_str()).collect();
            let mut slots = Vec::new();
            for r in 0..3 {
                if rng.random_bool(0.6) {
                    slots.push(FillSlot {
                        cells: (0..3).map(|c| r * 3 + c).collect(),
                    });
                }
                if rng.random_bool(0.6) {
                    slots.push(FillSlot {
                        cells: (0..3).map(|c| c * 3 + r).collect(),
                    });
                }
            }
            if rng.random_bool(0.5) {
                slots.push(FillSlot { cells: vec![0, 1] });
            }
            let index = WordIndex::new(&words);
            let mut filler = Filler::new(&index, 9, slots.clone());
            let deadline = Instant::now() + Duration::from_secs(5);
            let got = filler.solve(9, case, deadline).letters;
            let expect = brute_force(&word_refs, &slots, 9);
            assert_eq!(got.is_some(), expect, "case {case}: {words:?} {slots:?}");
            if let Some(letters) = got {
                solved += 1;
                let mut seen = std::collections::HashSet::new();
                for s in &slots {
                    let w: String = s.cells.iter().map(|&c| letters[c] as char).collect();
                    assert!(words.contains(&w), "case {case}: {w}");
                    assert!(seen.insert(w), "case {case}: duplicate");
                }
            }
        }
        assert!(solved > 20 && solved < 280, "{solved}");
    }
}
