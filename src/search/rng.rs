//! A tiny seeded generator (SplitMix64): std-only, so the bundle needs no `rand`.

/// One SplitMix64 step from `state`: the next state and 64 output bits. `const` so Zobrist tables
/// can be built at compile time; shared with `penguins::rng`, whose `below` differs.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix64(self.state);
        self.state = state;
        value
    }

    /// Uniform in `0..n` (n > 0), by multiply-shift (bias below 2^-32 for the small n used here).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_below_stays_in_range() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        let mut counts = [0u32; 5];
        for _ in 0..5000 {
            let x = a.below(5);
            assert_eq!(x, b.below(5));
            counts[x] += 1;
        }
        // Every bucket is hit roughly 1000 times (a broken generator would miss some).
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }
}
