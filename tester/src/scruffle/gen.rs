//! Case generator following the statement: X, Y uniform in 10..=100; fractions of obstacles in
//! [0, 0.2], double-word cells in [0, 0.05], triple-word cells in [0, 0.02], each marked cell drawn
//! at random and redrawn if already marked; the rest uniform digits 0-9. W uniform in 10..=10000
//! words drawn with replacement from the embedded English list (A-Z, 2+ letters). One seed gives
//! one case, always the same.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub struct Generated {
    pub board: String,
    pub words: String,
    pub width: usize,
    pub height: usize,
    pub word_count: usize,
}

pub fn generate(seed: u64) -> Generated {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let width = rng.random_range(10..=100usize);
    let height = rng.random_range(10..=100usize);
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
    let word_count = rng.random_range(10..=10000usize);
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
}
