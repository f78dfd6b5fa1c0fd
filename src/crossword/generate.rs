//! `generate`: layout search and fill in a loop until the time budget ends, keeping the best
//! completely filled valid grid (anytime).

use super::fill::{FillSlot, Filler, WordIndex};
use super::grid::{Cell, Grid};
use super::layout::{anneal_counted, random_layout, AnnealOptions, Derived, Kind, Layout};
use super::rate::rate;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub seed: u64,
    pub budget: Duration,
    pub stop_at_first: bool,
    pub verbose: bool,
    /// Cool the layout search by move count only, so the result does not depend on the machine's
    /// load; the budget is then only a hard stop.
    pub reproducible: bool,
}

/// Fill `grid` (its blocked fields are kept, every other field is laid out anew).
/// Returns the best valid filled grid, or the best unfilled layout when no fill succeeded.
pub fn generate(grid: &Grid, words: &[String], o: &GenerateOptions) -> Result<Grid, String> {
    let started = Instant::now();
    // Leave a margin for the last fill's deadline checks and for writing the result.
    let deadline = started
        + o.budget
            .mul_f64(0.98)
            .saturating_sub(Duration::from_millis(200));
    let index = WordIndex::new(words);
    let dict: HashSet<String> = words.iter().cloned().collect();
    let base = Layout::from_grid(grid);
    let free = base.kind.iter().filter(|&&k| k != Kind::Blocked).count();
    if free == 0 {
        return Err("grid has no free field".into());
    }
    let max_len = (2..=9).rev().find(|&l| index.count(l) > 0).unwrap_or(2);
    let mut best: Option<(f64, Grid)> = None;
    let mut best_filled_layout: Option<Layout> = None;
    let mut best_layout: Option<(f64, Grid)> = None;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(o.seed);
    let mut attempt = 0u64;
    let mut repair: Option<(Layout, Vec<f64>)> = None;
    while Instant::now() < deadline {
        let attempt_seed = o
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(attempt);
        attempt += 1;
        let left = deadline.saturating_duration_since(Instant::now());
        // Most of the budget goes to the layout: the fill is usually quick.
        let cap = Duration::from_secs_f64(3.0 + free as f64 / 50.0);
        let layout_time = left.mul_f64(0.6).min(cap);
        let mut ao = AnnealOptions {
            max_len,
            iterations: 100_000 + 1000 * free as u64,
            deadline: Some(Instant::now() + layout_time),
            hard_stop: Some(deadline),
            ..AnnealOptions::default()
        };
        if o.reproducible {
            ao.deadline = None;
        }
        // After a failed fill, repair that layout: a cooler, shorter run that shortens the words
        // through the fields where the fill kept failing. Otherwise start afresh.
        let start = match repair.take() {
            Some((failed, heat)) => {
                ao.heat = heat;
                ao.start_temperature = 0.5;
                ao.iterations /= 4;
                if !o.reproducible {
                    ao.deadline = Some(Instant::now() + layout_time / 3);
                }
                failed
            }
            // Anytime: once a grid is filled, alternate between polishing its layout (a cool
            // run from it) and fresh layouts.
            None => match &best_filled_layout {
                Some(good) if attempt.is_multiple_of(2) => {
                    ao.start_temperature = 0.3;
                    good.clone()
                }
                _ => random_layout(&base, &mut rng),
            },
        };
        let (layout, objective, moves) = anneal_counted(&start, &ao, attempt_seed);
        if objective == f64::NEG_INFINITY {
            continue;
        }
        let mut d = Derived::default();
        layout.derive(&mut d);
        let empty = layout.to_grid(grid, &d);
        let layout_mean = rate(&empty, None).mean();
        if best_layout.as_ref().is_none_or(|(m, _)| layout_mean > *m) {
            best_layout = Some((layout_mean, empty.clone()));
        }
        if best.as_ref().is_some_and(|(m, _)| layout_mean <= *m) {
            continue;
        }
        let slots: Vec<FillSlot> = d
            .slots
            .iter()
            .map(|s| FillSlot {
                cells: s.cells().collect(),
            })
            .collect();
        let cell_count = grid.cells.len();
        let mut filler = Filler::new(&index, cell_count, slots);
        // One stuck fill must not eat the budget: cap it, leaving room for a repaired layout.
        let left = deadline.saturating_duration_since(Instant::now());
        let fill_deadline =
            Instant::now() + left.mul_f64(0.5).max(Duration::from_secs(3)).min(left);
        let out = filler.solve(cell_count, attempt_seed, fill_deadline);
        if o.verbose {
            eprintln!(
                "  attempt {attempt}: layout {layout_mean:.2} ({} slots, {moves} moves) fill {} after {} restarts, {} nodes, {:.1} s",
                d.slots.len(),
                if out.letters.is_some() { "ok" } else { "failed" },
                out.restarts,
                out.nodes,
                started.elapsed().as_secs_f64()
            );
        }
        let Some(letters) = out.letters else {
            let mut heat = vec![0.0; cell_count];
            let total: f64 = out.weights.iter().map(|w| w - 1.0).sum::<f64>().max(1.0);
            for (slot, w) in d.slots.iter().zip(&out.weights) {
                for i in slot.cells() {
                    heat[i] += 0.5 * (w - 1.0) / total;
                }
            }
            // Repair a fresh layout once; after a failed repair start afresh.
            if ao.heat.is_empty() {
                repair = Some((layout, heat));
            }
            continue;
        };
        let mut filled = empty;
        for (i, cell) in filled.cells.iter_mut().enumerate() {
            if *cell == Cell::Empty {
                *cell = Cell::Letter(letters[i]);
            }
        }
        let r = rate(&filled, Some(&dict));
        if !r.bonus() {
            return Err(format!(
                "internal error: filled grid breaks a rule: {}",
                r.violations.join("; ")
            ));
        }
        if best.as_ref().is_none_or(|(m, _)| r.mean() > *m) {
            best = Some((r.mean(), filled));
            best_filled_layout = Some(layout.clone());
        }
        if o.stop_at_first {
            break;
        }
    }
    if let Some((_, g)) = best {
        return Ok(g);
    }
    if o.verbose && best_layout.is_some() {
        eprintln!("  no complete fill within the budget; writing the best unfilled layout");
    }
    best_layout
        .map(|(_, g)| g)
        .ok_or_else(|| "no valid layout found within the budget".to_string())
}

