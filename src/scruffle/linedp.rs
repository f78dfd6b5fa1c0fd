//! The best string of one line segment (cells between obstacles or board edges): letters or blanks
//! per cell, scored as the sum over every occurrence of a spelling in it of
//! max(0, score - cost(spelling) - cheapest claim price over its span), plus a bonus per letter
//! and cell. A DP over the Aho-Corasick automaton: the state is the longest suffix of the text
//! that is a node. Instead of following failure links, a step may come from any node whose text
//! ends with the parent's (its failure-link subtree): such a path only ever counts real
//! occurrences, and the exact path is among them, so the maximum is exact and one step costs
//! O(nodes) instead of O(nodes x 26); on a cell whose letter is fixed (a filled cell in a
//! repair), only the nodes of that letter, and after it only the children of the states left.

use super::automaton::{Automaton, NO_NODE};

/// One segment as the DP sees it; every slice has one item per cell.
pub struct Segment<'a> {
    /// Letter multiplier (0-9, 1 on D/T).
    pub mult: &'a [u8],
    /// Word factor (1, or 2 on D, 3 on T).
    pub factor: &'a [u8],
    /// What an occurrence pays for the cell it claims as its own (the cheapest of its span).
    pub claim: &'a [f64],
    /// Added when the cell gets a letter; `-inf` forbids that letter.
    pub bonus: &'a [[f64; 26]],
    /// May the cell stay blank?
    pub blank: &'a [bool],
}

/// Owned buffers behind a `Segment`, filled cell by cell and reused from line to line.
#[derive(Default)]
pub struct SegmentBuf {
    mult: Vec<u8>,
    factor: Vec<u8>,
    claim: Vec<f64>,
    bonus: Vec<[f64; 26]>,
    blank: Vec<bool>,
}

impl SegmentBuf {
    pub fn clear(&mut self) {
        self.mult.clear();
        self.factor.clear();
        self.claim.clear();
        self.bonus.clear();
        self.blank.clear();
    }

    /// Append one cell (the fields of `Segment`, in order).
    pub fn push(&mut self, mult: u8, factor: u8, claim: f64, bonus: [f64; 26], blank: bool) {
        self.mult.push(mult);
        self.factor.push(factor);
        self.claim.push(claim);
        self.bonus.push(bonus);
        self.blank.push(blank);
    }

    pub fn view(&self) -> Segment<'_> {
        Segment {
            mult: &self.mult,
            factor: &self.factor,
            claim: &self.claim,
            bonus: &self.bonus,
            blank: &self.blank,
        }
    }
}

/// One occurrence counted on the best string: spelling, first cell and claimed cell (offsets in
/// the segment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub spelling: u32,
    pub start: u16,
    pub claim: u16,
}

/// The best string and the occurrences it was scored with.
#[derive(Clone, Debug, Default)]
pub struct Path {
    /// Upper-case letter per cell, 0 for blank.
    pub letters: Vec<u8>,
    pub occurrences: Vec<Occurrence>,
}

/// What a step needs of a node, packed in one place.
#[derive(Clone, Copy, Default)]
struct Info {
    parent: u32,
    dict: u32,
    depth: u16,
    min_ext: u16,
    letter: u8,
}

/// What a step computes for a node: the letter sum and the cheapest claim price of its text
/// ending at the current cell, and the best value of a string ending in this state (after the
/// subtree pass: the best over its failure-link subtree).
#[derive(Clone, Copy, Default)]
struct Cur {
    ls: f64,
    mc: f64,
    m: f64,
}

/// Reusable buffers of the DP over one automaton.
pub struct LineDp {
    letter_value: [f64; 26],
    info: Vec<Info>,
    /// Spelling of each node (`NO_NODE` if none).
    spelling: Vec<u32>,
    /// Cost of the spelling ending at each node (+inf where none ends), from the last `cost`.
    node_cost: Vec<f64>,
    state: [Vec<Cur>; 2],
    /// Sum of the occurrence values ending at the current cell, at spelling ends.
    gain: Vec<f64>,
    /// Backtracking: for each step, the subtree argmax of every stepped node (`Step`).
    trail: Vec<u32>,
    /// (node, argmax) of the steps that visited only some nodes, in node order.
    sparse_trail: Vec<(u32, u32)>,
    steps: Vec<Step>,
    /// The nodes holding a state after the last sparse step (root first, in node order), and
    /// the next step's list being built.
    active: Vec<u32>,
    next_active: Vec<u32>,
    /// Subtree argmax by node during a sparse step.
    arg: Vec<u32>,
    /// Step every node below the depth limit at every cell (the tests' slow twin).
    dense_only: bool,
    /// Letter chosen in the root state at each step (0 = blank, else 1 + letter index).
    root_letter: Vec<u8>,
    factor_of_depth: Vec<f64>,
    doubles: Vec<usize>,
    triples: Vec<usize>,
}

