//! Whole-board bitboard operations on the even-r hex layout: neighbour dilation by shifts (one
//! pass for all cells instead of a table lookup per cell) and connected components.

use crate::penguins::board::VALID;

/// Rows 0, 2, 4, 6 (shifted half a cell right in even-r).
const EVEN_ROWS: u64 = 0x00FF_00FF_00FF_00FF;
const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = COL_A << 7;

/// Every board cell adjacent to a cell of `bits` (the six hex neighbours).
pub fn dilate(bits: u64) -> u64 {
    let even = bits & EVEN_ROWS;
    let odd = bits & !EVEN_ROWS;
    let side = ((bits & !COL_H) << 1) | ((bits & !COL_A) >> 1);
    // Even rows: up/down neighbours at the same column and one to the right.
    let from_even = ((even & !COL_H) >> 7) | (even >> 8) | ((even & !COL_H) << 9) | (even << 8);
    // Odd rows: up/down neighbours at the same column and one to the left.
    let from_odd = (odd >> 8) | ((odd & !COL_A) >> 9) | (odd << 8) | ((odd & !COL_A) << 7);
    (side | from_even | from_odd) & VALID
}

/// One step of every cell of `bits` in one hex direction (even-r: a row's parity decides the
/// column of its diagonal neighbours), for sets: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.
fn shift(bits: u64, dir: usize) -> u64 {
    let even = bits & EVEN_ROWS;
    let odd = bits & !EVEN_ROWS;
    match dir {
        0 => (bits & !COL_H) << 1,
        3 => (bits & !COL_A) >> 1,
        1 => ((even & !COL_H) >> 7) | (odd >> 8),
        2 => (even >> 8) | ((odd & !COL_A) >> 9),
        5 => ((even & !COL_H) << 9) | (odd << 8),
        _ => (even << 8) | ((odd & !COL_A) << 7),
    }
}

/// Every cell some cell of `from` reaches in one slide over `free` (straight lines, stopped by
/// the first cell that is not free): the six directional fills of the whole set at once, which
/// beats a ray lookup per cell and direction once the set holds more than a few cells.
pub fn slide_reach(from: u64, free: u64) -> u64 {
    let mut reach = 0;
    for dir in 0..6 {
        let mut line = shift(from, dir) & free;
        while line != 0 {
            reach |= line;
            line = shift(line, dir) & free;
        }
    }
    reach
}

/// The connected part of `within` that contains `seed` (cells of `seed` outside `within` are
/// ignored).
pub fn flood(seed: u64, within: u64) -> u64 {
    let mut part = seed & within;
    loop {
        let grown = part | (dilate(part) & within);
        if grown == part {
            return part;
        }
        part = grown;
    }
}

/// Splits `bits` into its connected components, lowest cell first.
pub fn components(mut bits: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let part = flood(bits & bits.wrapping_neg(), bits);
        bits &= !part;
        Some(part)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penguins::board::{cells_of, ADJACENT, RAY};
    use crate::search::rng::SplitMix64;

    #[test]
    fn dilate_matches_the_neighbour_table() {
        for cell in cells_of(VALID) {
            assert_eq!(dilate(1 << cell), ADJACENT[cell as usize], "cell {cell}");
        }
        let mut rng = SplitMix64::new(3);
        for _ in 0..500 {
            let bits = rng.next_u64() & rng.next_u64() & VALID;
            let slow = cells_of(bits).fold(0, |acc, c| acc | ADJACENT[c as usize]);
            assert_eq!(dilate(bits), slow);
        }
    }

    /// Twin: the set-wise fill equals the union of the rules' slide targets of every cell.
    #[test]
    fn slide_reach_matches_the_rules_slides() {
        use crate::penguins::board::DIRECTIONS;
        use crate::penguins::state::State;
        let mut rng = SplitMix64::new(5);
        for case in 0..3000 {
            let free = rng.next_u64() & rng.next_u64().rotate_left(case % 64) & VALID;
            let from = rng.next_u64() & rng.next_u64() & rng.next_u64() & VALID;
            let slow = cells_of(from).fold(0, |acc, c| {
                (0..DIRECTIONS).fold(acc, |a, d| a | State::slide_targets(c, d, free))
            });
            assert_eq!(slide_reach(from, free), slow, "case {case}");
        }
        for cell in cells_of(VALID) {
            for (dir, rays) in RAY.iter().enumerate() {
                assert_eq!(
                    slide_reach(1 << cell, VALID) & rays[cell as usize],
                    State::slide_targets(cell, dir, VALID),
                    "cell {cell} dir {dir}"
                );
            }
        }
    }

    #[test]
    fn components_partition_and_are_separated() {
        let mut rng = SplitMix64::new(4);
        for _ in 0..500 {
            let bits = rng.next_u64() & rng.next_u64() & VALID;
            let parts: Vec<u64> = components(bits).collect();
            assert_eq!(parts.iter().fold(0, |a, p| a | p), bits);
            for (i, &a) in parts.iter().enumerate() {
                assert_eq!(
                    flood(a & a.wrapping_neg(), bits),
                    a,
                    "component is connected"
                );
                for &b in &parts[i + 1..] {
                    assert_eq!(a & b, 0);
                    assert_eq!(dilate(a) & b, 0, "components never touch");
                }
            }
        }
    }
}
