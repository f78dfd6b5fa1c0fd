//! A re-solve guided by the relaxation (RENS in integer programming): the clique relaxation of
//! the whole board, solved approximately by subgradient steps whose choices are averaged, names
//! the candidates a near-optimal fractional plan uses; the candidate search then finds the best
//! plan among those and the plan's own plays. Unlike the re-solves of part of the plan (`keep`),
//! nothing of the plan's layout is kept: the relaxation sees the whole board at once.

use super::bound::keep_best;
use super::model::Model;
use super::search::{self, Node};
use super::{placements, MAX_CANDIDATES};
use crate::scruffle::layout::Placement;
use std::collections::HashMap;
use std::time::Instant;

/// The clique relaxation. Every candidate needs its letter on each free cell it covers; the
/// candidates of one direction that put letter l on cell c and pairwise clash (the same cells, or
/// a disagreeing letter where they overlap) can hold at most one between them, so they share one
/// row `sum x(p) <= y(c, l)` (with at most one letter per cell). Those rows are priced.
pub struct Cliques {
    /// The clique of each (candidate, cell) pair, aligned with `Model::cells` (`NONE` on a fixed
    /// cell).
    of: Vec<u32>,
    /// The (cell, letter index) of each clique.
    at: Vec<(u32, u8)>,
}

const NONE: u32 = u32::MAX;

/// Subgradient steps on the whole model before the search (about 0.3 s on a 15x12 board with 60
/// entries), and the steps without a better bound before the step size halves.
const ROOT_STEPS: usize = 3000;
const ROOT_PATIENCE: usize = 100;

/// Subgradient steps at each node of the search, from the prices the last node left: they try to
/// cut the node (at fixed prices the search found no better plan in 100,000 nodes on a case where
/// these steps find one within 15,000).
const NODE_STEPS: usize = 5;

/// The candidates searched: those the relaxation chooses at least this share of the time.
pub const SHARE: f64 = 0.01;

impl Cliques {
    pub fn new(model: &Model) -> Cliques {
        // (cell, direction, letter) -> (candidate, index of the cell in it), best first.
        let mut groups: HashMap<(u32, bool, u8), Vec<(u32, u16)>> = HashMap::new();
        for (k, cand) in model.cands.iter().enumerate() {
            let vertical = cand.pos.dir() == crate::scruffle::layout::Dir::V;
            for (i, &(c, l)) in model.cells_of(k).iter().enumerate() {
                if model.fixed[c as usize] == 0 {
                    groups
                        .entry((c, vertical, l))
                        .or_default()
                        .push((k as u32, i as u16));
                }
            }
        }
        let mut keys: Vec<_> = groups.keys().copied().collect();
        keys.sort_unstable();
        let mut of = vec![NONE; model.cells.len()];
        let mut at = Vec::new();
        for key in keys {
            let members = &groups[&key];
            // Greedy partition into cliques of pairwise clashing candidates.
            let mut cliques: Vec<Vec<(u32, u16)>> = Vec::new();
            for &m in members {
                match cliques
                    .iter_mut()
                    .find(|q| q.iter().all(|&o| clash(model, m, o)))
                {
                    Some(q) => q.push(m),
                    None => cliques.push(vec![m]),
                }
            }
            for q in cliques {
                let id = at.len() as u32;
                at.push((key.0, key.2 - b'A'));
                for (k, i) in q {
                    of[model.cands[k as usize].first as usize + i as usize] = id;
                }
            }
        }
        Cliques { of, at }
    }

