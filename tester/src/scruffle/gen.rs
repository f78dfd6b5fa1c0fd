//! Case generator following the statement: X, Y uniform in 10..=100; fractions of obstacles in
//! [0, 0.2], double-word cells in [0, 0.05], triple-word cells in [0, 0.02], each marked cell drawn
//! at random and redrawn if already marked; the rest uniform digits 0-9. W uniform in 10..=10000
//! words drawn with replacement from the embedded English list (A-Z, 2+ letters). One seed gives
//! one case, always the same. The sizes can be narrowed (`Sizes`), e.g. to the statement's
//! smallest cases; the default ranges draw exactly the statement's cases.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ops::RangeInclusive;

/// Largest board side the generator writes (the solver reads boards up to 1000 x 1000).
pub const MAX_SIDE: u64 = 1000;
/// Most entries the generator writes (the solver reads lists of up to 100,000).
pub const MAX_WORDS: u64 = 100_000;

/// The ranges the sizes are drawn from, each uniform.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sizes {
    pub width: RangeInclusive<usize>,
    pub height: RangeInclusive<usize>,
    pub words: RangeInclusive<usize>,
}

impl Sizes {
    /// The statement's ranges: sides 10..=100, 10..=10000 words.
    pub fn statement() -> Sizes {
        Sizes {
            width: 10..=100,
            height: 10..=100,
            words: 10..=10000,
        }
    }

    /// The statement's ranges, each replaced where one is given.
    pub fn with(
        width: Option<RangeInclusive<usize>>,
        height: Option<RangeInclusive<usize>>,
        words: Option<RangeInclusive<usize>>,
    ) -> Sizes {
        let s = Sizes::statement();
        Sizes {
            width: width.unwrap_or(s.width),
            height: height.unwrap_or(s.height),
            words: words.unwrap_or(s.words),
        }
    }

    /// Are these the statement's own ranges?
    pub fn is_statement(&self) -> bool {
        *self == Sizes::statement()
    }

    /// `--width 12 --height 10-15 --words 40` style, for headers.
    pub fn describe(&self) -> String {
        let r = |r: &RangeInclusive<usize>| match r.start() == r.end() {
            true => r.start().to_string(),
            false => format!("{}-{}", r.start(), r.end()),
        };
        format!(
            "width {}, height {}, words {}",
            r(&self.width),
            r(&self.height),
            r(&self.words)
        )
    }
}

/// A size option: `N` or `A-B` (inclusive), each from `min` to `max`.
pub fn size_range(text: &str, min: u64, max: u64) -> Result<RangeInclusive<usize>, String> {
    let number = |s: &str| bot::cli::args::integer_in(s, min, max).map(|n| n as usize);
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(format!("{text:?} is an empty range"));
            }
            Ok(a..=b)
        }
        None => number(text).map(|n| n..=n),
    }
}

/// `--width` / `--height`: a side or a range of sides, 1 to `MAX_SIDE`.
pub fn side_range(text: &str) -> Result<RangeInclusive<usize>, String> {
    size_range(text, 1, MAX_SIDE)
}

/// `--words`: a count or a range of counts, 1 to `MAX_WORDS`.
pub fn words_range(text: &str) -> Result<RangeInclusive<usize>, String> {
    size_range(text, 1, MAX_WORDS)
}

pub struct Generated {
    pub board: String,
    pub words: String,
    pub width: usize,
    pub height: usize,
    pub word_count: usize,
}

/// The statement's case for `seed`.
#[cfg(test)]
pub fn generate(seed: u64) -> Generated {
    generate_sized(seed, &Sizes::statement())
}

/// The case for `seed` with its sizes drawn from `sizes` (the statement's ranges give exactly
/// `generate`'s cases).
pub fn generate_sized(seed: u64, sizes: &Sizes) -> Generated {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let width = rng.random_range(sizes.width.clone());
    let height = rng.random_range(sizes.height.clone());
    let n = width * height;
    let mut cells: Vec<Option<u8>> = vec![None; n];
    for (mark, max_fraction) in [(b'#', 0.2), (b'D', 0.05), (b'T', 0.02)] {
        let fraction: f64 = rng.random_range(0.0..=max_fraction);
        let count = (fraction * n as f64).floor() as usize;
        for _ in 0..count {
            loop {
                let c = rng.random_range(0..n);
                if cells[c].is_none() {
                    cells[c] = Some(mark);
                    break;
                }
            }
        }
    }
    let mut board = String::with_capacity((width + 1) * height);
    for row in cells.chunks(width) {
        for cell in row {
            let ch = match cell {
                Some(m) => *m,
                None => b'0' + rng.random_range(0..=9u8),
            };
            board.push(ch as char);
        }
        board.push('\n');
    }
    let list = &bot::words::english().words;
    let list: Vec<&String> = list.iter().filter(|w| w.len() >= 2).collect();
    let word_count = rng.random_range(sizes.words.clone());
    let mut words = String::new();
    for _ in 0..word_count {
        words.push_str(list[rng.random_range(0..list.len())]);
        words.push('\n');
    }
    Generated {
        board,
        words,
        width,
        height,
        word_count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_reproducible_and_follow_the_ranges() {
        for seed in 0..20 {
            let a = generate(seed);
            let b = generate(seed);
            assert_eq!((&a.board, &a.words), (&b.board, &b.words));
            assert!((10..=100).contains(&a.width) && (10..=100).contains(&a.height));
            assert!((10..=10000).contains(&a.word_count));
            let rows: Vec<&str> = a.board.lines().collect();
            assert_eq!(rows.len(), a.height);
            assert!(rows.iter().all(|r| r.len() == a.width));
            let count = |ch: char| a.board.chars().filter(|&c| c == ch).count() as f64;
            let n = (a.width * a.height) as f64;
            assert!(count('#') <= 0.2 * n && count('D') <= 0.05 * n && count('T') <= 0.02 * n);
            assert_eq!(a.words.lines().count(), a.word_count);
            assert!(a
                .words
                .lines()
                .all(|w| w.len() >= 2 && w.bytes().all(|b| b.is_ascii_uppercase())));
        }
        assert_ne!(generate(1).board, generate(2).board);
    }

    #[test]
    fn sizes_can_be_fixed_or_narrowed() {
        let small = Sizes::with(Some(12..=12), Some(10..=15), Some(40..=40));
        for seed in 0..20 {
            let a = generate_sized(seed, &small);
            assert_eq!((a.width, a.word_count), (12, 40));
            assert!((10..=15).contains(&a.height));
            assert_eq!(a.board.lines().count(), a.height);
            assert_eq!(a.words.lines().count(), 40);
            assert_eq!(generate_sized(seed, &small).board, a.board);
        }
        // The statement's ranges, given explicitly, draw the default cases.
        let given = Sizes::with(Some(10..=100), Some(10..=100), Some(10..=10000));
        assert!(given.is_statement());
        assert_eq!(generate_sized(7, &given).words, generate(7).words);
    }

    #[test]
    fn size_options_are_checked() {
        assert_eq!(side_range("12"), Ok(12..=12));
        assert_eq!(side_range("10-15"), Ok(10..=15));
        assert_eq!(words_range("10-80"), Ok(10..=80));
        for bad in [
            "0",
            "1001",
            "15-10",
            "x",
            "-3",
            "1-",
            "99999999999999999999",
        ] {
            assert!(side_range(bad).is_err(), "{bad}");
        }
        assert!(words_range("100001").is_err());
    }
}
