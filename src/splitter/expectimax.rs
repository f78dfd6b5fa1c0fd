//! Depth-2 expectimax with the learned value: a placement is worth the exact average, over the
//! 21 distinct next rolls, of the best V reachable with that roll. No sampling, so no noise.

use super::game::Placement;
use super::geometry::Bits;
use super::learned::play::PlayValue;
use std::time::Instant;

/// The expectimax value of placing `p` on `b`, with `rounds_after` rolls to come after it.
pub fn placement_value(value: &PlayValue, b: &Bits, p: Placement, rounds_after: usize) -> f32 {
    let geo = &value.features.geo;
    let mut after = *b;
    geo.apply(&mut after, p.cell, p.a, p.b);
    if rounds_after == 0 || geo.free_canonical(&after) == 0 {
        return geo.exact(&after) as f32;
    }
    value.expected_next(&after, rounds_after).0
}

/// The option with the best expectimax value (the first on ties). `opts` must not be empty.
pub fn best(value: &PlayValue, b: &Bits, opts: &[Placement], rounds_after: usize) -> Placement {
    best_by(opts, |p| placement_value(value, b, p, rounds_after))
}

/// `best`, unless `deadline` passes first (polled between options): then None.
pub fn best_until(
    value: &PlayValue,
    b: &Bits,
    opts: &[Placement],
    rounds_after: usize,
    deadline: Instant,
) -> Option<Placement> {
    let mut best = (opts[0], f32::NEG_INFINITY);
    for &p in opts {
        if Instant::now() >= deadline {
            return None;
        }
        let v = placement_value(value, b, p, rounds_after);
        if v > best.1 {
            best = (p, v);
        }
    }
    Some(best.0)
}

/// Afterstates `best` values for `opts` options each leaving `free_pairs_after` pairs free:
/// every roll (36) at every pair.
pub fn work(opts: usize, free_pairs_after: usize) -> u64 {
    (opts * free_pairs_after * 36) as u64
}

/// Afterstates valued per millisecond when an expectimax is sized to a floor move's time: about
/// a quarter of what the machine of docs/splitter.md does, so a slower or busy machine still fits.
pub const WORK_PER_MS: f64 = 2_000.0;

/// The option with the largest `worth` (the first on ties). `opts` must not be empty.
pub fn best_by(opts: &[Placement], mut worth: impl FnMut(Placement) -> f32) -> Placement {
    let mut best = (opts[0], f32::NEG_INFINITY);
    for &p in opts {
        let v = worth(p);
        if v > best.1 {
            best = (p, v);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::super::game::{Board, Dice};
    use super::super::layout::official;
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Depth 2 equals the brute-force average over all 36 ordered rolls of the best V over every
    /// legal move of the rules (`Board::legal_moves`), on random mid-game boards.
    #[test]
    fn depth_two_is_the_average_of_the_best_legal_reply() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        for n in [1, 2] {
            let layout = official(n);
            let value =
                PlayValue::new(&crate::splitter::learned::LearnedValue::built_in(&layout).unwrap());
            let geo = &value.features.geo;
            for _ in 0..20 {
                let mut board = Board::new(&layout, 22);
                let filled = rng.random_range(0..20);
                for _ in 0..filled {
                    let d = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                    let moves = board.legal_moves(&layout, d);
                    let mv = moves[rng.random_range(0..moves.len())];
                    board.place(&layout, d, mv).unwrap();
                }
                let rounds_after = board.rounds_left - 1;
                let b = geo.from_values(&board.values);
                let first = geo.free_canonical(&b).trailing_zeros() as usize;
                let p = Placement {
                    cell: first,
                    a: rng.random_range(1..=6),
                    b: rng.random_range(1..=6),
                };
                let fast = placement_value(&value, &b, p, rounds_after);
                let mut next = board.clone();
                next.values[p.cell] = p.a;
                next.values[layout.mirror(p.cell)] = p.b;
                next.rounds_left -= 1;
                let mut total = 0.0f64;
                for x in 1..=6 {
                    for y in 1..=6 {
                        let best = next
                            .legal_moves(&layout, Dice(x, y))
                            .into_iter()
                            .map(|mv| {
                                let mut after = next.clone();
                                after.place(&layout, Dice(x, y), mv).unwrap();
                                value.value(&geo.from_values(&after.values), rounds_after - 1)
                            })
                            .fold(f32::NEG_INFINITY, f32::max);
                        total += best as f64;
                    }
                }
                let slow = (total / 36.0) as f32;
                assert!((fast - slow).abs() < 1e-3, "{fast} vs {slow}");
            }
        }
    }
}
