//! Training the learned value by TD(0) on afterstates, in self-play with the greedy V policy.
//!
//! After each placement (afterstate s with r rolls to come) the target is the *expected* value of
//! the next afterstate: the exact average over the 21 distinct rolls (36 ordered ones) of the best
//! V reachable with that roll — so the dice add no noise to the target. The next move is the best
//! one for the roll actually drawn, found in the same sweep. Step sizes adapt per table entry by
//! temporal-coherence learning (Beal & Smith): entry i moves by `alpha * |E_i| / A_i * delta / n`,
//! E_i and A_i being the sums of its past errors and of their sizes, n the active entries.
//!
//! Game k's dice come from a generator seeded by (seed, k) alone, and training is sequential, so a
//! run is determined by its seed and game count — resuming from a saved file gives the same
//! weights as one long run.

use super::features::{Active, FeatureSet};
use super::file::{layout_text, Coherence, WeightFile};
use super::net::{self, Activations};
use super::value::LearnedValue;
use crate::splitter::dotnet_random::game_dice;
use crate::splitter::game::Dice;
use crate::splitter::geometry::Bits;
use crate::splitter::layout::Layout;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Default step size of the network's RMS-scaled gradient steps (1e-3 learned about twice as fast
/// as 2e-4 on layout 1: greedy 36.86 against 36.27 after 60,000 and 40,000 games).
pub const DEFAULT_NET_RATE: f32 = 1e-3;

pub struct Trainer {
    pub value: LearnedValue,
    coherence: Coherence,
    pub seed: u64,
    pub alpha: f32,
    /// Step size of the network's RMS-scaled gradient steps (when the value has a network).
    pub net_rate: f32,
    /// Games trained so far (the next game's index).
    pub games: u64,
    rounds: usize,
}

impl Trainer {
    /// A fresh trainer (all weights zero). None when the layout has more than 64 cells.
    pub fn new(
        layout: &Layout,
        seed: u64,
        alpha: f32,
        net_rate: f32,
        set: FeatureSet,
    ) -> Option<Trainer> {
        let mut value = LearnedValue::untrained_with(layout, set)?;
        value.weights = value.features.prior();
        let len = value.weights.len();
        Some(Trainer {
            value,
            coherence: Coherence {
                errors: vec![0.0; len],
                sizes: vec![0.0; len],
            },
            seed,
            alpha,
            net_rate,
            games: 0,
            rounds: layout.default_rounds(),
        })
    }

    /// Continue from a saved file (its weights, step-size state, seed and game count).
    pub fn resume(layout: &Layout, file: &WeightFile) -> Result<Trainer, String> {
        let coherence = file
            .coherence
            .clone()
            .ok_or("the file has no training state (tc no): it cannot be resumed")?;
        Ok(Trainer {
            value: LearnedValue::from_file(layout, file).ok_or("layout over 64 cells")?,
            coherence,
            seed: file.seed,
            alpha: file.alpha,
            net_rate: file.net_rate.unwrap_or(DEFAULT_NET_RATE),
            games: file.games,
            rounds: layout.default_rounds(),
        })
    }

    pub fn to_file(&self, layout: &Layout) -> WeightFile {
        WeightFile {
            layout: layout_text(layout),
            features: self.value.features.set.name(),
            seed: self.seed,
            games: self.games,
            alpha: self.alpha,
            net_rate: self.value.features.net.is_some().then_some(self.net_rate),
            weights: self.value.weights.clone(),
            coherence: Some(self.coherence.clone()),
        }
    }

    fn dice_rng(&self, game: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(
            self.seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(game),
        )
    }

    /// Play the next training game greedily with the current V, learning after every placement;
    /// returns its final score.
    pub fn train_game(&mut self) -> u32 {
        let mut rng = self.dice_rng(self.games);
        let mut roll = || Dice(rng.random_range(1..=6), rng.random_range(1..=6));
        let geo = self.value.features.geo.clone();
        let mut b = geo.empty_board();
        let mut r = self.rounds.saturating_sub(1);
        if let Some((p, _)) = self.value.best(&b, roll(), r) {
            geo.apply(&mut b, p.cell, p.a, p.b);
        }
        while r > 0 && geo.free_canonical(&b) != 0 {
            let (target, best) = self.value.expected_next(&b, r);
            self.learn(&b, r, target);
            let dice = roll();
            let (x, y) = (dice.0 as usize - 1, dice.1 as usize - 1);
            let (p, _) = if best[y][x].1 > best[x][y].1 {
                best[y][x]
            } else {
                best[x][y]
            };
            geo.apply(&mut b, p.cell, p.a, p.b);
            r -= 1;
        }
        self.games += 1;
        geo.exact(&b)
    }

