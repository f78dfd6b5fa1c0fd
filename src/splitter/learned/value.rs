//! The learned afterstate value V(board after a placement, rolls still to come): the sum of the
//! table entries `features.rs` switches on, plus the network's output when the feature set has
//! one (`net.rs`); at the end of the game, the exact score. The player only asks "value of this
//! afterstate" and "best placement of this roll".

use super::features::{Active, FeatureSet, Features};
use super::file::{layout_text, WeightFile};
use super::net::{self, Activations};
use crate::source_error::SourceError;
use crate::splitter::game::{Dice, Placement};
use crate::splitter::geometry::Bits;
use crate::splitter::layout::{official, Layout};
use std::cell::RefCell;

/// Weights trained for the official layouts, built into the binary (how they were made:
/// docs/splitter.md).
const LAYOUT1: &[u8] = include_bytes!("../../../data/splitter/value-layout1.bin");
const LAYOUT2: &[u8] = include_bytes!("../../../data/splitter/value-layout2.bin");

/// Read a weight file for `layout` whose feature set is the one its header names (any set
/// `FeatureSet::parse` knows); `source` names it in errors.
pub fn parse_weight_file(
    bytes: &[u8],
    source: &str,
    layout: &Layout,
) -> Result<WeightFile, SourceError> {
    let name = WeightFile::peek_features(bytes).unwrap_or_default();
    let set = FeatureSet::parse(&name).ok_or_else(|| {
        SourceError::new(
            source,
            3,
            format!("unknown feature set {}", crate::source_error::quote(&name)),
        )
    })?;
    let len = Features::with_set(layout, set)
        .ok_or_else(|| SourceError::new(source, 0, "the layout has more than 64 cells"))?
        .len();
    WeightFile::parse(bytes, source, layout, &set.name(), len)
}

/// Read and parse the weight file at `path` for `layout` (at most `MAX_FILE_BYTES`).
pub fn read_weight_file(
    path: &std::path::Path,
    layout: &Layout,
) -> Result<WeightFile, SourceError> {
    let bytes = crate::source_error::read_bytes(path)?;
    parse_weight_file(&bytes, &path.display().to_string(), layout)
}

/// For every ordered pair of dice (a, b), the best placement with a at the named cell and b at
/// its mirror, and its V.
pub type BestByDice = [[(Placement, f32); 6]; 6];

#[derive(Debug, Clone)]
pub struct LearnedValue {
    pub features: Features,
    pub weights: Vec<f32>,
}

impl LearnedValue {
    /// All weights zero. None when the layout has more than 64 cells.
    pub fn untrained(layout: &Layout) -> Option<LearnedValue> {
        LearnedValue::untrained_with(layout, FeatureSet::default())
    }

    /// All weights zero, with the given feature families.
    pub fn untrained_with(layout: &Layout, set: FeatureSet) -> Option<LearnedValue> {
        let features = Features::with_set(layout, set)?;
        let weights = vec![0.0; features.len()];
        Some(LearnedValue { features, weights })
    }

    /// The built-in weights for an official layout; None for any other board.
    pub fn built_in(layout: &Layout) -> Option<LearnedValue> {
        let bytes = [(1, LAYOUT1), (2, LAYOUT2)]
            .into_iter()
            .find(|&(n, _)| *layout == official(n))?
            .1;
        let file = parse_weight_file(bytes, "built-in weights", layout)
            .expect("the built-in weights match their layout (tested)");
        LearnedValue::from_file(layout, &file)
    }

    /// Read a weight file for `layout`.
    pub fn load(path: &std::path::Path, layout: &Layout) -> Result<LearnedValue, SourceError> {
        let file = read_weight_file(path, layout)?;
        LearnedValue::from_file(layout, &file).ok_or_else(|| {
            SourceError::new(
                &path.display().to_string(),
                0,
                "the layout has more than 64 cells",
            )
        })
    }

    pub fn from_file(layout: &Layout, file: &WeightFile) -> Option<LearnedValue> {
        debug_assert_eq!(file.layout, layout_text(layout));
        let set = FeatureSet::parse(&file.features)?;
        Some(LearnedValue {
            features: Features::with_set(layout, set)?,
            weights: file.weights.clone(),
        })
    }

    /// V of board `b` with `rounds_after` rolls still to come: the exact score when the game is
    /// over (no roll left or no free pair), else the learned estimate of the final score.
    #[inline]
    pub fn value(&self, b: &Bits, rounds_after: usize) -> f32 {
        self.estimate(b, rounds_after, None)
    }

