//! Rating tests: the README's example, the organisers' layout, hand-made grids per factor, and a
//! naive re-implementation written from the spec compared on random layouts.

use super::grid::Grid;
use super::rate::{rate, scores, Counts};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

const KIT: &str = "../shared/data/crossword";

fn kit_grid(name: &str) -> Grid {
    Grid::parse(&std::fs::read_to_string(format!("{KIT}/{name}")).unwrap()).unwrap()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[test]
fn readme_3x3_example_rates_59_2() {
    let r = rate(
        &kit_grid("example_grids/readme_rating_example_3x3_solved.cwg"),
        None,
    );
    assert_eq!(r.scores.as_array(), [0.0, 100.0, 0.0, 100.0, 55.0, 100.0]);
    assert_eq!(round1(r.mean()), 59.2);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn organisers_18x14_layout_rates_97_6_and_is_valid() {
    let r = rate(&kit_grid("example_grids/18x14.cwg"), None);
    assert_eq!(round1(r.mean()), 97.6, "{:?}", r.scores);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(!r.filled);
}

#[test]
fn each_score_follows_its_formula() {
    let base = Counts {
        unblocked: 100,
        questions: 22,
        doubles: 0,
        letters: 78,
        uncrossed: 0,
        dead: 0,
        histogram: [0, 18, 24, 20, 18, 12, 4, 4],
        clusters: vec![1, 2],
    };
    assert_eq!(scores(&base).as_array(), [100.0; 6]);
    let with = |f: &dyn Fn(&mut Counts)| {
        let mut c = base.clone();
        f(&mut c);
        scores(&c).as_array()
    };
    // 25% questions: 100 - (2*3)^2.
    assert_eq!(with(&|c| c.questions = 25)[0], 64.0);
    // 30% of 200 letters uncrossed: 100 - (10/2)^2.
    assert_eq!(with(&|c| (c.letters, c.uncrossed) = (200, 60))[1], 75.0);
    assert_eq!(with(&|c| (c.letters, c.uncrossed) = (200, 40))[1], 100.0);
    // Four bins 1% off (per 100 words): 100 - 4/8.
    assert_eq!(
        with(&|c| c.histogram = [1, 17, 24, 21, 17, 12, 4, 4])[2],
        99.5
    );
    // 2 dead of 80 letters: 100 - 400*2/80.
    assert_eq!(with(&|c| (c.letters, c.dead) = (80, 2))[3], 90.0);
    // Clusters 4, 3, 1, 1: 100 - 10*(16+9)/4.
    assert_eq!(with(&|c| c.clusters = vec![4, 3, 1, 1])[4], 37.5);
    // 25% doubles: 100 - 3^2; and 50%: clamped at 0.
    assert_eq!(with(&|c| (c.questions, c.doubles) = (20, 5))[5], 91.0);
    assert_eq!(with(&|c| (c.questions, c.doubles) = (20, 10))[5], 0.0);
}

#[test]
fn hand_made_grid_counts_each_factor() {
    // ?ABC / ?D?E / ?FGH: words ABC and FGH; D and E are 1-letter words (violations); the
    // type-1 arrow of (0,0) points at a question field and makes no word.
    let text = "3\n4\n?ABC\n?D?E\n?FGH\n0 0 3\n1 0 3\n2 0 3\n0 0 1\n1 2 3\n";
    let g = Grid::parse(text).unwrap();
    let r = rate(&g, None);
    let c = &r.counts;
    assert_eq!((c.unblocked, c.questions, c.letters), (12, 4, 8));
    assert_eq!(c.doubles, 1);
    // Column 0 is one cluster of 3; (1,2) touches no question.
    assert_eq!(c.clusters, vec![3, 1]);
    assert_eq!(c.histogram, [2, 2, 0, 0, 0, 0, 0, 0]);
    // Every letter is covered once, and each has an uncrossed 4-neighbour.
    assert_eq!((c.uncrossed, c.dead), (8, 8));
    assert!(r.violations.iter().any(|v| v.contains("only 1 letter")));
}

/// The rating written again from the spec, sharing no code with `rate`: strings, hash maps.
fn naive_mean(text: &str) -> f64 {
    let mut lines = text.lines();
    let rows: usize = lines.next().unwrap().trim().parse().unwrap();
    let cols: usize = lines.next().unwrap().trim().parse().unwrap();
    let grid: Vec<Vec<char>> = (0..rows)
        .map(|_| {
            let mut v: Vec<char> = lines.next().unwrap().chars().collect();
            v.resize(cols, ' ');
            v
        })
        .collect();
    let qs: Vec<(i64, i64, u8)> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<i64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0], f[1], f[2] as u8)
        })
        .collect();
    let at = |r: i64, c: i64| -> char {
        if r < 0 || c < 0 || r >= rows as i64 || c >= cols as i64 {
            '#'
        } else {
            grid[r as usize][c as usize]
        }
    };
    let letter = |ch: char| ch == '.' || ch.is_ascii_uppercase();
    let mut cover: HashMap<(i64, i64), i32> = HashMap::new();
    let mut lengths = Vec::new();
    for &(r, c, t) in &qs {
        let (sr, sc, dr, dc) = match t {
            0 => (r + 1, c, 1, 0),
            1 => (r + 1, c, 0, 1),
            2 => (r, c - 1, 1, 0),
            3 => (r, c + 1, 0, 1),
            4 => (r, c + 1, 1, 0),
            _ => (r - 1, c, 0, 1),
        };
        let (mut pr, mut pc, mut n) = (sr, sc, 0);
        while letter(at(pr, pc)) {
            *cover.entry((pr, pc)).or_default() += 1;
            n += 1;
            pr += dr;
            pc += dc;
        }
        if n > 0 {
            lengths.push(n);
        }
    }
    let mut u = 0.0f64;
    let mut q = 0.0f64;
    let mut uncrossed = Vec::new();
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let ch = at(r, c);
            if ch == '-' || ch == ' ' {
                continue;
            }
            u += 1.0;
            if ch == '?' {
                q += 1.0;
            } else if cover.get(&(r, c)) == Some(&1) {
                uncrossed.push((r, c));
            }
        }
    }
    let s = u - q;
    let mut doubles_at: HashMap<(i64, i64), i32> = HashMap::new();
    for &(r, c, _) in &qs {
        *doubles_at.entry((r, c)).or_default() += 1;
    }
    let d = doubles_at.values().filter(|&&n| n > 1).count() as f64;
    let dead = uncrossed
        .iter()
        .filter(|&&(r, c)| {
            [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                .iter()
                .any(|p| uncrossed.contains(p))
        })
        .count() as f64;
    // Clusters by repeated label merging.
    let qcells: Vec<(i64, i64)> = (0..rows as i64)
        .flat_map(|r| (0..cols as i64).map(move |c| (r, c)))
        .filter(|&(r, c)| at(r, c) == '?')
        .collect();
    let mut label: Vec<usize> = (0..qcells.len()).collect();
    loop {
        let mut changed = false;
        for i in 0..qcells.len() {
            for j in 0..qcells.len() {
                let (a, b) = (qcells[i], qcells[j]);
                if (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1 && label[j] < label[i] {
                    label[i] = label[j];
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for l in label {
        *sizes.entry(l).or_default() += 1;
    }
    let f1 = 100.0 - ((100.0 * q / u - 22.0).abs() * 2.0).powi(2);
    let x2 = if s > 0.0 {
        100.0 * uncrossed.len() as f64 / s
    } else {
        0.0
    };
    let f2 = 100.0 - ((x2.max(20.0) - 20.0) / 2.0).powi(2);
    let ideal = [0.0, 18.0, 24.0, 20.0, 18.0, 12.0, 4.0, 4.0];
    let mut f3 = 100.0;
    for (b, want) in ideal.iter().enumerate() {
        let n = lengths
            .iter()
            .filter(|&&l| if b == 7 { l >= 9 } else { l.max(2) == b + 2 })
            .count() as f64;
        let x = if lengths.is_empty() {
            0.0
        } else {
            100.0 * n / lengths.len() as f64
        };
        f3 -= (x - want).powi(2) / 8.0;
    }
    let f4 = 100.0 - dead / s.max(1.0) * 400.0;
    let big: f64 = sizes
        .values()
        .filter(|&&n| n >= 3)
        .map(|&n| (n * n) as f64)
        .sum();
    let f5 = if sizes.is_empty() {
        100.0
    } else {
        100.0 - big / sizes.len() as f64 * 10.0
    };
    let f6 = if d == 0.0 {
        100.0
    } else {
        100.0 - (100.0 * d / q - 22.0).abs().powi(2)
    };
    [f1, f2, f3, f4, f5, f6]
        .iter()
        .map(|x| x.max(0.0))
        .sum::<f64>()
        / 6.0
}

fn random_layout(rng: &mut Xoshiro256PlusPlus) -> String {
    let rows = rng.random_range(2..9);
    let cols = rng.random_range(2..9);
    let mut text = format!("{rows}\n{cols}\n");
    let mut qs = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let x: f64 = rng.random();
            let ch = if x < 0.05 {
                '-'
            } else if x < 0.3 {
                let first = rng.random_range(0..6u8);
                qs.push((r, c, first));
                if rng.random_bool(0.3) {
                    qs.push((r, c, (first + rng.random_range(1..6u8)) % 6));
                }
                '?'
            } else if rng.random_bool(0.5) {
                '.'
            } else {
                (b'A' + rng.random_range(0..26u8)) as char
            };
            text.push(ch);
        }
        text.push('\n');
    }
    for (r, c, t) in qs {
        text.push_str(&format!("{r} {c} {t}\n"));
    }
    text
}

#[test]
fn rating_matches_naive_twin_on_random_layouts() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for case in 0..2000 {
        let text = random_layout(&mut rng);
        let fast = rate(&Grid::parse(&text).unwrap(), None).mean();
        let slow = naive_mean(&text);
        assert!(
            (fast - slow).abs() < 1e-9,
            "case {case}: {fast} vs {slow}\n{text}"
        );
    }
}
