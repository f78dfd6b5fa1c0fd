//! End-of-game scoring, following the reference Tester's `Points.CalculatePoints`:
//! a connected group of exactly v cells of value v scores v, once more if it touches a star cell;
//! +5 when every heart holds the same value (and there is at least one heart).

use super::layout::Layout;

/// Points split the way the Tester logs them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// `groups[v]` = points from scoring groups of value v (v in 1..=6; index 0 unused).
    pub groups: [u32; 7],
    /// One entry per scoring group that holds a star: its value (the extra points).
    pub stars: Vec<u8>,
    /// The value all hearts share, when the heart bonus is earned.
    pub heart_value: Option<u8>,
}

impl Breakdown {
    pub fn total(&self) -> u32 {
        self.groups.iter().sum::<u32>()
            + self.stars.iter().map(|&v| v as u32).sum::<u32>()
            + if self.heart_value.is_some() { 5 } else { 0 }
    }
}

/// Score a board (values 0 = empty; empty cells never score).
pub fn score(layout: &Layout, values: &[u8]) -> u32 {
    breakdown(layout, values).total()
}

/// Score with the per-part split. One flood fill per group, cells visited once.
pub fn breakdown(layout: &Layout, values: &[u8]) -> Breakdown {
    let mut out = Breakdown::default();
    let mut seen = vec![false; values.len()];
    let mut stack = Vec::with_capacity(values.len());
    // Groups are found in cell order; stars are reported grouped by value like the Tester.
    let mut star_groups: Vec<u8> = Vec::new();
    for start in 0..values.len() {
        let v = values[start];
        if v == 0 || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut size, mut star) = (0usize, false);
        while let Some(c) = stack.pop() {
            size += 1;
            star |= layout.is_star(c);
            for &n in layout.neighbours(c) {
                if !seen[n] && values[n] == v {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        if size == v as usize {
            out.groups[v as usize] += v as u32;
            if star {
                star_groups.push(v);
            }
        }
    }
    star_groups.sort_unstable();
    out.stars = star_groups;
    let hearts = layout.hearts();
    if let Some(&first) = hearts.first() {
        let v = values[first];
        if v != 0 && hearts.iter().all(|&h| values[h] == v) {
            out.heart_value = Some(v);
        }
    }
    out
}

/// The Tester's per-game log lines for a score: `Groups of <v> points <n>` for v = 1..6, each
/// followed by that value's `Star points <v>` and `Heart points 5` lines.
pub fn log_lines(b: &Breakdown) -> Vec<String> {
    let mut lines = Vec::new();
    for v in 1..=6u8 {
        lines.push(format!("Groups of {v} points {}", b.groups[v as usize]));
        for _ in b.stars.iter().filter(|&&s| s == v) {
            lines.push(format!("Star points {v}"));
        }
        if b.heart_value == Some(v) {
            lines.push("Heart points 5".to_string());
        }
    }
    lines
}
