//! Zobrist keys, fixed at compile time from a SplitMix64 stream.

use super::board::CELLS;
use super::rng::SplitMix64;
use super::state::MAX_PLAYERS;

/// `TILE_KEYS[fish - 1][cell]`.
pub const TILE_KEYS: [[u64; CELLS]; 3] = {
    let mut keys = [[0u64; CELLS]; 3];
    let mut rng = SplitMix64::new(0x7065_6e67_7569_6e73); // "penguins"
    let mut k = 0;
    while k < 3 * CELLS {
        let (next, value) = rng.next_const();
        rng = next;
        keys[k / CELLS][k % CELLS] = value;
        k += 1;
    }
    keys
};

/// `PENGUIN_KEYS[owner][cell]`.
pub const PENGUIN_KEYS: [[u64; CELLS]; MAX_PLAYERS] = {
    let mut keys = [[0u64; CELLS]; MAX_PLAYERS];
    let mut rng = SplitMix64::new(0x6f77_6e65_7273_2121);
    let mut k = 0;
    while k < MAX_PLAYERS * CELLS {
        let (next, value) = rng.next_const();
        rng = next;
        keys[k / CELLS][k % CELLS] = value;
        k += 1;
    }
    keys
};

/// `SIDE_KEYS[player to move]`.
pub const SIDE_KEYS: [u64; MAX_PLAYERS] = {
    let mut keys = [0u64; MAX_PLAYERS];
    let mut rng = SplitMix64::new(0x7475_726e_7475_726e);
    let mut k = 0;
    while k < MAX_PLAYERS {
        let (next, value) = rng.next_const();
        rng = next;
        keys[k] = value;
        k += 1;
    }
    keys
};