    /// `value`, with the network's first layer started from `base` (a board one placement
    /// before `b`) when given: equal up to float rounding.
    #[inline]
    fn estimate(&self, b: &Bits, rounds_after: usize, base: Option<&mut net::Base>) -> f32 {
        let geo = &self.features.geo;
        if rounds_after == 0 || geo.free_canonical(b) == 0 {
            return geo.exact(b) as f32;
        }
        let mut active = Active::default();
        self.features.active(b, rounds_after, &mut active);
        let mut inputs = [0u32; 144];
        let n = self.features.net_inputs(&active, &mut inputs);
        let inputs = &inputs[..n];
        match (base, &self.features.net) {
            (Some(base), Some(shape)) => {
                self.table_sum(&active) + net::forward_from(base, shape, &self.weights, inputs)
            }
            _ => self.value_of(&active, inputs, &mut Activations::default()),
        }
    }

    /// The table's part of V: the sum of the active entries' weights.
    #[inline]
    fn table_sum(&self, active: &Active) -> f32 {
        active
            .as_slice()
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum()
    }

    /// V from the active entries and their network inputs (`Features::net_inputs`): the
    /// table's sum plus the network's output (its activations kept in `act` for training).
    #[inline]
    pub fn value_of(&self, active: &Active, inputs: &[u32], act: &mut Activations) -> f32 {
        let table = self.table_sum(active);
        match &self.features.net {
            None => table,
            Some(shape) => table + net::forward(shape, &self.weights, inputs, act),
        }
    }

    /// The placement of `dice` on `b` with the largest V (`rounds_after` rolls to come after it;
    /// the first in cell order on ties), and that V. None when no pair is free.
    pub fn best(&self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<(Placement, f32)> {
        let geo = &self.features.geo;
        let orders = [(dice.0, dice.1), (dice.1, dice.0)];
        let orders = if dice.0 == dice.1 {
            &orders[..1]
        } else {
            &orders[..]
        };
        self.with_afterstates(b, rounds_after, |values| {
            let mut free = geo.free_canonical(b);
            let mut best: Option<(Placement, f32)> = None;
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                for &(a, bv) in orders {
                    let mut after = *b;
                    geo.apply(&mut after, cell, a, bv);
                    let v = values.value(&after);
                    if best.is_none_or(|(_, bv)| v > bv) {
                        best = Some((Placement { cell, a, b: bv }, v));
                    }
                }
            }
            best
        })
    }

    /// The expected V after the next roll from afterstate `b` (r >= 1 rolls to come), and the
    /// best placement for every ordered pair of dice.
    #[inline]
    pub fn expected_next(&self, b: &Bits, r: usize) -> (f32, BestByDice) {
        let geo = &self.features.geo;
        let none = Placement::NONE;
        let mut best = [[(none, f32::NEG_INFINITY); 6]; 6];
        self.with_afterstates(b, r - 1, |values| {
            let mut free = geo.free_canonical(b);
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                for (a, row) in best.iter_mut().enumerate() {
                    for (bv, slot) in row.iter_mut().enumerate() {
                        let (a, bv) = (a as u8 + 1, bv as u8 + 1);
                        let mut after = *b;
                        geo.apply(&mut after, cell, a, bv);
                        let v = values.value(&after);
                        if v > slot.1 {
                            *slot = (Placement { cell, a, b: bv }, v);
                        }
                    }
                }
            }
        });
        (average_over_rolls(|a, b| best[a][b].1), best)
    }

    /// Runs `f` with a valuer of the afterstates of `b` (boards one placement further, with
    /// `rounds_after` rolls to come). With a network, the valuer starts each afterstate's first
    /// layer from `b`'s, which differs from it by a few inputs only.
    fn with_afterstates<R>(
        &self,
        b: &Bits,
        rounds_after: usize,
        f: impl FnOnce(&mut Afterstates) -> R,
    ) -> R {
        let Some(shape) = self.features.net.as_ref().filter(|_| rounds_after > 0) else {
            return f(&mut Afterstates {
                value: self,
                rounds_after,
                base: None,
            });
        };
        BASE.with(|cell| {
            // Never re-entered today; if it were, the inner call just works without a base.
            let Ok(mut slot) = cell.try_borrow_mut() else {
                return f(&mut Afterstates {
                    value: self,
                    rounds_after,
                    base: None,
                });
            };
            if !slot.as_ref().is_some_and(|base| base.fits(shape)) {
                *slot = Some(net::Base::new(shape));
            }
            let base = slot.as_mut().expect("set just above");
            let mut active = Active::default();
            self.features.active(b, rounds_after, &mut active);
            let mut inputs = [0u32; 144];
            let n = self.features.net_inputs(&active, &mut inputs);
            net::set_base(base, shape, &self.weights, &inputs[..n]);
            f(&mut Afterstates {
                value: self,
                rounds_after,
                base: Some(base),
            })
        })
    }
}

