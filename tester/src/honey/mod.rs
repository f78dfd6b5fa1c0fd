//! `tester honey gen` writes a generated level; `tester honey check` compares the solver with the
//! independent checker on many seeded levels under every rule switch setting.

pub mod checker;
pub mod gen;

use bot::honey::{solve, Bonus, Rules};
use bot::words::Trie;
use checker::{Checker, Found};
use clap::{Parser, Subcommand};
use gen::{generate, Generated};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write one generated level (letters, bonuses, hand, words, values, expected answers).
    Gen {
        /// Seed of everything in the level (the same seed gives the same level).
        #[arg(long)]
        seed: u64,
        /// Grid size (size x size, 3 to 64); default: drawn from the seed (5..=16).
        #[arg(long, value_parser = size)]
        size: Option<usize>,
        /// Output directory (created if missing).
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Level id, the files' prefix: a plain name (letters, digits, - _ .); default `honey<SEED>`.
        #[arg(long, value_parser = bot::cli::args::plain_name)]
        id: Option<String>,
    },
    /// Solver vs checker on `count` levels (seeds seed..seed+count) under all 12 switch settings.
    Check {
        /// Levels to generate and compare (1 to 1000000; the default 200 take about 4 s of CPU
        /// time).
        #[arg(long, default_value_t = 200, value_parser = count)]
        count: u64,
        /// Seed of the first level (level k has seed SEED+k).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Grid size for every level (3 to 64); default: drawn from each seed (5..=16).
        #[arg(long, value_parser = size)]
        size: Option<usize>,
        /// Use the embedded English list (~64k words) as every level's vocabulary.
        #[arg(long)]
        english: bool,
    },
}

/// Largest generated grid side: the checker is a brute force over every cell and word, so a
/// level of side 64 already takes seconds to grow.
pub const MAX_GEN_SIDE: u64 = 64;

fn size(text: &str) -> Result<usize, String> {
    bot::cli::args::integer_in(text, 3, MAX_GEN_SIDE).map(|n| n as usize)
}

fn count(text: &str) -> Result<u64, String> {
    bot::cli::args::integer_in(text, 1, 1_000_000)
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Command::Gen {
            seed,
            size,
            out,
            id,
        } => write_level(seed, size, &out, &id.unwrap_or(format!("honey{seed}"))),
        Command::Check {
            count,
            seed,
            size,
            english,
        } => check(count, seed, size, english),
    }
}

fn write_level(seed: u64, size: Option<usize>, out: &std::path::Path, id: &str) -> ExitCode {
    // The folder is made and checked before the level grows (seconds at the largest size).
    if let Err(e) = std::fs::create_dir_all(out) {
        return crate::fail(format!("{}: cannot create directory: {e}", out.display()));
    }
    if let Err(e) = bot::cli::output::check_folder(out) {
        return crate::fail(e);
    }
    let g = generate(seed, size);
    let mut expected = String::new();
    for rules in Rules::all() {
        let best = Checker::new(&g.level, rules, &g.values).all_moves(&g.words);
        let answer = best.first().map_or("none".to_string(), |f| f.answer());
        expected.push_str(&format!("{rules}: {answer}\n"));
    }
    let files = [
        ("letters", g.level.letters_text()),
        ("bonuses", g.level.bonuses_text()),
        ("hand", g.level.hand_text()),
        ("words", g.words_text()),
        ("values", g.values_text()),
        ("expected", expected.clone()),
    ];
    for (suffix, text) in files {
        let path = out.join(format!("{id}_{suffix}.txt"));
        if let Err(e) = bot::cli::output::write(&path, text) {
            return crate::fail(e);
        }
    }
    println!(
        "level seed {seed}: {}x{} grid, {} words, grown under {}; files {}/{id}_*.txt",
        g.level.width,
        g.level.height,
        g.words.len(),
        g.growth_rules,
        out.display()
    );
    print!("expected (checker):\n{expected}");
    ExitCode::SUCCESS
}

/// What one (level, rules) comparison saw.
#[derive(Default, Clone, Copy)]
pub struct Tally {
    pub settings: usize,
    pub legal_moves: usize,
    pub no_move: usize,
    pub far_coordinates: usize,
    pub through_portal: usize,
    pub on_tw: usize,
    pub on_mine: usize,
    pub tied_top: usize,
    /// Legal moves whose link is 2+ board letters (an extension of a whole word).
    pub extensions: usize,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.settings += o.settings;
        self.legal_moves += o.legal_moves;
        self.no_move += o.no_move;
        self.far_coordinates += o.far_coordinates;
        self.through_portal += o.through_portal;
        self.on_tw += o.on_tw;
        self.on_mine += o.on_mine;
        self.tied_top += o.tied_top;
        self.extensions += o.extensions;
        self
    }
}