/// Fill the layout `grid` already has (its questions as given) with distinct dictionary words.
/// Returns `None` when no fill was found before `deadline` (or the layout breaks a rule).
pub fn fill_layout(grid: &Grid, index: &WordIndex, seed: u64, deadline: Instant) -> Option<Grid> {
    fill_layout_with(grid, index, seed, deadline)
        .ok()
        .and_then(|fill| fill.grid)
}

/// What one fill attempt did.
pub struct LayoutFill {
    /// The filled grid, if every word was placed.
    pub grid: Option<Grid>,
    pub restarts: u32,
    pub nodes: u64,
    /// Unfilled because the deadline came (else the search ran out of candidates).
    pub time_up: bool,
}

/// Why the layout of `grid` cannot be filled as it is: how many rules it breaks, and the first.
pub fn layout_problem(grid: &Grid) -> Option<String> {
    let violations = super::rules::analyse(grid, None).violations;
    let first = violations.first()?;
    Some(match violations.len() {
        1 => format!("the layout breaks a rule: {first}"),
        n => format!("the layout breaks {n} rules, first: {first}"),
    })
}

/// `fill_layout` with its counts; `Err` names the first rule the layout breaks.
pub fn fill_layout_with(
    grid: &Grid,
    index: &WordIndex,
    seed: u64,
    deadline: Instant,
) -> Result<LayoutFill, String> {
    if let Some(problem) = layout_problem(grid) {
        return Err(problem);
    }
    let analysis = super::rules::analyse(grid, None);
    let slots: Vec<FillSlot> = analysis
        .words
        .iter()
        .map(|w| FillSlot {
            cells: w.cells.clone(),
        })
        .collect();
    let mut filler = Filler::new(index, grid.cells.len(), slots);
    let out = filler.solve(grid.cells.len(), seed, deadline);
    let grid = out.letters.map(|letters| {
        let mut filled = grid.clone();
        for (i, cell) in filled.cells.iter_mut().enumerate() {
            if cell.is_letter_field() {
                *cell = Cell::Letter(letters[i]);
            }
        }
        filled
    });
    Ok(LayoutFill {
        grid,
        restarts: out.restarts,
        nodes: out.nodes,
        time_up: out.time_up,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIT: &str = "../shared/data/crossword";

    fn official_words() -> Vec<String> {
        let path = format!("{KIT}/useful/wordlist.txt");
        bot_words(&path)
    }

    fn bot_words(path: &str) -> Vec<String> {
        let (list, rejected) = crate::words::read_words(std::path::Path::new(path)).unwrap();
        assert!(rejected.is_empty());
        list.deduplicated().words
    }

    fn kit_grid(name: &str) -> Grid {
        Grid::parse(&std::fs::read_to_string(format!("{KIT}/{name}")).unwrap()).unwrap()
    }

    #[test]
    fn fills_the_organisers_18x14_layout_with_valid_distinct_words() {
        let words = official_words();
        let index = WordIndex::new(&words);
        let dict: HashSet<String> = words.iter().cloned().collect();
        let layout = kit_grid("example_grids/18x14.cwg");
        let deadline = Instant::now() + Duration::from_secs(60);
        let filled = fill_layout(&layout, &index, 5, deadline).expect("a fill");
        let r = rate(&filled, Some(&dict));
        assert!(r.bonus(), "{:?}", r.violations);
        assert_eq!(filled.questions, layout.questions);
        assert_eq!(format!("{:.1}", r.mean()), "97.6");
    }

    #[test]
    fn generates_a_valid_high_rated_15x15() {
        let words = official_words();
        let dict: HashSet<String> = words.iter().cloned().collect();
        let input = kit_grid("test_cases/15x15_2.cwg");
        let o = GenerateOptions {
            seed: 3,
            budget: Duration::from_secs(60),
            stop_at_first: true,
            verbose: false,
            reproducible: true,
        };
        let out = generate(&input, &words, &o).unwrap();
        let r = rate(&out, Some(&dict));
        assert!(r.bonus(), "{:?}", r.violations);
        assert!(r.mean() >= 95.0, "{:?}", r.scores);
        assert_eq!((out.rows, out.cols), (15, 15));
    }

    #[test]
    fn keeps_islands_and_file_style() {
        let words = official_words();
        let dict: HashSet<String> = words.iter().cloned().collect();
        let mut text = String::from("9\r\n9\r\n");
        for r in 0..9 {
            let row: String = (0..9)
                .map(|c| {
                    if (3..5).contains(&r) && (4..6).contains(&c) {
                        '-'
                    } else {
                        '.'
                    }
                })
                .collect();
            text.push_str(&row);
            text.push_str("\r\n");
        }
        let input = Grid::parse(&text).unwrap();
        let o = GenerateOptions {
            seed: 2,
            budget: Duration::from_secs(60),
            stop_at_first: true,
            verbose: false,
            reproducible: true,
        };
        let out = generate(&input, &words, &o).unwrap();
        assert!(rate(&out, Some(&dict)).bonus());
        assert!(out.crlf && out.final_newline);
        for (a, b) in input.cells.iter().zip(&out.cells) {
            assert_eq!(a.is_blocked(), b.is_blocked());
            if a.is_blocked() {
                assert_eq!(a, b);
            }
        }
        // Same seed, same grid (cooling by move count).
        assert_eq!(generate(&input, &words, &o).unwrap(), out);
    }
}