    /// One temporal-coherence TD step of V(b, r) towards `target`.
    fn learn(&mut self, b: &Bits, r: usize, target: f32) {
        let mut active = Active::default();
        self.value.features.active(b, r, &mut active);
        let mut inputs = [0u32; 144];
        let n = self.value.features.net_inputs(&active, &mut inputs);
        let inputs = &inputs[..n];
        let mut act = Activations::default();
        let now = self.value.value_of(&active, inputs, &mut act);
        let delta = target - now;
        if let Some(shape) = &self.value.features.net {
            let c = &mut self.coherence;
            // The network's moments live in the coherence sums' slots past the table.
            let mut opt = net::Optimiser {
                w: &mut self.value.weights,
                m: &mut c.errors,
                v: &mut c.sizes,
                rate: self.net_rate,
            };
            net::backward(shape, &mut opt, inputs, &act, delta);
        }
        let w = &mut self.value.weights;
        let step = self.alpha * delta / active.n as f32;
        let c = &mut self.coherence;
        for &i in active.as_slice() {
            let i = i as usize;
            let rate = if c.sizes[i] > 0.0 {
                c.errors[i].abs() / c.sizes[i]
            } else {
                1.0
            };
            w[i] += rate * step;
            c.errors[i] += delta;
            c.sizes[i] += delta.abs();
        }
    }
}

/// Mean final score of greedy V play on the Tester's dice of `seed`, games 0..games.
pub fn greedy_average(value: &LearnedValue, layout: &Layout, seed: &str, games: u32) -> f64 {
    let total: u64 = (0..games)
        .map(|g| greedy_game(value, layout, &game_dice(seed, g, layout.default_rounds())) as u64)
        .sum();
    total as f64 / games.max(1) as f64
}

/// Final score of greedy V play on the given rolls.
pub fn greedy_game(value: &LearnedValue, layout: &Layout, rolls: &[Dice]) -> u32 {
    let geo = &value.features.geo;
    let mut b = geo.empty_board();
    let rounds = layout.default_rounds();
    for (k, &dice) in rolls.iter().enumerate() {
        let Some((p, _)) = value.best(&b, dice, rounds.saturating_sub(k + 1)) else {
            break;
        };
        geo.apply(&mut b, p.cell, p.a, p.b);
    }
    geo.exact(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short training run from a zero table on a small board (fixed seeds) plays better on
    /// fixed dice than the untrained table, with the group entries alone and with pairs and a
    /// network (which must have moved); the same seed gives the same weights, and resuming from a
    /// saved file gives exactly the weights of one uninterrupted run.
    #[test]
    fn brief_training_beats_untrained_and_is_reproducible() {
        let layout = Layout::parse_rows("1 1 1 1 1 1\n1 2 1 1 2 1\n1 1 1 1 1 1\n", 1).unwrap();
        for name in ["groups-v1", "groups-v1+pairs+net16x8"] {
            let set = FeatureSet::parse(name).unwrap();
            let fresh = || {
                let mut t = Trainer::new(&layout, 3, 1.0, DEFAULT_NET_RATE, set).unwrap();
                // A zero table; the network (if any) keeps its random start, whose output is 0.
                let at = t.value.features.table_len();
                t.value.weights[..at].fill(0.0);
                t
            };
            let untrained = fresh().value;
            let before = greedy_average(&untrained, &layout, "learn-test", 400);
            let mut t = fresh();
            for _ in 0..GAMES {
                t.train_game();
            }
            let after = greedy_average(&t.value, &layout, "learn-test", 400);
            // From a zero table (greedy is then "first free pair"): 3.91 -> 5.06 with the groups
            // alone when written; the margin is about three standard errors of the difference.
            assert!(after > before + 0.5, "{name}: {before} -> {after}");
            let at = t.value.features.table_len();
            assert_eq!(
                t.value.weights[at..] != untrained.weights[at..],
                set.net.is_some(),
                "{name}: the network learns (and only exists when named)"
            );

            let mut first = fresh();
            for _ in 0..GAMES / 2 {
                first.train_game();
            }
            let saved = first.to_file(&layout).to_bytes();
            let len = t.value.weights.len();
            let file = WeightFile::parse(&saved, "t", &layout, name, len).unwrap();
            let mut resumed = Trainer::resume(&layout, &file).unwrap();
            while resumed.games < GAMES {
                resumed.train_game();
            }
            assert_eq!(resumed.value.weights, t.value.weights, "{name}");
        }
    }

    const GAMES: u64 = 300;
}