    /// Each cell without a letter in `letters` takes the letter whose rows pay most at `price`;
    /// their pay is added to `total`. `letter` gets each pick (255: none); `want` is scratch, left
    /// zeroed.
    fn pick_letters(
        &self,
        price: &[f64],
        letters: &[u8],
        want: &mut [[f64; 26]],
        letter: &mut [u8],
        mut total: f64,
    ) -> f64 {
        for (q, &(c, l)) in self.at.iter().enumerate() {
            if letters[c as usize] == 0 {
                want[c as usize][l as usize] += price[q];
            }
        }
        for (c, w) in want.iter_mut().enumerate() {
            if letters[c] != 0 {
                continue;
            }
            let (mut top, mut pick) = (0.0, 255u8);
            for (l, &v) in w.iter().enumerate() {
                if v > top {
                    (top, pick) = (v, l as u8);
                }
            }
            total += top;
            letter[c] = pick;
            *w = [0.0; 26];
        }
        total
    }

    /// One projected subgradient step on `price`: g(q) = y(c, l) - the candidates of `taken` in
    /// the clique (0 on cells with a letter), size `factor / |g|^2`; `load` is scratch. False when
    /// g is 0 (no step).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        model: &Model,
        taken: impl Iterator<Item = u32>,
        letters: &[u8],
        letter: &[u8],
        price: &mut [f64],
        load: &mut [f64],
        factor: f64,
    ) -> bool {
        load.iter_mut().for_each(|v| *v = 0.0);
        for k in taken {
            let cand = &model.cands[k as usize];
            for &q in &self.of[cand.first as usize..][..cand.len as usize] {
                if q != NONE {
                    load[q as usize] += 1.0;
                }
            }
        }
        let mut norm = 0.0;
        for (q, &(c, l)) in self.at.iter().enumerate() {
            let g = match letters[c as usize] {
                0 => f64::from(u8::from(letter[c as usize] == l)) - load[q],
                _ => 0.0,
            };
            load[q] = if price[q] > 0.0 || g < 0.0 { g } else { 0.0 };
            norm += load[q] * load[q];
        }
        if norm == 0.0 {
            return false;
        }
        let size = factor / norm;
        for (p, &g) in price.iter_mut().zip(load.iter()) {
            *p = (*p - size * g).max(0.0);
        }
        true
    }
}

/// Two candidates of one direction through the same cell (at `a.1`, `b.1` of their cells):
/// may they not both be played? (The same cells, or a different letter on a shared cell.)
fn clash(model: &Model, a: (u32, u16), b: (u32, u16)) -> bool {
    let (ca, cb) = (model.cells_of(a.0 as usize), model.cells_of(b.0 as usize));
    if ca.len() == cb.len() && ca[0].0 == cb[0].0 {
        return true;
    }
    // Aligned along the line: a's cell ia + t is b's cell ib + t.
    let (ia, ib) = (a.1 as usize, b.1 as usize);
    let back = ia.min(ib);
    let ahead = (ca.len() - ia).min(cb.len() - ib);
    (0..back + ahead).any(|t| ca[ia - back + t].1 != cb[ib - back + t].1)
}

/// The clique relaxation's bound for the candidate search over a model whose candidates are some
/// of those the cliques were built on; at each node a few subgradient steps try to cut it.
pub struct CliqueBound {
    /// The cliques of the searched model's candidates, renumbered.
    rows: Cliques,
    price: Vec<f64>,
    steps: usize,
    tops: Vec<Vec<(f64, u32)>>,
    want: Vec<[f64; 26]>,
    load: Vec<f64>,
    letter: Vec<u8>,
}

impl CliqueBound {
    /// `order[k]` is the candidate of `full` that is candidate k of `sub`.
    pub fn new(
        full: &Model,
        sub: &Model,
        order: &[u32],
        cliques: &Cliques,
        price: &[f64],
        steps: usize,
    ) -> CliqueBound {
        let mut compact = HashMap::new();
        let mut at = Vec::new();
        let mut prices = Vec::new();
        let mut of = Vec::with_capacity(sub.cells.len());
        for &k in order {
            let c = &full.cands[k as usize];
            for &q in &cliques.of[c.first as usize..c.first as usize + c.len as usize] {
                if q == NONE {
                    of.push(NONE);
                    continue;
                }
                let id = *compact.entry(q).or_insert_with(|| {
                    at.push(cliques.at[q as usize]);
                    prices.push(price[q as usize]);
                    at.len() as u32 - 1
                });
                of.push(id);
            }
        }
        let n = at.len();
        CliqueBound {
            rows: Cliques { of, at },
            price: prices,
            steps,
            tops: vec![Vec::new(); sub.spellings.len()],
            want: vec![[0.0; 26]; full.free.len()],
            load: vec![0.0; n],
            letter: vec![255; full.free.len()],
        }
    }