/// Where one step's backtracking entries are: every node below the step's depth limit from
/// `trail[at]` on, or only the visited ones, `sparse_trail[at..at + len]`.
#[derive(Clone, Copy)]
enum Step {
    Dense { at: usize },
    Sparse { at: usize, len: usize },
}

/// A step after filled cells visits only the children of the states the previous cell left
/// (a handful of suffixes of the fixed letters); once they are at least this share of the nodes
/// in reach, stepping every node is cheaper.
const DENSE_SHARE: f64 = 0.5;

/// The word factor 2^d * 3^t of a span, from the counts of D and T cells.
fn word_factor(doubles: usize, triples: usize) -> f64 {
    2f64.powi(doubles as i32) * 3f64.powi(triples as i32)
}

impl LineDp {
    pub fn new(a: &Automaton, values: &[u32; 26]) -> LineDp {
        let n = a.nodes();
        let letter_value = values.map(|v| v as f64);
        let info = (0..n)
            .map(|u| Info {
                parent: a.parent[u],
                dict: a.dict[u],
                letter: a.letter[u],
                depth: a.depth[u],
                min_ext: a.min_ext[u],
            })
            .collect();
        LineDp {
            letter_value,
            info,
            spelling: a.spelling.clone(),
            node_cost: vec![f64::INFINITY; n],
            state: [vec![Cur::default(); n], vec![Cur::default(); n]],
            gain: vec![0.0; n],
            trail: Vec::new(),
            sparse_trail: Vec::new(),
            steps: Vec::new(),
            active: Vec::new(),
            next_active: Vec::new(),
            arg: vec![0; n],
            dense_only: false,
            root_letter: Vec::new(),
            factor_of_depth: Vec::new(),
            doubles: Vec::new(),
            triples: Vec::new(),
        }
    }

