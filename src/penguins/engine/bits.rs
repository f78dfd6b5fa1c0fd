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
    use crate::penguins::board::{cells_of, ADJACENT};
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