thread_local! {
    /// Per thread, the network's first layer for the board whose afterstates are being valued
    /// (kept between calls so its per-input scratch is allocated once).
    static BASE: RefCell<Option<net::Base>> = const { RefCell::new(None) };
}

/// Values afterstates of one board (see `LearnedValue::with_afterstates`).
struct Afterstates<'a> {
    value: &'a LearnedValue,
    rounds_after: usize,
    base: Option<&'a mut net::Base>,
}

impl Afterstates<'_> {
    /// V of `after`, equal to `LearnedValue::value` up to float rounding.
    #[inline]
    fn value(&mut self, after: &Bits) -> f32 {
        let base = self.base.as_deref_mut();
        self.value.estimate(after, self.rounds_after, base)
    }
}

/// The average over the 36 equally likely ordered rolls (x, y) of the better of the two die
/// orders, `by_dice(a, b)` being the value with die a named (indices 0..6 for dice 1..6).
#[inline]
pub fn average_over_rolls(by_dice: impl Fn(usize, usize) -> f32) -> f32 {
    let mut total = 0.0;
    for x in 0..6 {
        for y in 0..6 {
            total += by_dice(x, y).max(by_dice(y, x));
        }
    }
    total / 36.0
}

#[cfg(test)]
mod tests {
    use super::super::features::LEN;
    use super::*;

    /// The built-in weights load for both official layouts (their headers name them), are
    /// trained (not the starting table), and no other board gets any. Both carry the network
    /// (each the 500,000-game self-play run of docs/splitter.md).
    #[test]
    fn built_in_weights_belong_to_their_layouts() {
        for n in [1, 2] {
            let layout = official(n);
            let v = LearnedValue::built_in(&layout).unwrap();
            assert_eq!(v.weights.len(), v.features.len());
            assert_eq!(v.features.set.name(), "groups-v1+pairs+net64x32");
            assert!(v.features.len() >= LEN);
            assert_ne!(v.weights, v.features.prior());
            let other = official(3 - n);
            let bytes = if n == 1 { LAYOUT1 } else { LAYOUT2 };
            let e = parse_weight_file(bytes, "w", &other).unwrap_err();
            assert!(e.to_string().contains("trained for layout"), "{e}");
        }
        let small = Layout::parse_rows("1 1\n2 2\n", 1).unwrap();
        assert!(LearnedValue::built_in(&small).is_none());
    }

    /// With a network, `best` and `expected_next` value afterstates from the board's first layer
    /// (a few rows added and taken away); they agree with `value`, computed from scratch, up to
    /// float rounding, on random boards with random weights.
    #[test]
    fn afterstates_from_the_base_match_values_from_scratch() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let layout = official(2);
        let set = FeatureSet::parse("groups-v1+pairs+net32x16").unwrap();
        let mut v = LearnedValue::untrained_with(&layout, set).unwrap();
        v.weights = v.features.prior();
        let at = v.features.table_len();
        for w in &mut v.weights[at..] {
            *w += rng.random_range(-0.3..0.3);
        }
        let geo = v.features.geo.clone();
        for case in 0..40 {
            let placements = rng.random_range(0..18);
            let b = crate::splitter::geometry::random_board(&geo, &mut rng, placements);
            if geo.free_canonical(&b) == 0 {
                continue;
            }
            let r = rng.random_range(1..12);
            let (expected, by_dice) = v.expected_next(&b, r);
            let mut slow = [[f32::NEG_INFINITY; 6]; 6];
            for cell in (0..64).filter(|&c| geo.free_canonical(&b) >> c & 1 == 1) {
                for x in 1..=6u8 {
                    for y in 1..=6u8 {
                        let mut after = b;
                        geo.apply(&mut after, cell, x, y);
                        let s = &mut slow[x as usize - 1][y as usize - 1];
                        *s = s.max(v.value(&after, r - 1));
                    }
                }
            }
            for x in 0..6 {
                for y in 0..6 {
                    let fast = by_dice[x][y].1;
                    assert!(
                        (fast - slow[x][y]).abs() < 1e-3,
                        "case {case}: {fast} vs {}",
                        slow[x][y]
                    );
                }
            }
            let slow_expected = average_over_rolls(|x, y| slow[x][y]);
            assert!((expected - slow_expected).abs() < 1e-3, "case {case}");
            let (p, best) = v.best(&b, Dice(3, 5), r - 1).unwrap();
            let mut after = b;
            geo.apply(&mut after, p.cell, p.a, p.b);
            assert!((best - v.value(&after, r - 1)).abs() < 1e-3, "case {case}");
            assert!(
                (best - slow[2][4].max(slow[4][2])).abs() < 1e-3,
                "case {case}"
            );
        }
    }
}
