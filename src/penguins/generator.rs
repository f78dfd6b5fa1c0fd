//! Seeded board generator (inferred from the physical game): 60 tiles, 30 with one fish, 20 with
//! two and 10 with three, shuffled onto the 60 real cells. Same seed, same board.

use super::board::{cells_of, CELLS, VALID};
use super::rng::SplitMix64;

/// Fish per cell (0 on the missing cells), for `seed`.
pub fn generate_board(seed: u64) -> [u8; CELLS] {
    let mut tiles: Vec<u8> = [(1u8, 30usize), (2, 20), (3, 10)]
        .iter()
        .flat_map(|&(fish, count)| std::iter::repeat_n(fish, count))
        .collect();
    let mut rng = SplitMix64::new(seed);
    rng.shuffle(&mut tiles);
    let mut fish = [0u8; CELLS];
    for (cell, tile) in cells_of(VALID).zip(tiles) {
        fish[cell as usize] = tile;
    }
    fish
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_the_physical_tile_mix_on_real_cells_only() {
        for seed in 0..200 {
            let fish = generate_board(seed);
            let count = |n: u8| fish.iter().filter(|&&f| f == n).count();
            assert_eq!((count(1), count(2), count(3), count(0)), (30, 20, 10, 4));
            for (cell, &f) in fish.iter().enumerate() {
                assert_eq!(f == 0, VALID >> cell & 1 == 0, "seed {seed} cell {cell}");
            }
        }
    }

    #[test]
    fn same_seed_same_board_and_seeds_differ() {
        assert_eq!(generate_board(42), generate_board(42));
        assert_ne!(generate_board(42), generate_board(43));
    }
}
