//! The last rolls solved exactly: full expectimax over every roll and every placement down to the
//! final score, with no value estimate and no sampling. Affordable while at most
//! `ENDGAME_ROLLS` rolls follow the current one and few pairs are free (a few thousand final
//! boards per candidate on the official boards); its size is known before it starts (`work`), so
//! the search hands over only endgames that fit `MAX_WORK` and the move's budget, and it stops at
//! the move's deadline.

use super::expectimax::best_by;
use super::game::Placement;
use super::geometry::{Bits, Geometry};
use super::learned::value::average_over_rolls;
use std::time::Instant;

/// The search hands a move to the exact endgame when at most this many rolls follow it: with
/// two, a candidate costs 36 x 2 x 36 final scores at most; with three it would be ~100 times more.
pub const ENDGAME_ROLLS: usize = 2;

/// Largest endgame handed over, in final boards scored (`work`): about 25 ms on the machine of
/// docs/splitter.md. The official boards' largest is 6 candidates x (36 x 2) x (36 x 1) = 15,552;
/// a board with many free pairs and few rounds left (a header such as `8 8 3`) is far larger and
/// is searched instead.
pub const MAX_WORK: u64 = 200_000;

/// Final boards scored per millisecond when an endgame is sized to a move's budget: a quarter of
/// what the machine of docs/splitter.md does, so a slower or busy machine still fits.
pub const WORK_PER_MS: f64 = 2_000.0;

/// Final boards `best` scores for `candidates` placements, each leaving `free_pairs_after` pairs
/// free with `rolls_after` rolls to come (saturating).
pub fn work(candidates: usize, free_pairs_after: usize, rolls_after: usize) -> u64 {
    let mut boards = candidates as u64;
    for f in (1..=free_pairs_after as u64).rev().take(rolls_after) {
        boards = boards.saturating_mul(36 * f);
    }
    boards
}

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
/// on ties); None when `deadline` passes first (polled between candidates). `opts` must not be
/// empty.
pub fn best(
    geo: &Geometry,
    b: &Bits,
    opts: &[Placement],
    rolls_after: usize,
    deadline: Option<Instant>,
) -> Option<Placement> {
    let mut late = false;
    let pick = best_by(opts, |p| {
        late = late || deadline.is_some_and(|d| Instant::now() >= d);
        if late {
            return f32::NEG_INFINITY;
        }
        let mut after = *b;
        geo.apply(&mut after, p.cell, p.a, p.b);
        expected_score(geo, &after, rolls_after)
    });
    (!late).then_some(pick)
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

    /// A board of 22 rounds played by random legal moves until `free_pairs` pairs are free.
    fn late_board(
        layout: &super::super::layout::Layout,
        free_pairs: usize,
        rng: &mut impl Rng,
    ) -> Board {
        let mut board = Board::new(layout, 22);
        while board.free_cells(layout) > 2 * free_pairs {
            let d = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let moves = board.legal_moves(layout, d);
            let mv = moves[rng.random_range(0..moves.len())];
            board.place(layout, d, mv).unwrap();
        }
        board
    }

    /// `work` counts the final boards `expected_score` scores: a slow count by the same recursion
    /// over real boards agrees, and the official boards' largest endgame fits `MAX_WORK`.
    #[test]
    fn work_counts_the_final_boards_scored() {
        fn count(geo: &Geometry, b: &Bits, rolls_left: usize) -> u64 {
            let free = geo.free_canonical(b);
            if rolls_left == 0 || free == 0 {
                return 1;
            }
            let mut n = 0;
            for a in 1..=6 {
                for d in 1..=6 {
                    let mut cells = free;
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let mut after = *b;
                        geo.apply(&mut after, cell, a, d);
                        n += count(geo, &after, rolls_left - 1);
                    }
                }
            }
            n
        }
        let layout = official(2);
        let geo = Geometry::new(&layout).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let board = late_board(&layout, 4, &mut rng);
        let b = geo.from_values(&board.values);
        for rolls in 0..=3 {
            assert_eq!(work(1, 4, rolls), count(&geo, &b, rolls), "{rolls} rolls");
        }
        assert_eq!(work(6, 2, 2), 15_552);
        assert!(work(6, 2, ENDGAME_ROLLS) <= MAX_WORK);
        assert!(
            work(64, 31, 2) > MAX_WORK,
            "8 x 8, three rounds: searched instead"
        );
        assert_eq!(work(usize::MAX, 64, 2), u64::MAX, "saturates");
    }

    /// A deadline already past gives no answer; none (or a far one) gives the exact best.
    #[test]
    fn best_stops_at_its_deadline() {
        let layout = official(1);
        let geo = Geometry::new(&layout).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        let board = late_board(&layout, 3, &mut rng);
        let b = geo.from_values(&board.values);
        let mut opts = Vec::new();
        super::super::game::placements(&layout, &board.values, Dice(2, 5), &mut opts);
        let past = Some(Instant::now());
        assert_eq!(best(&geo, &b, &opts, 2, past), None);
        let far = Some(Instant::now() + std::time::Duration::from_secs(3600));
        let exact = best(&geo, &b, &opts, 2, None);
        assert!(exact.is_some());
        assert_eq!(best(&geo, &b, &opts, 2, far), exact);
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
            let free_target = rng.random_range(0..=3);
            let board = late_board(&layout, free_target, &mut rng);
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
