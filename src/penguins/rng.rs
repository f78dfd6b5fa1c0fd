//! A small seeded generator (SplitMix64), written out because the CodinGame bundle is std-only.
//! Used for board generation, Zobrist keys and the baseline policies' tie-breaks. The mixing step
//! is the one in `search::rng`; this wrapper keeps its own unbiased `below` and `shuffle`.

use crate::search::rng::splitmix64;

#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits; `const` so Zobrist tables can be built at compile time.
    pub const fn next_const(self) -> (Self, u64) {
        let (state, value) = splitmix64(self.state);
        (SplitMix64 { state }, value)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (next, value) = self.clone().next_const();
        *self = next;
        value
    }

    /// Uniform in `0..bound` (bound > 0), by rejection so there is no modulo bias.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "below(0)");
        let zone = u64::MAX - u64::MAX % bound;
        loop {
            let value = self.next_u64();
            if value < zone {
                return value % bound;
            }
        }
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_first_outputs_of_splitmix64() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