    /// The best value of `seg` with per-spelling costs `cost` (`+inf` = not allowed); with `path`,
    /// also the best string and its counted occurrences.
    pub fn solve(
        &mut self,
        a: &Automaton,
        seg: &Segment,
        cost: &[f64],
        path: Option<&mut Path>,
    ) -> f64 {
        let len = seg.mult.len();
        let want = path.is_some();
        for (c, &s) in self.node_cost.iter_mut().zip(&self.spelling) {
            if s != NO_NODE {
                *c = cost[s as usize];
            }
        }
        self.trail.clear();
        self.sparse_trail.clear();
        self.steps.clear();
        self.root_letter.clear();
        self.doubles.clear();
        self.triples.clear();
        self.doubles.push(0);
        self.triples.push(0);
        for t in 0..len {
            self.doubles
                .push(self.doubles[t] + (seg.factor[t] == 2) as usize);
            self.triples
                .push(self.triples[t] + (seg.factor[t] == 3) as usize);
        }
        // Before the first cell: only the root, value 0.
        let mut old = 0;
        self.state[old][0] = Cur {
            ls: 0.0,
            mc: f64::INFINITY,
            m: 0.0,
        };
        self.gain[0] = 0.0;
        // `every`: each node below `prev_lim` holds the previous cell's state (-inf if none);
        // otherwise only the nodes of `active` do. The active nodes are closed under failure
        // links (a child's failure link is the child of a node on its parent's failure chain),
        // so a sparse step that visits the children of the active nodes writes every node its
        // failure-link lifts and dictionary links touch.
        let mut every = true;
        let mut prev_lim = 1;
        self.active.clear();
        self.active.push(0);
        for t in 0..len {
            let depth_cap = (t + 1).min(a.max_depth());
            let lim = a.depth_end[depth_cap] as usize;
            // A node is worth a state only if a spelling in its subtree can still end in the
            // segment; any other state is dominated by its failure link (same gains, no future).
            let left = (len - 1 - t).min(u16::MAX as usize) as u16;
            self.factor_of_depth.clear();
            self.factor_of_depth.push(1.0);
            for d in 1..=depth_cap {
                self.factor_of_depth.push(word_factor(
                    self.doubles[t + 1] - self.doubles[t + 1 - d],
                    self.triples[t + 1] - self.triples[t + 1 - d],
                ));
            }
            let mult = seg.mult[t] as f64;
            let letter_score = self.letter_value.map(|v| v * mult);
            let claim = seg.claim[t];
            let bonus = &seg.bonus[t];
            // A cell with one possible letter: only that letter's nodes can hold a string.
            let fixed = fixed_letter(bonus, seg.blank[t]);
            let sparse = !self.dense_only
                && match (every, fixed) {
                    (true, fixed) => fixed.is_some(),
                    (false, Some(_)) => true,
                    (false, None) => {
                        let children: usize = self
                            .active
                            .iter()
                            .filter(|&&p| (self.info[p as usize].depth as usize) < depth_cap)
                            .map(|&p| a.children(p).len())
                            .sum();
                        (children as f64) < DENSE_SHARE * lim as f64
                    }
                };
            let [s0, s1] = &mut self.state;
            let (prev, next) = if old == 0 {
                (&mut *s0, s1)
            } else {
                (&mut *s1, s0)
            };
            if !every && !sparse {
                // Back to stepping every node: the nodes off the active list hold stale states.
                let mut k = 0;
                for (u, cur) in prev.iter_mut().enumerate().take(prev_lim) {
                    if self.active.get(k) == Some(&(u as u32)) {
                        k += 1;
                    } else {
                        cur.m = f64::NEG_INFINITY;
                    }
                }
            }
            let prev = &*prev;
            let next = &mut next[..lim];
            let info = &self.info[..lim];
            let node_cost = &self.node_cost[..lim];
            let gain = &mut self.gain[..lim];
            let factor_of_depth = &self.factor_of_depth[..];
            // The root: blank, or a letter that continues no node (any letter, relaxed).
            let (choice, add) = root_choice(bonus, seg.blank[t]);
            next[0] = Cur {
                ls: 0.0,
                mc: f64::INFINITY,
                m: prev[0].m + add,
            };
            if want {
                self.root_letter.push(choice);
            }
            // One node's step (a macro so that the loops stay tight).
            macro_rules! step {
                ($u:expr) => {{
                    let u: usize = $u;
                    let n = info[u];
                    if n.min_ext > left {
                        next[u].m = f64::NEG_INFINITY;
                    } else {
                        let o = prev[n.parent as usize];
                        let ls = o.ls + letter_score[n.letter as usize];
                        let mc = o.mc.min(claim);
                        // Where no spelling ends the cost is +inf and the term is 0 (no branch).
                        let score = ls * factor_of_depth[n.depth as usize];
                        let g = gain[n.dict as usize] + (score - node_cost[u] - mc).max(0.0);
                        gain[u] = g;
                        next[u] = Cur {
                            ls,
                            mc,
                            m: o.m + bonus[n.letter as usize] + g,
                        };
                    }
                }};
            }
            // Subtree maxima over failure links, deepest first.
            macro_rules! lift {
                ($u:expr, $arg:expr) => {{
                    let u: usize = $u;
                    let f = a.fail[u] as usize;
                    if next[u].m > next[f].m {
                        next[f].m = next[u].m;
                        $arg[f] = $arg[u];
                    }
                }};
                ($u:expr) => {{
                    let u: usize = $u;
                    let f = a.fail[u] as usize;
                    if next[u].m > next[f].m {
                        next[f].m = next[u].m;
                    }
                }};
            }
            if !sparse {
                (1..lim).for_each(|u| step!(u));
                if want {
                    let at = self.trail.len();
                    self.steps.push(Step::Dense { at });
                    self.trail.extend(0..lim as u32);
                    let arg = &mut self.trail[at..];
                    (1..lim).rev().for_each(|u| lift!(u, arg));
                } else {
                    (1..lim).rev().for_each(|u| lift!(u));
                }
                every = true;
            } else {
                // The nodes to step, in node order: after a dense step, every node of the fixed
                // letter; else the children of the active nodes (of that letter, if fixed).
                let visit = &mut self.next_active;
                visit.clear();
                visit.push(0);
                if every {
                    let list = &a.by_letter[fixed.expect("sparse after dense: a fixed letter")];
                    visit.extend_from_slice(&list[..list.partition_point(|&u| (u as usize) < lim)]);
                } else {
                    for &p in &self.active {
                        if info[p as usize].depth as usize >= depth_cap {
                            continue;
                        }
                        match fixed {
                            Some(l) => visit.extend(a.child(p, l as u8)),
                            None => visit.extend(a.children(p)),
                        }
                    }
                }
                visit[1..].iter().for_each(|&u| step!(u as usize));
                if want {
                    let arg = &mut self.arg;
                    visit.iter().for_each(|&u| arg[u as usize] = u);
                    visit[1..]
                        .iter()
                        .rev()
                        .for_each(|&u| lift!(u as usize, arg));
                    let at = self.sparse_trail.len();
                    self.sparse_trail
                        .extend(visit.iter().map(|&u| (u, arg[u as usize])));
                    self.steps.push(Step::Sparse {
                        at,
                        len: visit.len(),
                    });
                } else {
                    visit[1..].iter().rev().for_each(|&u| lift!(u as usize));
                }
                std::mem::swap(&mut self.active, &mut self.next_active);
                every = false;
            }
            prev_lim = lim;
            old = 1 - old;
        }
        let best = self.state[old][0].m;
        if let Some(path) = path {
            self.backtrack(a, seg, cost, path);
        }
        best
    }