fn answers_of(moves: &[bot::honey::Move]) -> Vec<String> {
    moves.iter().map(|m| m.answer()).collect()
}

/// Compare the solver (every move, best 1 and best 5 with pruning) with the checker.
/// `words` and `trie` are the vocabulary: the level's own or a shared list.
pub fn compare(
    g: &Generated,
    words: &[String],
    rules: Rules,
    trie: &Trie,
) -> Result<Tally, String> {
    let expected = Checker::new(&g.level, rules, &g.values).all_moves(words);
    let want: Vec<String> = expected.iter().map(Found::answer).collect();
    for limit in [usize::MAX, 1, 5] {
        let got = answers_of(&solve(&g.level, rules, trie, &g.values, limit));
        let want = &want[..want.len().min(limit)];
        if got != want {
            let i = got.iter().zip(want).take_while(|(a, b)| a == b).count();
            return Err(format!(
                "seed {} ({rules}), top {}: solver has {} moves, checker {}; first difference at #{i}: solver {:?}, checker {:?}",
                g.seed,
                if limit == usize::MAX { "all".to_string() } else { limit.to_string() },
                got.len(),
                want.len(),
                got.get(i),
                want.get(i)
            ));
        }
    }
    let board_letters = |f: &Found| {
        f.cells
            .iter()
            .filter(|&&(x, y)| g.level.letters[g.level.index(x, y)].is_some())
            .count()
    };
    let mut tally = Tally {
        settings: 1,
        legal_moves: expected.len(),
        extensions: expected.iter().filter(|f| board_letters(f) >= 2).count(),
        ..Tally::default()
    };
    match expected.first() {
        None => tally.no_move = 1,
        Some(best) => {
            let bonus = |&(x, y): &(usize, usize)| g.level.bonuses[g.level.index(x, y)];
            tally.far_coordinates = (best.x >= 10 || best.y >= 10) as usize;
            tally.through_portal = expected.iter().filter(|f| gen::jumps(&g.level, f)).count();
            tally.on_tw = best.cells.iter().any(|c| bonus(c) == Bonus::TripleWord) as usize;
            tally.on_mine = best.cells.iter().any(|c| bonus(c) == Bonus::Mine) as usize;
            tally.tied_top = expected.get(1).is_some_and(|m| m.value == best.value) as usize;
        }
    }
    Ok(tally)
}

/// Every switch setting on one generated level; `english` replaces the level's vocabulary.
pub fn check_level(
    seed: u64,
    size: Option<usize>,
    english: Option<&(&[String], Trie)>,
) -> (Tally, Vec<String>) {
    let g = generate(seed, size);
    let own;
    let (words, trie) = match english {
        Some((words, trie)) => (*words, trie),
        None => {
            own = Trie::from_words(g.words.iter().map(|s| s.as_str()));
            (g.words.as_slice(), &own)
        }
    };
    let mut tally = Tally::default();
    let mut mismatches = Vec::new();
    for rules in Rules::all() {
        match compare(&g, words, rules, trie) {
            Ok(t) => tally = tally.add(t),
            Err(e) => mismatches.push(e),
        }
    }
    (tally, mismatches)
}