    fn value(&mut self, model: &Model, node: &Node) -> f64 {
        let Node {
            from,
            letters,
            left,
            banned,
        } = *node;
        for t in &mut self.tops {
            t.clear();
        }
        for (k, cand) in model.open_from(from, left, banned) {
            let s = cand.spelling as usize;
            let cells = model.cells_of(k);
            let mut r = cand.score as f64;
            let mut ok = true;
            for (i, &(c, l)) in cells.iter().enumerate() {
                match letters[c as usize] {
                    0 => {
                        let q = self.rows.of[cand.first as usize + i];
                        if q != NONE {
                            r -= self.price[q as usize];
                        }
                    }
                    x if x != l => {
                        ok = false;
                        break;
                    }
                    _ => {}
                }
            }
            if !ok || r <= 0.0 {
                continue;
            }
            keep_best(&mut self.tops[s], left[s] as usize, (r, k as u32));
        }
        let total: f64 = self
            .tops
            .iter()
            .map(|t| t.iter().map(|x| x.0).sum::<f64>())
            .sum();
        self.rows.pick_letters(
            &self.price,
            letters,
            &mut self.want,
            &mut self.letter,
            total,
        )
    }
}

impl search::OpenBound for CliqueBound {
    fn open(&mut self, model: &Model, node: &Node, need: f64) -> f64 {
        let letters = node.letters;
        let mut best = f64::INFINITY;
        for step in 0..=self.steps {
            let value = self.value(model, node);
            best = best.min(value);
            if best < need - 1e-6 || step == self.steps {
                break;
            }
            let taken = self.tops.iter().flatten().map(|&(_, k)| k);
            let factor = 0.5 * (value - need);
            let (price, load) = (&mut self.price, &mut self.load);
            if !self
                .rows
                .step(model, taken, letters, &self.letter, price, load, factor)
            {
                break;
            }
        }
        best
    }
}

/// The relaxation after subgradient steps.
pub struct Relaxed {
    /// How often each candidate was chosen, the later steps weighing more (an estimate of the
    /// linear relaxation's solution).
    pub average: Vec<f64>,
    /// The prices of the best bound, per clique.
    pub price: Vec<f64>,
    /// The best bound seen.
    pub bound: f64,
}