    /// The best state in the failure-link subtree of `node` after step `t` (`node` held a
    /// state then: a predecessor on the best path).
    fn argmax(&self, t: usize, node: u32) -> u32 {
        match self.steps[t] {
            Step::Dense { at } => self.trail[at + node as usize],
            Step::Sparse { at, len } => {
                let entries = &self.sparse_trail[at..at + len];
                let k = entries
                    .binary_search_by_key(&node, |e| e.0)
                    .expect("a node on the best path held a state");
                entries[k].1
            }
        }
    }

    fn backtrack(&self, a: &Automaton, seg: &Segment, cost: &[f64], path: &mut Path) {
        let len = seg.mult.len();
        path.letters.clear();
        path.letters.resize(len, 0);
        path.occurrences.clear();
        if len == 0 {
            return;
        }
        // The state after the last cell, then each step's predecessor.
        let mut states = vec![0u32; len];
        let mut state = self.argmax(len - 1, 0);
        for t in (0..len).rev() {
            states[t] = state;
            path.letters[t] = if state == 0 {
                match self.root_letter[t] {
                    0 => 0,
                    l => b'A' + l - 1,
                }
            } else {
                b'A' + a.letter[state as usize]
            };
            if t > 0 {
                let from = a.parent[state as usize] as usize;
                state = self.argmax(t - 1, from as u32);
            }
        }
        for (t, &u) in states.iter().enumerate() {
            for s in a.outputs(u) {
                let word = &a.spellings[s as usize];
                let start = t + 1 - word.len();
                let (r, claim) =
                    occurrence_value(seg, word, start, cost[s as usize], &self.letter_value);
                if r > 0.0 {
                    path.occurrences.push(Occurrence {
                        spelling: s,
                        start: start as u16,
                        claim: claim as u16,
                    });
                }
            }
        }
    }
}

/// The only letter a cell may take (no blank, every other letter -inf), if so.
fn fixed_letter(bonus: &[f64; 26], blank: bool) -> Option<usize> {
    if blank {
        return None;
    }
    let mut finite = bonus
        .iter()
        .enumerate()
        .filter(|(_, b)| **b > f64::NEG_INFINITY);
    match (finite.next(), finite.next()) {
        (Some((l, _)), None) => Some(l),
        _ => None,
    }
}

/// The root state's letter: blank (0) when allowed and no letter bonus is positive, else the letter
/// with the largest bonus (1 + index); and what it adds.
fn root_choice(bonus: &[f64; 26], blank: bool) -> (u8, f64) {
    let (mut letter, mut best) = (0u8, f64::NEG_INFINITY);
    for (l, &b) in bonus.iter().enumerate() {
        if b > best {
            (letter, best) = (l as u8 + 1, b);
        }
    }
    if blank && best <= 0.0 {
        (0, 0.0)
    } else {
        (letter, best)
    }
}