fn check(count: u64, seed: u64, size: Option<usize>, english: bool) -> ExitCode {
    let seeds = match bot::cli::args::seed_range(seed, count, "--count") {
        Ok(s) => s,
        Err(e) => return crate::fail(format!("tester honey check: {e}")),
    };
    let start = std::time::Instant::now();
    let vocabulary = english.then(|| {
        let words = bot::words::english().words.as_slice();
        let trie = Trie::from_words(words.iter().map(|s| s.as_str()));
        (words, trie)
    });
    let bar = crate::progress::bar(count, "levels", true);
    let results: Vec<(Tally, Vec<String>)> = seeds
        .clone()
        .into_par_iter()
        .map(|s| {
            let result = check_level(s, size, vocabulary.as_ref());
            bar.inc(1);
            result
        })
        .collect();
    bar.finish_and_clear();
    let tally = results.iter().fold(Tally::default(), |a, r| a.add(r.0));
    let mismatches: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
    println!(
        "honey check: {count} levels (seeds {seed}..={}){}, {} rule settings each, {:.1} s",
        seeds.end(),
        if english {
            ", embedded English vocabulary"
        } else {
            ""
        },
        Rules::all().len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "compared: {} (level, setting) pairs, {} legal moves in full lists ({} extend a whole word); {} pairs with no legal move",
        tally.settings + mismatches.len(),
        tally.legal_moves,
        tally.extensions,
        tally.no_move
    );
    println!(
        "legal moves through a portal: {}; best answers: X or Y >= 10: {}; on tw: {}; on a mine: {}; tied at the top: {}",
        tally.through_portal, tally.far_coordinates, tally.on_tw, tally.on_mine, tally.tied_top
    );
    println!("mismatches: {}", mismatches.len());
    for m in mismatches.iter().take(10) {
        println!("  {m}");
    }
    if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        println!("reproduce: tester honey gen --seed <SEED> --out DIR, then bot honey --dir DIR --id honey<SEED> with the switches shown");
        ExitCode::FAILURE
    }
}

