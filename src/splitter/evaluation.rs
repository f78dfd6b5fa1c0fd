//! Evaluations behind one trait: given a board on masks and a roll, which placement is best. The
//! hand evaluation (`eval.rs`, on arrays) has a fast mask twin (`bits.rs`, here as `HandMask`);
//! the learned value (`learned/`) answers the same question. Rollouts and greedy play only see
//! the trait.

use super::bits::{BitEval, Groups};
use super::game::{Dice, Placement};
use super::geometry::Bits;
use super::learned::play::PlayValue;
use super::learned::LearnedValue;

pub trait Evaluation {
    /// The best placement of `dice` on `b` with `rounds_after` rolls to come after it (the first
    /// in cell order, named die first, on ties); None when no pair is free.
    fn best(&mut self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<Placement>;
}

/// The hand evaluation on masks, with its scratch space: every option of a step reuses one split
/// of the board into groups.
#[derive(Clone)]
pub struct HandMask {
    pub be: BitEval,
    groups: Groups,
}

impl HandMask {
    pub fn new(be: BitEval) -> HandMask {
        HandMask {
            be,
            groups: Groups::default(),
        }
    }
}

impl Evaluation for HandMask {
    /// Every option's gain is first estimated from the few terms it changes; only the options
    /// that may be the best (within the proven rounding bound) get the exact value, summed in the
    /// order that decides exact ties as the flooding twin does.
    #[inline(always)]
    fn best(&mut self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<Placement> {
        let (be, groups) = (&mut self.be, &mut self.groups);
        be.set_rounds_after(rounds_after);
        let mut free = be.free_canonical(b);
        if free == 0 {
            return None;
        }
        be.decompose(b, groups);
        let orders = if dice.0 == dice.1 {
            &[(dice.0, dice.1)][..]
        } else {
            &[(dice.0, dice.1), (dice.1, dice.0)][..]
        };
        // First every option's estimate (only the terms that change)...
        let mut estimates = [0.0f32; 128];
        let mut top = f32::NEG_INFINITY;
        let mut cells = free;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            be.prepare_cell(groups, b, cell);
            for (j, &(x, y)) in orders.iter().enumerate() {
                let e = be.delta_estimate(groups, b, cell, x, y);
                estimates[2 * cell + j] = e;
                top = top.max(e);
            }
        }
        // ...then the exact value (summed in `region_value`'s order, whose rounding decides
        // exact ties), in the usual order, for the options that may be the best: the best is
        // at least `top` - error, an option's value at most its estimate + error.
        let cut = top - 2.0 * be.estimate_error();
        let mut best = (f32::NEG_INFINITY, Placement::NONE);
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            let mut before = None;
            for (j, &(x, y)) in orders.iter().enumerate() {
                if estimates[2 * cell + j] < cut {
                    continue;
                }
                let before = *before.get_or_insert_with(|| {
                    be.prepare_cell(groups, b, cell);
                    be.local_before_in(groups, b, cell)
                });
                let d = be.delta_in(groups, before, b, cell, x, y);
                if d > best.0 {
                    best = (d, Placement { cell, a: x, b: y });
                }
            }
        }
        Some(best.1)
    }
}

impl Evaluation for &LearnedValue {
    #[inline(always)]
    fn best(&mut self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<Placement> {
        LearnedValue::best(self, b, dice, rounds_after).map(|(p, _)| p)
    }
}

impl Evaluation for &PlayValue {
    #[inline(always)]
    fn best(&mut self, b: &Bits, dice: Dice, rounds_after: usize) -> Option<Placement> {
        PlayValue::best(self, b, dice, rounds_after).map(|(p, _)| p)
    }
}