/// The reduced value of `word` at offset `start` of `seg` with cost `cost`, computed in the same
/// order as the DP, and the cell (offset) it claims.
pub fn occurrence_value(
    seg: &Segment,
    word: &[u8],
    start: usize,
    cost: f64,
    letter_value: &[f64; 26],
) -> (f64, usize) {
    let mut ls = 0.0;
    let (mut doubles, mut triples) = (0, 0);
    let (mut mc, mut claim) = (f64::INFINITY, start);
    for (k, &b) in word.iter().enumerate() {
        let c = start + k;
        ls += letter_value[(b - b'A') as usize] * seg.mult[c] as f64;
        doubles += (seg.factor[c] == 2) as usize;
        triples += (seg.factor[c] == 3) as usize;
        if seg.claim[c] < mc {
            (mc, claim) = (seg.claim[c], c);
        }
    }
    let score = ls * word_factor(doubles, triples);
    ((score - cost - mc).max(0.0), claim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    const ALPHABET: &[u8] = b"ABCX";

    /// The value of `letters` (0 = blank) by brute force: every spelling at every start.
    fn rescore(seg: &Segment, spellings: &[Vec<u8>], cost: &[f64], letters: &[u8]) -> f64 {
        let values = crate::words::LetterValues::scrabble_english()
            .0
            .map(|v| v as f64);
        let mut total = 0.0;
        for (t, &l) in letters.iter().enumerate() {
            total += match l {
                0 if seg.blank[t] => 0.0,
                0 => f64::NEG_INFINITY,
                l => seg.bonus[t][(l - b'A') as usize],
            };
        }
        for (s, word) in spellings.iter().enumerate() {
            for start in 0..=letters.len().saturating_sub(word.len()) {
                if word.len() <= letters.len() && letters[start..start + word.len()] == word[..] {
                    total += occurrence_value(seg, word, start, cost[s], &values).0;
                }
            }
        }
        total
    }

    struct Owned {
        mult: Vec<u8>,
        factor: Vec<u8>,
        claim: Vec<f64>,
        bonus: Vec<[f64; 26]>,
        blank: Vec<bool>,
    }

    impl Owned {
        fn segment(&self) -> Segment<'_> {
            Segment {
                mult: &self.mult,
                factor: &self.factor,
                claim: &self.claim,
                bonus: &self.bonus,
                blank: &self.blank,
            }
        }
    }

    fn random_segment(rng: &mut Xoshiro256PlusPlus, len: usize) -> Owned {
        let mut owned = Owned {
            mult: Vec::new(),
            factor: Vec::new(),
            claim: Vec::new(),
            bonus: Vec::new(),
            blank: Vec::new(),
        };
        for _ in 0..len {
            let kind = rng.random_range(0..6);
            owned.mult.push(if kind >= 4 {
                1
            } else {
                rng.random_range(0..=9)
            });
            owned.factor.push(match kind {
                4 => 2,
                5 => 3,
                _ => 1,
            });
            owned.claim.push(if rng.random_bool(0.5) {
                rng.random_range(0.0..20.0)
            } else {
                0.0
            });
            let mut bonus = [f64::NEG_INFINITY; 26];
            for &l in ALPHABET {
                bonus[(l - b'A') as usize] = if rng.random_bool(0.2) {
                    f64::NEG_INFINITY // a letter forbidden here
                } else {
                    rng.random_range(-10.0..10.0)
                };
            }
            let mut blank = rng.random_bool(0.8);
            if rng.random_bool(0.3) {
                // A cell already filled: one letter, no blank, nobody's new cell.
                let l = ALPHABET[rng.random_range(0..ALPHABET.len())];
                bonus = [f64::NEG_INFINITY; 26];
                bonus[(l - b'A') as usize] = 0.0;
                blank = false;
                *owned.claim.last_mut().expect("pushed above") = f64::INFINITY;
            }
            owned.bonus.push(bonus);
            owned.blank.push(blank);
        }
        owned
    }

    /// Every string over blank + ALPHABET.
    fn all_strings(len: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        for _ in 0..len {
            out = out
                .into_iter()
                .flat_map(|s| {
                    std::iter::once(0)
                        .chain(ALPHABET.iter().copied())
                        .map(move |l| {
                            let mut t = s.clone();
                            t.push(l);
                            t
                        })
                })
                .collect();
        }
        out
    }

    /// Segments of a real board: runs of filled cells (letters of real words) around empty ones.
    fn filled_segment(rng: &mut Xoshiro256PlusPlus, words: &[Vec<u8>], len: usize) -> Owned {
        let mut owned = random_segment(rng, len);
        let mut t = 0;
        while t < len {
            let w = &words[rng.random_range(0..words.len())];
            if rng.random_bool(0.6) {
                for &l in w.iter().take(len - t) {
                    let mut bonus = [f64::NEG_INFINITY; 26];
                    bonus[(l - b'A') as usize] = 0.0;
                    owned.bonus[t] = bonus;
                    owned.blank[t] = false;
                    owned.claim[t] = f64::INFINITY;
                    t += 1;
                }
            } else {
                for b in owned.bonus[t].iter_mut() {
                    *b = rng.random_range(-8.0..2.0);
                }
                owned.blank[t] = true;
                owned.claim[t] = rng.random_range(0.0..5.0);
                t += 1;
            }
        }
        owned
    }

    #[test]
    fn stepping_only_the_live_states_changes_nothing() {
        let english = &crate::words::english().words;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let values = crate::words::LetterValues::scrabble_english().0;
        let mut sparse_steps = 0;
        for case in 0..60 {
            let words: Vec<Vec<u8>> = (0..rng.random_range(20..400))
                .map(|_| {
                    english[rng.random_range(0..english.len())]
                        .as_bytes()
                        .to_vec()
                })
                .collect();
            let a = Automaton::new(&words, |_| true);
            let mut fast = LineDp::new(&a, &values);
            let mut slow = LineDp::new(&a, &values);
            slow.dense_only = true;
            let cost: Vec<f64> = (0..a.spellings.len())
                .map(|_| rng.random_range(0.0..10.0))
                .collect();
            for _ in 0..5 {
                let len = rng.random_range(1..40);
                let owned = filled_segment(&mut rng, &a.spellings, len);
                let seg = owned.segment();
                let (mut p, mut q) = (Path::default(), Path::default());
                let v = fast.solve(&a, &seg, &cost, Some(&mut p));
                let w = slow.solve(&a, &seg, &cost, Some(&mut q));
                assert_eq!(v, w, "case {case}");
                sparse_steps += fast
                    .steps
                    .iter()
                    .filter(|s| matches!(s, Step::Sparse { .. }))
                    .count();
                assert_eq!(fast.solve(&a, &seg, &cost, None), v, "case {case}");
                assert_eq!(p.letters, q.letters, "case {case}");
                assert_eq!(p.occurrences, q.occurrences, "case {case}");
            }
        }
        assert!(sparse_steps > 1000, "{sparse_steps} sparse steps");
    }

    #[test]
    fn the_dp_finds_the_best_string_and_scores_it_right() {
        let lists: [&[&str]; 3] = [
            &["AB", "ABA", "CAB", "XA", "BAB", "ABAB"],
            &["AA", "AAA", "BA", "CAX", "XAC", "AB"],
            &["ABC", "BC", "C", "XABC", "CC", "BCB"],
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let values = crate::words::LetterValues::scrabble_english().0;
        let mut compared = 0;
        for case in 0..150 {
            let list: Vec<Vec<u8>> = lists[case % 3]
                .iter()
                .map(|w| w.as_bytes().to_vec())
                .collect();
            let a = Automaton::new(&list, |_| true);
            let mut dp = LineDp::new(&a, &values);
            let len = rng.random_range(1..=6);
            let owned = random_segment(&mut rng, len);
            let seg = owned.segment();
            let cost: Vec<f64> = (0..a.spellings.len())
                .map(|_| match rng.random_range(0..4) {
                    0 => f64::INFINITY,
                    1 => 0.0,
                    _ => rng.random_range(0.0..30.0),
                })
                .collect();
            let mut path = Path::default();
            let value = dp.solve(&a, &seg, &cost, Some(&mut path));
            let without_path = dp.solve(&a, &seg, &cost, None);
            assert_eq!(value, without_path, "case {case}");
            let best = all_strings(len)
                .iter()
                .map(|s| rescore(&seg, &a.spellings, &cost, s))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                (value - best).abs() < 1e-6,
                "case {case}: dp {value}, brute force {best}"
            );
            let again = rescore(&seg, &a.spellings, &cost, &path.letters);
            assert!(
                (value - again).abs() < 1e-6,
                "case {case}: {value} vs re-scored {again}"
            );
            // The counted occurrences are real and add up to the value.
            let mut sum: f64 = path
                .letters
                .iter()
                .enumerate()
                .map(|(t, &l)| {
                    if l == 0 {
                        0.0
                    } else {
                        seg.bonus[t][(l - b'A') as usize]
                    }
                })
                .sum();
            for o in &path.occurrences {
                let w = &a.spellings[o.spelling as usize];
                let s = o.start as usize;
                assert_eq!(&path.letters[s..s + w.len()], &w[..], "case {case}");
                assert!((s..s + w.len()).contains(&(o.claim as usize)));
                sum += occurrence_value(&seg, w, s, cost[o.spelling as usize], &dp.letter_value).0;
            }
            assert!((value - sum).abs() < 1e-6, "case {case}: {value} vs {sum}");
            compared += (value > 0.0) as usize;
        }
        assert!(compared > 100, "{compared}");
    }
}
