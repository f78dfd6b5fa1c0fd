//! Depth-2 expectimax with the learned value: a placement is worth the exact average, over the
//! 21 distinct next rolls, of the best V reachable with that roll. No sampling, so no noise.

use super::game::Placement;
use super::geometry::Bits;
use super::learned::value::average_over_rolls;
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
    best_by(opts, |p| placement_value(value, b, p, rounds_after))
}

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

/// The `width` best placements by V for every ordered pair of dice on `b` (`rounds_after` rolls
/// to come after them), best first.
fn leaders_by_dice(
    value: &LearnedValue,
    b: &Bits,
    rounds_after: usize,
    width: usize,
) -> Vec<Vec<(f32, Placement)>> {
    let geo = &value.features.geo;
    let mut lists: Vec<Vec<(f32, Placement)>> =
        (0..36).map(|_| Vec::with_capacity(width + 1)).collect();
    let mut free = geo.free_canonical(b);
    while free != 0 {
        let cell = free.trailing_zeros() as usize;
        free &= free - 1;
        for (k, list) in lists.iter_mut().enumerate() {
            let (a, bv) = (k as u8 / 6 + 1, k as u8 % 6 + 1);
            let mut after = *b;
            geo.apply(&mut after, cell, a, bv);
            let v = value.value(&after, rounds_after);
            if list.len() < width || v > list[list.len() - 1].0 {
                let at = list.partition_point(|&(x, _)| x >= v);
                list.insert(at, (v, Placement { cell, a, b: bv }));
                list.truncate(width);
            }
        }
    }
    lists
}

/// Depth-3 expectimax, selective: the average over the next roll of the best depth-2 value among
/// the `width` placements of that roll with the best V.
pub fn placement_value_deep(
    value: &LearnedValue,
    b: &Bits,
    p: Placement,
    rounds_after: usize,
    width: usize,
) -> f32 {
    let geo = &value.features.geo;
    let mut after = *b;
    geo.apply(&mut after, p.cell, p.a, p.b);
    if rounds_after <= 1 || geo.free_canonical(&after) == 0 {
        return placement_value(value, b, p, rounds_after);
    }
    let lists = leaders_by_dice(value, &after, rounds_after - 1, width);
    // Each ordered pair's leaders, valued once at depth 2.
    let deep: Vec<f32> = lists
        .iter()
        .map(|list| {
            list.iter()
                .map(|&(_, q)| placement_value(value, &after, q, rounds_after - 1))
                .fold(f32::NEG_INFINITY, f32::max)
        })
        .collect();
    average_over_rolls(|a, b| deep[a * 6 + b])
}

/// Depth 2 for every option, then depth 3 (selective, `width`) for the `leaders` best of them.
pub fn best_deep(
    value: &LearnedValue,
    b: &Bits,
    opts: &[Placement],
    rounds_after: usize,
    leaders: usize,
    width: usize,
) -> Placement {
    let mut ranked: Vec<(f32, usize)> = opts
        .iter()
        .enumerate()
        .map(|(i, &p)| (placement_value(value, b, p, rounds_after), i))
        .collect();
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut best = (opts[ranked[0].1], f32::NEG_INFINITY);
    for &(_, i) in ranked.iter().take(leaders.max(1)) {
        let v = if leaders > 1 {
            placement_value_deep(value, b, opts[i], rounds_after, width)
        } else {
            ranked[0].0
        };
        if v > best.1 {
            best = (opts[i], v);
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
            let value = LearnedValue::built_in(&layout).unwrap();
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
