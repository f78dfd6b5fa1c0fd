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
}

/// Fill `grid` (its blocked fields are kept, every other field is laid out anew).
/// Returns the best valid filled grid, or the best unfilled layout when no fill succeeded.
pub fn generate(grid: &Grid, words: &[String], o: &GenerateOptions) -> Result<Grid, String> {
    let started = Instant::now();
    let deadline = started + o.budget;
    let index = WordIndex::new(words);
    let dict: HashSet<String> = words.iter().cloned().collect();
    let base = Layout::from_grid(grid);
    let free = base.kind.iter().filter(|&&k| k != Kind::Blocked).count();
    if free == 0 {
        return Err("grid has no free field".into());
    }
    let max_len = (2..=9).rev().find(|&l| index.count(l) > 0).unwrap_or(2);
    let mut best: Option<(f64, Grid)> = None;
    let mut best_layout: Option<(f64, Grid)> = None;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(o.seed);
    let mut attempt = 0u64;
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
        let ao = AnnealOptions {
            max_len,
            iterations: 2000 * free as u64,
            deadline: Some(Instant::now() + layout_time),
            ..AnnealOptions::default()
        };
        let start = random_layout(&base, &mut rng);
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
        let out = filler.solve(cell_count, attempt_seed, deadline);
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
        let Some(letters) = out.letters else { continue };
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
        }
        if o.stop_at_first {
            break;
        }
    }
    if let Some((_, g)) = best {
        return Ok(g);
    }
    if o.verbose {
        eprintln!("  no complete fill within the budget; writing the best unfilled layout");
    }
    best_layout
        .map(|(_, g)| g)
        .ok_or_else(|| "no valid layout found within the budget".to_string())
}
