//! An upper bound for the exact search: the Lagrangian relaxation of "every candidate covering a
//! cell agrees on its letter". With y(c, l) = "cell c holds letter l" (at most one letter per
//! cell) the rule is x(p) <= y(c, letter of p at c) for every candidate p and empty cell c it
//! covers; a price mu(p, c) >= 0 on each such pair leaves two easy problems: every spelling takes
//! its best candidates at reduced scores (score minus its prices, as many as it has entries),
//! and every cell its best letter (worth the prices of the candidates that want it). Any prices
//! give a valid bound; subgradient steps lower it towards the linear relaxation's value.

use super::model::Model;

/// Prices and scratch space; `mu` is aligned with `Model::cells`.
pub struct Lagrange {
    pub mu: Vec<f64>,
    /// Per cell, the summed prices of the candidates that want each letter there.
    want: Vec<[f64; 26]>,
    touched: Vec<u32>,
    seen: Vec<bool>,
    /// Per spelling, the best reduced scores so far (at most as many as it has entries left).
    tops: Vec<Vec<(f64, u32)>>,
}

/// What one evaluation chose, for a subgradient step.
#[derive(Default)]
pub struct Choice {
    /// Candidates taken by their spelling's problem.
    pub taken: Vec<u32>,
    /// Letter (index) chosen on each touched empty cell, or 255 for none.
    pub letter: Vec<(u32, u8)>,
}

/// Offer (value, candidate) to `top`, which keeps the `room` best values offered.
pub fn keep_best(top: &mut Vec<(f64, u32)>, room: usize, offer: (f64, u32)) {
    if top.len() < room {
        top.push(offer);
    } else if let Some(min) = (0..top.len()).min_by(|&a, &b| top[a].0.total_cmp(&top[b].0)) {
        if top[min].0 < offer.0 {
            top[min] = offer;
        }
    }
}

impl Lagrange {
    pub fn new(model: &Model) -> Lagrange {
        let cells = model.free.len();
        Lagrange {
            mu: vec![0.0; model.cells.len()],
            want: vec![[0.0; 26]; cells],
            touched: Vec::new(),
            seen: vec![false; cells],
            tops: vec![Vec::new(); model.spellings.len()],
        }
    }

    /// The bound over the candidates from index `from` on that agree with `letters` and whose
    /// spelling has entries left (`left`), at the current prices; with `choice`, what the two
    /// problems chose.
    pub fn value(
        &mut self,
        model: &Model,
        from: usize,
        letters: &[u8],
        left: &[u32],
        banned: &[bool],
        mut choice: Option<&mut Choice>,
    ) -> f64 {
        for t in &mut self.tops {
            t.clear();
        }
        for (k, cand) in model.open_from(from, left, banned) {
            let s = cand.spelling as usize;
            let cells = model.cells_of(k);
            if cells
                .iter()
                .any(|&(c, l)| letters[c as usize] != 0 && letters[c as usize] != l)
            {
                continue;
            }
            let mut reduced = cand.score as f64;
            let first = cand.first as usize;
            for (i, &(c, l)) in cells.iter().enumerate() {
                if letters[c as usize] == 0 {
                    let m = self.mu[first + i];
                    reduced -= m;
                    if m > 0.0 {
                        let c = c as usize;
                        if !self.seen[c] {
                            self.seen[c] = true;
                            self.touched.push(c as u32);
                        }
                        self.want[c][(l - b'A') as usize] += m;
                    }
                }
            }
            if reduced > 0.0 {
                keep_best(&mut self.tops[s], left[s] as usize, (reduced, k as u32));
            }
        }
        let mut total = 0.0;
        for top in &self.tops {
            total += top.iter().map(|t| t.0).sum::<f64>();
        }
        if let Some(ch) = choice.as_deref_mut() {
            ch.taken.clear();
            ch.letter.clear();
            for top in &self.tops {
                ch.taken.extend(top.iter().map(|t| t.1));
            }
        }
        for &c in &self.touched {
            let c = c as usize;
            let (mut best, mut letter) = (0.0, 255u8);
            for (l, &v) in self.want[c].iter().enumerate() {
                if v > best {
                    (best, letter) = (v, l as u8);
                }
            }
            total += best;
            if let Some(ch) = choice.as_deref_mut() {
                ch.letter.push((c as u32, letter));
            }
            self.want[c] = [0.0; 26];
            self.seen[c] = false;
        }
        self.touched.clear();
        total
    }

    /// Subgradient steps on the prices from the root's view (nothing fixed beyond the frame),
    /// each aimed at `lower` (a score some plan reaches); returns the best bound seen. The prices
    /// left are those of the best step.
    pub fn tighten(&mut self, model: &Model, lower: f64, steps: usize) -> f64 {
        let left: Vec<u32> = model
            .spellings
            .iter()
            .map(|s| s.entries.len() as u32)
            .collect();
        let banned = vec![false; model.cands.len()];
        let letters = &model.fixed;
        let mut best = f64::INFINITY;
        let mut best_mu = self.mu.clone();
        let mut scale = crate::scruffle::dual::StepScale::new(5);
        let mut choice = Choice::default();
        let mut taken = vec![false; model.cands.len()];
        let mut chosen_letter = vec![255u8; model.free.len()];
        for _ in 0..steps {
            let value = self.value(model, 0, letters, &left, &banned, Some(&mut choice));
            let better = value < best - 1e-9;
            if better {
                best = value;
                best_mu.clone_from(&self.mu);
            }
            scale.record(better);
            if value <= lower + 1e-9 || scale.theta < 1e-4 {
                break;
            }
            for &k in &choice.taken {
                taken[k as usize] = true;
            }
            for &(c, l) in &choice.letter {
                chosen_letter[c as usize] = l;
            }
            // g(p, c) = y(c, l) - x(p); the price falls where the cell's letter is wanted
            // without the candidate, rises where the candidate is taken without its letter.
            let mut norm = 0.0;
            let grad = |k: usize, i: usize, mu: f64, taken: &[bool], chosen: &[u8]| -> f64 {
                let (c, l) = model.cells[model.cands[k].first as usize + i];
                let y = (chosen[c as usize] == l - b'A') as u8 as f64;
                let g = y - taken[k] as u8 as f64;
                if mu > 0.0 || g < 0.0 {
                    g
                } else {
                    0.0
                }
            };
            for k in 0..model.cands.len() {
                let cand = &model.cands[k];
                for i in 0..cand.len as usize {
                    let (c, _) = model.cells[cand.first as usize + i];
                    if letters[c as usize] == 0 {
                        let g = grad(
                            k,
                            i,
                            self.mu[cand.first as usize + i],
                            &taken,
                            &chosen_letter,
                        );
                        norm += g * g;
                    }
                }
            }
            if norm == 0.0 {
                break;
            }
            let step = scale.theta * (value - lower) / norm;
            for k in 0..model.cands.len() {
                let cand = &model.cands[k];
                for i in 0..cand.len as usize {
                    let (c, _) = model.cells[cand.first as usize + i];
                    if letters[c as usize] == 0 {
                        let at = cand.first as usize + i;
                        let g = grad(k, i, self.mu[at], &taken, &chosen_letter);
                        self.mu[at] = (self.mu[at] - step * g).max(0.0);
                    }
                }
            }
            for &k in &choice.taken {
                taken[k as usize] = false;
            }
            for &(c, _) in &choice.letter {
                chosen_letter[c as usize] = 255;
            }
        }
        self.mu = best_mu;
        best
    }
}
