//! The level generator: a seeded grid with scattered bonuses, planted `tw`, mines and portal pairs,
//! one seed word, then random legal moves (found by the checker) played from random hands, so every
//! board is reachable. Some levels use flat letter values so that ties are common, and about half of
//! the larger ones start in the bottom-right corner so answers carry coordinates >= 10.

use super::checker::{Checker, Found, Placed, WORD_DIRS};
use bot::honey::bench::random_hand;
use bot::honey::{Bonus, Dir6, Level, Rules};
use bot::words::{english, LetterValues};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub struct Generated {
    pub seed: u64,
    pub level: Level,
    pub words: Vec<String>,
    pub values: LetterValues,
    /// The rules the board was grown under.
    pub growth_rules: Rules,
}

fn random_values(rng: &mut Xoshiro256PlusPlus) -> LetterValues {
    match rng.random_range(0..3) {
        0 => LetterValues([1; 26]), // flat: many ties
        1 => LetterValues::scrabble_english(),
        _ => LetterValues(std::array::from_fn(|_| rng.random_range(0..=6))),
    }
}

/// A level for `seed`; `size` fixes the grid (else 5..=16, sometimes not square).
pub fn generate(seed: u64, size: Option<usize>) -> Generated {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // The CLI keeps `size` at 3 or more: room for the planted tw, mine and portals.
    let size = size.map(|s| s.max(3));
    let height = size.unwrap_or_else(|| rng.random_range(5..=16));
    let width = match size {
        Some(s) => s,
        None if rng.random_bool(0.2) => (height + rng.random_range(0..=4)).saturating_sub(2).max(4),
        None => height,
    };
    let all_rules = Rules::all();
    let growth_rules = all_rules[rng.random_range(0..all_rules.len())];
    let values = random_values(&mut rng);

    let pool: Vec<&String> = english().words.iter().filter(|w| w.len() <= 7).collect();
    let vocabulary_size = rng.random_range(80..=200);
    let mut words: Vec<String> = (0..vocabulary_size)
        .map(|_| (*pool.choose(&mut rng).expect("words")).clone())
        .collect();
    words.sort();
    words.dedup();

    let n = width * height;
    let mut bonuses: Vec<Bonus> = (0..n)
        .map(|_| match rng.random_range(0..100) {
            0..=7 => Bonus::DoubleLetter,
            8..=12 => Bonus::TripleLetter,
            13..=17 => Bonus::DoubleWord,
            18..=21 => Bonus::TripleWord,
            22..=26 => Bonus::Mine,
            _ => Bonus::None,
        })
        .collect();
    let mut free: Vec<usize> = (0..n).collect();
    free.shuffle(&mut rng);
    // Planted on purpose: at least one tw and one mine (portal pairs come after the seed word).
    bonuses[free.pop().expect("cells")] = Bonus::TripleWord;
    bonuses[free.pop().expect("cells")] = Bonus::Mine;

    let mut level = Level {
        width,
        height,
        letters: vec![None; n],
        bonuses,
        hand: [0; 26],
    };
    // The seed word, along a row; bottom-right corner half the time on big grids.
    let fitting: Vec<&String> = words
        .iter()
        .filter(|w| w.len() >= 3 && w.len() <= width)
        .collect();
    let (mut seed_row, mut seed_span) = (rng.random_range(0..height), (0, width));
    if let Some(seed_word) = fitting.choose(&mut rng) {
        let corner = width >= 11 && height >= 11 && rng.random_bool(0.5);
        let x_max = width - seed_word.len();
        let x = if corner {
            x_max
        } else {
            rng.random_range(0..=x_max)
        };
        let y = if corner {
            rng.random_range(10..height)
        } else {
            rng.random_range(0..height)
        };
        for (i, b) in seed_word.bytes().enumerate() {
            let c = level.index(x + i, y);
            level.letters[c] = Some(b);
        }
        seed_row = y;
        seed_span = (x, x + seed_word.len() - 1);
    }
    // 0-3 portal pairs. The end that words jump through (pr, pur, pdr) goes on or beside an end
    // letter of the seed word, where new words hook on, so words do run through portals; its
    // partner goes anywhere.
    let mut kinds = [Dir6::Right, Dir6::UpRight, Dir6::DownRight];
    kinds.shuffle(&mut rng);
    let pairs = rng.random_range(0..=3).min(free.len() / 2);
    for &d in &kinds[..pairs] {
        let near = free
            .iter()
            .position(|&c| {
                (c / width).abs_diff(seed_row) <= 1
                    && (seed_span.0..seed_span.1).contains(&(c % width))
            })
            .unwrap_or(free.len() - 1);
        let jump = free.swap_remove(near);
        level.bonuses[jump] = Bonus::Portal(d);
        level.bonuses[free.pop().expect("cells")] = Bonus::Portal(d.opposite());
    }
    // Growth: random legal moves under the growth rules, each with a fresh 7-tile hand, among
    // up to 30 English words that hand could spell with one or two board letters plus up to 3
    // extensions of board words (MAKE -> MAKERS). Each played word joins the vocabulary, so every
    // growth move is legal under the level's final vocabulary too.
    let moves = rng.random_range(width / 2..=width * 2);
    for _ in 0..moves {
        level.hand = random_hand(&mut rng, 7);
        let mut candidates = spellable(&pool, &level);
        candidates.shuffle(&mut rng);
        candidates.truncate(30);
        let mut existing = Checker::new(&level, growth_rules, &values).existing_words();
        existing.shuffle(&mut rng);
        existing.truncate(3);
        let mut longer = extensions(&pool, &existing, &level.hand);
        longer.shuffle(&mut rng);
        candidates.extend(longer.into_iter().take(3));
        let options = Checker::new(&level, growth_rules, &values).all_moves(&candidates);
        // Half the time, prefer a move that jumps through a portal when there is one.
        let jumping: Vec<&Found> = options.iter().filter(|m| jumps(&level, m)).collect();
        let pick = if !jumping.is_empty() && rng.random_bool(0.5) {
            jumping.choose(&mut rng).copied()
        } else {
            options.choose(&mut rng)
        };
        if let Some(m) = pick {
            for (&(x, y), b) in m.cells.iter().zip(m.word.bytes()) {
                let c = level.index(x, y);
                level.letters[c] = Some(b);
            }
            words.push(m.word.clone());
        }
    }
    // The final hand, and words it can spell with board letters added to the vocabulary so that
    // most levels have many legal moves (the growth vocabulary is a subset: still reachable).
    let hand_size = rng.random_range(3..=9);
    level.hand = random_hand(&mut rng, hand_size);
    let extra_count = rng.random_range(0..=200);
    let mut extra = spellable(&pool, &level);
    let existing = Checker::new(&level, growth_rules, &values).existing_words();
    extra.extend(extensions(&pool, &existing, &level.hand));
    extra.shuffle(&mut rng);
    extra.truncate(extra_count);
    words.extend(extra);
    words.sort();
    words.dedup();
    Generated {
        seed,
        level,
        words,
        values,
        growth_rules,
    }
}

