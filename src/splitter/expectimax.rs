//! Depth-2 expectimax with the learned value: a placement is worth the exact average, over the
//! 21 distinct next rolls, of the best V reachable with that roll. No sampling, so no noise.

use super::game::Placement;
use super::geometry::Bits;
use super::learned::LearnedValue;

/// The expectimax value of placing `p` on `b`, with `rounds_after` rolls to come after it.
pub fn placement_value(value: &LearnedValue, b: &Bits, p: Placement, rounds_after: usize) -> f32 {
    let geo = &value.features.geo;
    let mut after = *b;
    geo.apply(&mut after, p.cell, p.a, p.b);
    if rounds_after == 0 || geo.free_canonical(&after) == 0 {
        return geo.exact(&after) as f32;
    }
    value.expected_next(&after, rounds_after).0
}

/// The option with the best expectimax value (the first on ties). `opts` must not be empty.
pub fn best(value: &LearnedValue, b: &Bits, opts: &[Placement], rounds_after: usize) -> Placement {
    let mut best = (opts[0], f32::NEG_INFINITY);
    for &p in opts {
        let v = placement_value(value, b, p, rounds_after);
        if v > best.1 {
            best = (p, v);
        }
    }
    best.0
}
