//! A bit-exact port of .NET's seeded `System.Random` (the legacy Knuth subtractive generator that
//! .NET keeps for seeded instances) and of the reference Tester's `CustomHash`, so `--seed S`
//! gives the same dice as the official Tester.

use super::game::Dice;

const MBIG: i32 = i32::MAX;
const MSEED: i32 = 161_803_398;

#[derive(Debug, Clone)]
pub struct DotNetRandom {
    seed_array: [i32; 56],
    inext: usize,
    inextp: usize,
}

impl DotNetRandom {
    pub fn new(seed: i32) -> DotNetRandom {
        let subtraction = if seed == i32::MIN {
            i32::MAX
        } else {
            seed.abs()
        };
        let mut seed_array = [0i32; 56];
        let mut mj = MSEED - subtraction;
        seed_array[55] = mj;
        let mut mk = 1i32;
        for i in 1..55 {
            let ii = (21 * i) % 55;
            seed_array[ii] = mk;
            mk = mj.wrapping_sub(mk);
            if mk < 0 {
                mk = mk.wrapping_add(MBIG);
            }
            mj = seed_array[ii];
        }
        for _ in 1..5 {
            for i in 1..56 {
                seed_array[i] = seed_array[i].wrapping_sub(seed_array[1 + (i + 30) % 55]);
                if seed_array[i] < 0 {
                    seed_array[i] = seed_array[i].wrapping_add(MBIG);
                }
            }
        }
        DotNetRandom {
            seed_array,
            inext: 0,
            inextp: 21,
        }
    }

    fn internal_sample(&mut self) -> i32 {
        let mut loc_inext = self.inext + 1;
        if loc_inext >= 56 {
            loc_inext = 1;
        }
        let mut loc_inextp = self.inextp + 1;
        if loc_inextp >= 56 {
            loc_inextp = 1;
        }
        let mut ret = self.seed_array[loc_inext].wrapping_sub(self.seed_array[loc_inextp]);
        if ret == MBIG {
            ret -= 1;
        }
        if ret < 0 {
            ret = ret.wrapping_add(MBIG);
        }
        self.seed_array[loc_inext] = ret;
        self.inext = loc_inext;
        self.inextp = loc_inextp;
        ret
    }

    /// `Sample()`: uniform in [0, 1).
    pub fn sample(&mut self) -> f64 {
        self.internal_sample() as f64 * (1.0 / MBIG as f64)
    }

    /// `Next(min, max)` for small ranges (max - min <= i32::MAX), max exclusive.
    pub fn next_range(&mut self, min: i32, max: i32) -> i32 {
        let range = max as i64 - min as i64;
        debug_assert!(range >= 0 && range <= i32::MAX as i64);
        (self.sample() * range as f64) as i32 + min
    }

    /// One roll as the Tester draws it: `(Next(1,7), Next(1,7))`.
    pub fn roll(&mut self) -> Dice {
        let a = self.next_range(1, 7) as u8;
        let b = self.next_range(1, 7) as u8;
        Dice(a, b)
    }
}

/// The Tester's `CustomHash`: fold over UTF-16 code units, `h = h * 31 + c`, wrapping int32.
pub fn custom_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// The int seed of game `game` (0-based) under `--seed seed`.
pub fn game_seed(seed: &str, game: u32) -> i32 {
    custom_hash(seed).wrapping_add(game as i32)
}

/// The `rounds` rolls of one seeded game, in order (roll 1 is drawn when the game starts).
pub fn game_dice(seed: &str, game: u32, rounds: usize) -> Vec<Dice> {
    let mut rng = DotNetRandom::new(game_seed(seed, game));
    (0..rounds).map(|_| rng.roll()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `seeded_dice.txt`: the hash, the int seed and all 22 rolls.
    #[test]
    fn reproduces_every_line_of_seeded_dice() {
        let text = std::fs::read_to_string("../shared/data/splitter/seeded_dice.txt").unwrap();
        let mut checked = 0;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "line {}", n + 1);
            let game: u32 = fields[1].parse().unwrap();
            let int_seed: i32 = fields[2].parse().unwrap();
            assert_eq!(game_seed(fields[0], game), int_seed, "line {}", n + 1);
            let expected: Vec<Dice> = fields[3]
                .split(' ')
                .map(|p| {
                    let b = p.as_bytes();
                    Dice(b[0] - b'0', b[1] - b'0')
                })
                .collect();
            assert_eq!(expected.len(), 22);
            assert_eq!(game_dice(fields[0], game, 22), expected, "line {}", n + 1);
            checked += 1;
        }
        assert_eq!(checked, 20);
    }

    #[test]
    fn hash_wraps_like_int32() {
        assert_eq!(custom_hash(""), 0);
        assert_eq!(custom_hash("1"), 49);
        // Long strings overflow; the fold must wrap rather than panic.
        let long = "Splitter".repeat(50);
        let expected = long
            .encode_utf16()
            .fold(0i64, |h, c| ((h * 31 + c as i64) as i32) as i64) as i32;
        assert_eq!(custom_hash(&long), expected);
        assert_eq!(game_seed("x", u32::MAX), custom_hash("x").wrapping_add(-1));
    }

    #[test]
    fn extreme_seeds_do_not_panic() {
        for s in [i32::MIN, i32::MAX, 0, -1] {
            let mut r = DotNetRandom::new(s);
            for _ in 0..1000 {
                assert!(r.roll().is_valid());
            }
        }
    }
}