/// Solve a level with the library solver (used by the invariant tests).
#[cfg(test)]
fn best_value(
    level: &bot::honey::Level,
    words: &[String],
    values: &bot::words::LetterValues,
    rules: Rules,
) -> Option<bot::honey::Score> {
    let trie = Trie::from_words(words.iter().map(|s| s.as_str()));
    solve(level, rules, &trie, values, 1)
        .first()
        .map(|m| m.value.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot::honey::Level;

    #[test]
    fn solver_matches_checker_on_seeded_levels_under_every_setting() {
        let results: Vec<(Tally, Vec<String>)> = (1000..1240)
            .into_par_iter()
            .map(|s| check_level(s, None, None))
            .collect();
        let tally = results.iter().fold(Tally::default(), |a, r| a.add(r.0));
        let mismatches: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
        assert!(mismatches.is_empty(), "{mismatches:#?}");
        // The generator must really exercise the hard cases.
        assert!(tally.legal_moves > 10_000, "{}", tally.legal_moves);
        assert!(tally.far_coordinates > 0 && tally.through_portal > 0 && tally.tied_top > 0);
        assert!(tally.on_tw > 0 && tally.on_mine > 0 && tally.extensions > 0);
    }

    /// Levels of mostly triple-word cells, mines among them, hands of dozens of tiles and long
    /// words: values far past u64::MAX, halved on the way. The solver (whose machine totals give
    /// way to exact ones) and the checker (exact throughout) agree move for move.
    #[test]
    fn solver_matches_checker_past_u64() {
        use rand::{Rng, SeedableRng};
        let values = bot::words::LetterValues::scrabble_english();
        let mut past_u64 = 0;
        for seed in 0..24u64 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (width, height) = (rng.random_range(80..120), rng.random_range(1..4));
            let mut letters = vec![vec!["-"; width]; height];
            let mut bonuses = vec![vec!["-"; width]; height];
            for (row, bonus_row) in letters.iter_mut().zip(&mut bonuses) {
                row[rng.random_range(0..width)] = "A";
                for bonus in bonus_row.iter_mut() {
                    *bonus = ["tw", "tw", "tw", "tw", "tw", "tw", "dw", "m", "-"]
                        [rng.random_range(0..9)];
                }
            }
            let grid =
                |rows: &[Vec<&str>]| rows.iter().map(|r| r.join(" ") + "\n").collect::<String>();
            let hand: String = (0..rng.random_range(120..200))
                .map(|_| ['A', 'A', 'A', 'B'][rng.random_range(0..4)])
                .collect();
            let level =
                Level::parse((&grid(&letters), "l"), (&grid(&bonuses), "b"), (&hand, "h")).unwrap();
            let words: Vec<String> = (0..60)
                .map(|_| {
                    (0..rng.random_range(2..width))
                        .map(|_| ['A', 'B'][rng.random_range(0..2)])
                        .collect()
                })
                .chain((2..width).map(|k| "A".repeat(k)))
                .collect();
            let trie = Trie::from_words(words.iter().map(|s| s.as_str()));
            let rules = Rules::all()[seed as usize % 12];
            let want: Vec<String> = Checker::new(&level, rules, &values)
                .all_moves(&words)
                .iter()
                .map(Found::answer)
                .collect();
            for limit in [usize::MAX, 1, 5] {
                let got = answers_of(&solve(&level, rules, &trie, &values, limit));
                assert_eq!(
                    got,
                    want[..want.len().min(limit)],
                    "seed {seed} top {limit}"
                );
            }
            let top = solve(&level, rules, &trie, &values, 1);
            past_u64 += top.first().is_some_and(|m| m.value > u64::MAX.into()) as usize;
        }
        assert!(past_u64 >= 18, "only {past_u64} levels pass u64::MAX");
    }

    #[test]
    fn invariants_hold_on_seeded_levels() {
        for seed in 2000..2060 {
            let g = generate(seed, None);
            let rules = Rules::all()[seed as usize % 12];
            let base = best_value(&g.level, &g.words, &g.values, rules);
            // One more hand tile never lowers the best score.
            for extra in [b'E', b'S', b'Q'] {
                let mut more = g.level.clone();
                more.hand[(extra - b'A') as usize] += 1;
                let v = best_value(&more, &g.words, &g.values, rules);
                assert!(
                    v >= base,
                    "seed {seed}: adding {} lowered {base:?} to {v:?}",
                    extra as char
                );
            }
            if let Some(best) = Checker::new(&g.level, rules, &g.values)
                .all_moves(&g.words)
                .first()
            {
                // Removing the best word from the vocabulary never raises the best score...
                let fewer: Vec<String> = g
                    .words
                    .iter()
                    .filter(|w| **w != best.word)
                    .cloned()
                    .collect();
                let v = best_value(&g.level, &fewer, &g.values, rules);
                assert!(
                    v <= base,
                    "seed {seed}: removing {} raised the best",
                    best.word
                );
                // ...and raising every letter value by one never lowers it.
                let mut richer = g.values.clone();
                richer.0.iter_mut().for_each(|v| *v += 1);
                let v = best_value(&g.level, &g.words, &richer, rules);
                assert!(v >= base, "seed {seed}: higher values lowered the best");
            } else {
                // No legal move: removing a word keeps it that way.
                let fewer = &g.words[1..];
                assert_eq!(best_value(&g.level, fewer, &g.values, rules), None);
            }
        }
    }

    #[test]
    fn without_portals_single_letter_links_are_word_ends() {
        // The statement's consequence: crossing an inner letter of a word always touches.
        let mut hooks = 0;
        for seed in 3000..3060 {
            let mut g = generate(seed, None);
            for b in g.level.bonuses.iter_mut() {
                if matches!(b, Bonus::Portal(_)) {
                    *b = Bonus::None;
                }
            }
            let trie = Trie::from_words(g.words.iter().map(|s| s.as_str()));
            for rules in Rules::all() {
                let checker = Checker::new(&g.level, rules, &g.values);
                let existing = checker.existing_words();
                for m in solve(&g.level, rules, &trie, &g.values, usize::MAX) {
                    let mut cells = vec![(m.x, m.y)];
                    for _ in 1..m.word.len() {
                        let last = *cells.last().unwrap();
                        cells.push(checker.walk(last, m.dir.dir6()).expect("on the grid"));
                    }
                    let shared: Vec<_> = cells
                        .iter()
                        .filter(|&&(x, y)| g.level.letters[g.level.index(x, y)].is_some())
                        .collect();
                    if shared.len() != 1 {
                        continue;
                    }
                    for (_, word_cells, _) in existing.iter().filter(|w| w.1.contains(shared[0])) {
                        hooks += 1;
                        let ends = [word_cells[0], *word_cells.last().unwrap()];
                        assert!(
                            ends.contains(shared[0]),
                            "seed {seed} {rules}: {}",
                            m.answer()
                        );
                    }
                }
            }
        }
        assert!(hooks > 100, "{hooks}");
    }

    #[test]
    fn generation_is_deterministic_and_reachable_levels_parse_back() {
        let a = generate(77, Some(12));
        let b = generate(77, Some(12));
        assert_eq!(a.level, b.level);
        assert_eq!(a.words, b.words);
        let again = Level::parse(
            (&a.level.letters_text(), "l"),
            (&a.level.bonuses_text(), "b"),
            (&a.level.hand_text(), "h"),
        )
        .unwrap();
        assert_eq!(again, a.level);
        assert!(a.level.letters.iter().filter(|c| c.is_some()).count() >= 3);
    }
}