/// Does the move's path jump through a portal (leave a portal cell in the portal's direction)?
pub fn jumps(level: &Level, m: &Found) -> bool {
    let dir = WORD_DIRS
        .iter()
        .find(|d| d.1 == m.dir)
        .expect("word direction")
        .0;
    m.cells[..m.cells.len() - 1]
        .iter()
        .any(|&(x, y)| level.bonuses[level.index(x, y)] == Bonus::Portal(dir))
}

/// Up to `limit` words (in list order) whose letters are the hand's tiles plus at most two letters
/// found on the board.
fn spellable(words: &[&String], level: &Level) -> Vec<String> {
    let mut on_board = [false; 26];
    for l in level.letters.iter().flatten() {
        on_board[(l - b'A') as usize] = true;
    }
    words
        .iter()
        .filter(|w| {
            let mut left = level.hand;
            let mut borrowed = 0;
            for b in w.bytes() {
                let i = (b - b'A') as usize;
                if left[i] > 0 {
                    left[i] -= 1;
                } else if on_board[i] {
                    borrowed += 1;
                } else {
                    return false;
                }
            }
            (1..=2).contains(&borrowed)
        })
        .map(|w| (*w).clone())
        .collect()
}

/// Words of `pool` made of an existing board word plus hand tiles before or after it.
fn extensions(pool: &[&String], existing: &[Placed], hand: &[u32; 26]) -> Vec<String> {
    let mut out = Vec::new();
    for (word, _, _) in existing {
        for w in pool.iter().filter(|w| w.len() > word.len()) {
            let rest = if let Some(r) = w.strip_prefix(word.as_str()) {
                r
            } else if let Some(r) = w.strip_suffix(word.as_str()) {
                r
            } else {
                continue;
            };
            let mut left = *hand;
            if rest.bytes().all(|b| {
                let i = (b - b'A') as usize;
                left[i] > 0 && {
                    left[i] -= 1;
                    true
                }
            }) {
                out.push((*w).clone());
            }
        }
    }
    out
}

impl Generated {
    pub fn values_text(&self) -> String {
        (0..26)
            .map(|i| format!("{} {}\n", (b'A' + i as u8) as char, self.values.0[i]))
            .collect()
    }

    pub fn words_text(&self) -> String {
        let mut s = self.words.join("\n");
        s.push('\n');
        s
    }
}
