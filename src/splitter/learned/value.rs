//! The learned afterstate value V(board after a placement, rolls still to come): the sum of the
//! table entries `features.rs` switches on; at the end of the game, the exact score. The player
//! only asks "value of this afterstate" and "best placement of this roll".

use super::features::{Active, Features, LEN, NAME};
use super::file::{layout_text, WeightFile};
use crate::source_error::SourceError;
use crate::splitter::game::{Dice, Placement};
use crate::splitter::geometry::Bits;
use crate::splitter::layout::{official, Layout};

/// Weights trained for the official layouts, built into the binary (how they were made:
/// docs/splitter.md).
const LAYOUT1: &[u8] = include_bytes!("../../../data/splitter/value-layout1.bin");
const LAYOUT2: &[u8] = include_bytes!("../../../data/splitter/value-layout2.bin");

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
        Some(LearnedValue {
            features: Features::new(layout)?,
            weights: vec![0.0; LEN],
        })
    }

    /// The built-in weights for an official layout; None for any other board.
    pub fn built_in(layout: &Layout) -> Option<LearnedValue> {
        let bytes = [(1, LAYOUT1), (2, LAYOUT2)]
            .into_iter()
            .find(|&(n, _)| *layout == official(n))?
            .1;
        let file = WeightFile::parse(bytes, "built-in weights", layout, NAME, LEN)
            .expect("the built-in weights match their layout (tested)");
        LearnedValue::from_file(layout, &file)
    }

    /// Read a weight file for `layout`.
    pub fn load(path: &std::path::Path, layout: &Layout) -> Result<LearnedValue, SourceError> {
        let source = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| SourceError::new(&source, 0, format!("cannot read: {e}")))?;
        let file = WeightFile::parse(&bytes, &source, layout, NAME, LEN)?;
        LearnedValue::from_file(layout, &file)
            .ok_or_else(|| SourceError::new(&source, 0, "the layout has more than 64 cells"))
    }

    pub fn from_file(layout: &Layout, file: &WeightFile) -> Option<LearnedValue> {
        debug_assert_eq!(file.layout, layout_text(layout));
        Some(LearnedValue {
            features: Features::new(layout)?,
            weights: file.weights.clone(),
        })
    }

    /// V of board `b` with `rounds_after` rolls still to come: the exact score when the game is
    /// over (no roll left or no free pair), else the learned estimate of the final score.
    #[inline]
    pub fn value(&self, b: &Bits, rounds_after: usize) -> f32 {
        let geo = &self.features.geo;
        if rounds_after == 0 || geo.free_canonical(b) == 0 {
            return geo.exact(b) as f32;
        }
        let mut active = Active::default();
        self.features.active(b, rounds_after, &mut active);
        active
            .as_slice()
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum()
    }

    /// The placement of `dice` on `b` with the largest V (`rounds_after` rolls to come after it;
    /// the first in cell order on ties), and that V. None when no pair is free.
    pub fn best(&self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<(Placement, f32)> {
        let geo = &self.features.geo;
        let mut free = geo.free_canonical(b);
        let mut best: Option<(Placement, f32)> = None;
        let orders = [(dice.0, dice.1), (dice.1, dice.0)];
        let orders = if dice.0 == dice.1 {
            &orders[..1]
        } else {
            &orders[..]
        };
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            for &(a, bv) in orders {
                let mut after = *b;
                geo.apply(&mut after, cell, a, bv);
                let v = self.value(&after, rounds_after);
                if best.is_none_or(|(_, bv)| v > bv) {
                    best = Some((Placement { cell, a, b: bv }, v));
                }
            }
        }
        best
    }

    /// The expected V after the next roll from afterstate `b` (r >= 1 rolls to come), and the
    /// best placement for every ordered pair of dice.
    #[inline]
    pub fn expected_next(&self, b: &Bits, r: usize) -> (f32, BestByDice) {
        let geo = &self.features.geo;
        let none = Placement::NONE;
        let mut best = [[(none, f32::NEG_INFINITY); 6]; 6];
        let mut free = geo.free_canonical(b);
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            for (a, row) in best.iter_mut().enumerate() {
                for (bv, slot) in row.iter_mut().enumerate() {
                    let (a, bv) = (a as u8 + 1, bv as u8 + 1);
                    let mut after = *b;
                    geo.apply(&mut after, cell, a, bv);
                    let v = self.value(&after, r - 1);
                    if v > slot.1 {
                        *slot = (Placement { cell, a, b: bv }, v);
                    }
                }
            }
        }
        (average_over_rolls(|a, b| best[a][b].1), best)
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
    use super::*;

    /// The built-in weights load for both official layouts (their headers name them), are
    /// trained (not the starting table), and no other board gets any.
    #[test]
    fn built_in_weights_belong_to_their_layouts() {
        for n in [1, 2] {
            let layout = official(n);
            let v = LearnedValue::built_in(&layout).unwrap();
            assert_eq!(v.weights.len(), LEN);
            assert_ne!(v.weights, super::super::features::Features::prior());
            let other = official(3 - n);
            let bytes = if n == 1 { LAYOUT1 } else { LAYOUT2 };
            assert!(WeightFile::parse(bytes, "w", &other, NAME, LEN).is_err());
        }
        let small = Layout::parse_rows("1 1\n2 2\n", 1).unwrap();
        assert!(LearnedValue::built_in(&small).is_none());
    }
}
