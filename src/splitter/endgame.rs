//! The last rolls solved exactly: full expectimax over every roll and every placement down to the
//! final score, with no value estimate and no sampling. Affordable while at most
//! `ENDGAME_ROLLS` rolls follow the current one (a few thousand final boards per candidate).

use super::expectimax::best_by;
use super::game::Placement;
use super::geometry::{Bits, Geometry};
use super::learned::value::average_over_rolls;

/// The search hands a move to the exact endgame when at most this many rolls follow it: with
/// two, a candidate costs 36 x 2 x 36 final scores at most; with three it would be ~100 times more.
pub const ENDGAME_ROLLS: usize = 2;

/// The expected final score of board `b` with `rolls_left` rolls to come, each placed optimally.
pub fn expected_score(geo: &Geometry, b: &Bits, rolls_left: usize) -> f32 {
    let free = geo.free_canonical(b);
    if rolls_left == 0 || free == 0 {
        return geo.exact(b) as f32;
    }
    // best[a][d]: the best outcome with die a named at the cell and die d at its mirror.
    let mut best = [[f32::NEG_INFINITY; 6]; 6];
    for (a, row) in best.iter_mut().enumerate() {
        for (d, slot) in row.iter_mut().enumerate() {
            let mut cells = free;
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let mut after = *b;
                geo.apply(&mut after, cell, a as u8 + 1, d as u8 + 1);
                *slot = slot.max(expected_score(geo, &after, rolls_left - 1));
            }
        }
    }
    average_over_rolls(|a, d| best[a][d])
}

/// The option with the best expected final score, `rolls_after` rolls to come after it (the first
/// on ties). `opts` must not be empty.
pub fn best(geo: &Geometry, b: &Bits, opts: &[Placement], rolls_after: usize) -> Placement {
    best_by(opts, |p| {
        let mut after = *b;
        geo.apply(&mut after, p.cell, p.a, p.b);
        expected_score(geo, &after, rolls_after)
    })
}

#[cfg(test)]
mod tests {
    use super::super::game::{Board, Dice};
    use super::super::layout::official;
    use super::super::score::score;
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The slow twin: expectimax over the rules' own legal moves (`Board::legal_moves`) and the
    /// array scorer, every one of the 36 ordered rolls.
    fn brute_force(layout: &super::super::layout::Layout, board: &Board, rolls_left: usize) -> f64 {
        if rolls_left == 0 || board.legal_moves(layout, Dice(1, 2)).is_empty() {
            return score(layout, &board.values) as f64;
        }
        let mut total = 0.0;
        for x in 1..=6 {
            for y in 1..=6 {
                let best = board
                    .legal_moves(layout, Dice(x, y))
                    .into_iter()
                    .map(|mv| {
                        let mut after = board.clone();
                        after.place(layout, Dice(x, y), mv).unwrap();
                        brute_force(layout, &after, rolls_left - 1)
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                total += best;
            }
        }
        total / 36.0
    }

    /// The exact endgame equals brute force over the legal moves on random late boards of both
    /// official layouts, with 0, 1 and 2 rolls to come and fewer free pairs than rolls too.
    #[test]
    fn expected_score_equals_brute_force() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(55);
        let mut cases = 0;
        for case in 0..60 {
            let layout = official(1 + (case % 2) as u8);
            let geo = Geometry::new(&layout).unwrap();
            let mut board = Board::new(&layout, 22);
            let free_target = rng.random_range(0..=3);
            while board.free_cells(&layout) > 2 * free_target {
                let d = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                let moves = board.legal_moves(&layout, d);
                let mv = moves[rng.random_range(0..moves.len())];
                board.place(&layout, d, mv).unwrap();
            }
            let rolls_left = rng.random_range(0..=2);
            let fast = expected_score(&geo, &geo.from_values(&board.values), rolls_left);
            let slow = brute_force(&layout, &board, rolls_left);
            assert!(
                (fast as f64 - slow).abs() < 1e-3,
                "case {case}: {fast} vs {slow}"
            );
            cases += usize::from(rolls_left == 2 && free_target >= 2);
        }
        assert!(cases >= 5, "{cases}");
    }
}