/// Up to `steps` subgradient steps on the clique prices, each aimed at `lower` (a score some plan
/// reaches), until `deadline`.
pub fn fractional(
    model: &Model,
    cliques: &Cliques,
    lower: f64,
    steps: usize,
    deadline: Instant,
) -> Relaxed {
    let n = model.cands.len();
    let mut price = vec![0.0f64; cliques.at.len()];
    let mut average = vec![0.0f64; n];
    let mut bound = f64::INFINITY;
    let mut best_price = price.clone();
    let mut scale = crate::scruffle::dual::StepScale::new(ROOT_PATIENCE);
    let mut taken: Vec<u32> = Vec::new();
    let mut reduced: Vec<(f64, u32)> = Vec::new();
    let mut want = vec![[0.0f64; 26]; model.free.len()];
    let mut load = vec![0.0f64; cliques.at.len()];
    let mut letter = vec![255u8; model.free.len()];
    let mut chosen = vec![false; n];
    for step in 0..steps {
        if step % 16 == 15 && Instant::now() >= deadline {
            break;
        }
        // The spellings' problem: each takes its best candidates at reduced scores.
        let mut value = 0.0;
        taken.clear();
        for s in &model.spellings {
            reduced.clear();
            for &k in &s.cands {
                let cand = &model.cands[k as usize];
                let mut r = cand.score as f64;
                for &q in &cliques.of[cand.first as usize..][..cand.len as usize] {
                    if q != NONE {
                        r -= price[q as usize];
                    }
                }
                if r > 0.0 {
                    reduced.push((r, k));
                }
            }
            let room = s.entries.len().min(reduced.len());
            if room > 0 {
                reduced.select_nth_unstable_by(room - 1, |a, b| b.0.total_cmp(&a.0));
                for &(r, k) in &reduced[..room] {
                    value += r;
                    taken.push(k);
                }
            }
        }
        // The cells' problem: each takes the letter whose rows pay most.
        let value = cliques.pick_letters(&price, &model.fixed, &mut want, &mut letter, value);
        let better = value < bound;
        if better {
            bound = value;
            best_price.clone_from(&price);
        }
        scale.record(better);
        // The running average of the choices, weight 2 / (step + 2): the early steps fade.
        for &k in &taken {
            chosen[k as usize] = true;
        }
        let weight = 2.0 / (step as f64 + 2.0);
        for (a, c) in average.iter_mut().zip(chosen.iter_mut()) {
            *a += weight * (f64::from(u8::from(*c)) - *a);
            *c = false;
        }
        if value <= lower + 1e-9 || scale.theta < 1e-4 {
            break;
        }
        let factor = scale.theta * (value - lower);
        let (fixed, taken) = (&model.fixed, taken.iter().copied());
        if !cliques.step(model, taken, fixed, &letter, &mut price, &mut load, factor) {
            break;
        }
    }
    Relaxed {
        average,
        price: best_price,
        bound,
    }
}

/// What one relaxation-guided re-solve found.
pub struct Rens {
    /// The best plan among the candidates searched (plays in order, score), if it beats the floor.
    pub better: Option<(Vec<Placement>, u64)>,
    /// The search ended: no plan among those candidates beats what it returned (or the floor).
    pub complete: bool,
    /// Candidates searched, of the model's.
    pub searched: usize,
    /// The relaxation's bound on the whole model.
    pub bound: f64,
}

/// The best plan among the candidates the relaxation uses at least `share` of the time (after
/// `ROOT_STEPS` subgradient steps) and the plays of `plan`, if it beats `floor`, by the candidate
/// search within `node_limit` nodes or until `deadline`. A model over `MAX_CANDIDATES` is not
/// tried (nothing found, incomplete).
pub fn resolve(
    model: &Model,
    plan: &[Placement],
    floor: u64,
    share: f64,
    node_limit: u64,
    deadline: Instant,
) -> Rens {
    if model.cands.len() > MAX_CANDIDATES {
        return Rens {
            better: None,
            complete: false,
            searched: 0,
            bound: f64::INFINITY,
        };
    }
    let cliques = Cliques::new(model);
    let relaxed = fractional(model, &cliques, floor as f64, ROOT_STEPS, deadline);
    let mut keep: Vec<bool> = relaxed.average.iter().map(|&a| a >= share).collect();
    let spelling_of: HashMap<u32, usize> = model
        .spellings
        .iter()
        .enumerate()
        .flat_map(|(s, sp)| sp.entries.iter().map(move |&e| (e, s)))
        .collect();
    for p in plan {
        if let Some(&s) = spelling_of.get(&p.word) {
            for &k in &model.spellings[s].cands {
                if model.cands[k as usize].pos == p.pos {
                    keep[k as usize] = true;
                }
            }
        }
    }
    let order: Vec<u32> = (0..model.cands.len() as u32)
        .filter(|&k| keep[k as usize])
        .collect();
    let sub = model.restrict(&order);
    let bound = CliqueBound::new(model, &sub, &order, &cliques, &relaxed.price, NODE_STEPS);
    let found = search::search(&sub, bound, floor, deadline, node_limit);
    Rens {
        better: (found.score > floor).then(|| (placements(&sub, &found.order), found.score)),
        complete: found.complete,
        searched: sub.cands.len(),
        bound: relaxed.bound,
    }
}
