//! Move values, exact however large: a row of triple-word cells passes any machine integer within
//! a few dozen letters (3^41 > 2^64). The search carries its running total as a `Total`: `u64`,
//! which refuses to overflow, and `BigUint`, exact, for a search that met a `u64` overflow. A
//! move's value is a `Score`, exact either way.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::level::Bonus;

/// The exact value of a move (printed in full; in JSON a number, or a string of digits past
/// 2^64 - 1, which JSON readers cannot hold as a number).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub BigUint);

impl From<u64> for Score {
    fn from(value: u64) -> Score {
        Score(BigUint::from(value))
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl serde::Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.to_u64() {
            Some(small) => serializer.serialize_u64(small),
            None => serializer.serialize_str(&self.0.to_string()),
        }
    }
}

impl Score {
    /// The low 64 bits (for checksums).
    pub fn low_bits(&self) -> u64 {
        self.0.iter_u64_digits().next().unwrap_or(0)
    }
}

/// A running total of the search.
pub trait Total: Clone {
    fn zero() -> Self;
    /// The total after one letter worth `value` on a cell with `bonus` (see `step`); `None` when
    /// it does not fit this type.
    fn step(&self, value: u64, bonus: Bonus, with_bonus: bool) -> Option<Self>;
    /// Near the total, for the search's bounds (`inf` past `f64`).
    fn approx(&self) -> f64;
    /// Whether the total is strictly below `score`.
    fn below(&self, score: &Score) -> bool;
    fn score(&self) -> Score;
}

/// One scoring step: add the letter (x2 on dl, x3 on tl), then x2 on dw, x3 on tw, halve
/// (rounding down) on m. `with_bonus` is false for a board letter when bonuses on existing
/// letters are off. `None` exactly when the new total passes `u64::MAX` (the step is computed in
/// 128 bits, where it always fits).
#[inline]
pub fn step(total: u64, value: u64, bonus: Bonus, with_bonus: bool) -> Option<u64> {
    let (total, value) = (total as u128, value as u128);
    let t = match (with_bonus, bonus) {
        (false, _) => total + value,
        (true, Bonus::DoubleLetter) => total + 2 * value,
        (true, Bonus::TripleLetter) => total + 3 * value,
        (true, Bonus::DoubleWord) => (total + value) * 2,
        (true, Bonus::TripleWord) => (total + value) * 3,
        (true, Bonus::Mine) => (total + value) / 2,
        (true, _) => total + value,
    };
    u64::try_from(t).ok()
}

impl Total for u64 {
    fn zero() -> u64 {
        0
    }

    #[inline]
    fn step(&self, value: u64, bonus: Bonus, with_bonus: bool) -> Option<u64> {
        step(*self, value, bonus, with_bonus)
    }

    #[inline]
    fn approx(&self) -> f64 {
        *self as f64
    }

    #[inline]
    fn below(&self, score: &Score) -> bool {
        score.0.to_u64().is_none_or(|s| *self < s)
    }

    fn score(&self) -> Score {
        Score::from(*self)
    }
}

impl Total for BigUint {
    fn zero() -> BigUint {
        BigUint::ZERO
    }

    fn step(&self, value: u64, bonus: Bonus, with_bonus: bool) -> Option<BigUint> {
        let (letter, word) = match (with_bonus, bonus) {
            (false, _) => (1u32, 1u32),
            (true, Bonus::DoubleLetter) => (2, 1),
            (true, Bonus::TripleLetter) => (3, 1),
            (true, Bonus::DoubleWord) => (1, 2),
            (true, Bonus::TripleWord) => (1, 3),
            _ => (1, 1),
        };
        let t = (self + BigUint::from(value) * letter) * word;
        Some(match (with_bonus, bonus) {
            (true, Bonus::Mine) => t >> 1u32,
            _ => t,
        })
    }

    fn approx(&self) -> f64 {
        self.to_f64().unwrap_or(f64::INFINITY)
    }

    fn below(&self, score: &Score) -> bool {
        *self < score.0
    }

    fn score(&self) -> Score {
        Score(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BONUSES: [Bonus; 6] = Bonus::PLAIN;

    #[test]
    fn the_machine_total_is_exact_or_refuses_and_the_big_total_agrees() {
        // Random walks of steps: the u64 total equals the big one while it fits, and says so
        // (None) exactly when the big one has passed u64::MAX.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let (mut small, mut big) = (0u64, BigUint::ZERO);
        let mut refused = 0;
        for _ in 0..200_000 {
            let value = next() % 30;
            let bonus = BONUSES[(next() % 6) as usize];
            let with_bonus = next() % 4 != 0;
            let exact = big.step(value, bonus, with_bonus).unwrap();
            match small.step(value, bonus, with_bonus) {
                Some(t) => {
                    assert_eq!(BigUint::from(t), exact);
                    (small, big) = (t, exact);
                }
                None => {
                    assert!(exact > BigUint::from(u64::MAX), "{exact}");
                    refused += 1;
                    (small, big) = (0, BigUint::ZERO);
                }
            }
        }
        assert!(refused > 100, "the walks pass u64::MAX often: {refused}");
        // Past the limit: refused, never saturated.
        assert_eq!(u64::MAX.step(1, Bonus::None, true), None);
        assert_eq!((u64::MAX / 2).step(1, Bonus::TripleWord, true), None);
        assert_eq!(u64::MAX.step(0, Bonus::Mine, true), Some(u64::MAX / 2));
    }

    #[test]
    fn scores_compare_print_and_serialize_exactly() {
        let big = Score(BigUint::from(3u32).pow(200));
        assert!(u64::MAX.below(&big) && !5u64.below(&Score::from(5)));
        assert!(4u64.below(&Score::from(5)));
        assert_eq!(big.to_string().len(), 96);
        assert_eq!(serde_json::to_string(&Score::from(16)).unwrap(), "16");
        assert_eq!(serde_json::to_string(&big).unwrap(), format!("\"{big}\""));
        assert!(BigUint::from(3u32).pow(700).approx().is_infinite());
    }
}
