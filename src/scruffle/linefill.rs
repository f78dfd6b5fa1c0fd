//! Refilling one line segment of a plan with the line DP: the letters already on the board are
//! fixed, empty cells may get any letter (at a price per letter) or stay empty, and every
//! occurrence of a spelling with an unused entry scores, as long as it covers at least one empty cell. The best string's occurrences become placements, appended
//! to the plan in an order where each has a new cell of its own (found by peeling from the end:
//! the last play must own a cell no other new play covers); those that cannot be ordered are
//! dropped, lowest score first.

use super::layout::{Placement, Pos, Segment};
use super::linedp::{occurrence_value, LineDp, Path, SegmentBuf};
use super::plan::{Context, Plan};

/// Buffers for filling segments; one per search thread.
pub struct LineFill {
    dp: LineDp,
    input: SegmentBuf,
    cost: Vec<f64>,
    path: Path,
    cells: Vec<usize>,
    candidates: Vec<Candidate>,
    cover: Vec<u32>,
}

/// A placement found on the best string, before it is ordered.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    play: Placement,
    score: u64,
    /// First and one-past-last offset in the segment.
    from: usize,
    to: usize,
    alive: bool,
}

impl LineFill {
    pub fn new(ctx: &Context) -> LineFill {
        LineFill {
            dp: LineDp::new(&ctx.automaton, ctx.layout.values()),
            input: SegmentBuf::default(),
            cost: Vec::new(),
            path: Path::default(),
            cells: Vec::new(),
            candidates: Vec::new(),
            cover: Vec::new(),
        }
    }

    /// Refill `seg` of `plan` (placements are only added); returns the score gained.
    pub fn fill(&mut self, ctx: &Context, plan: &mut Plan, seg: Segment, price: f64) -> u64 {
        self.fill_with(ctx, plan, seg, price, None)
    }

    /// `fill`, with `bonus` (per cell of `seg` and letter, e.g. from the crossing lines' `wanted`)
    /// added to the letter price of its empty cells.
    pub fn fill_with(
        &mut self,
        ctx: &Context,
        plan: &mut Plan,
        seg: Segment,
        price: f64,
        bonus: Option<&[[f64; 26]]>,
    ) -> u64 {
        if !self.load(ctx, plan, seg, price, bonus) {
            return 0;
        }
        self.load_costs(ctx, plan);
        let input = self.input.view();
        let value = self
            .dp
            .solve(&ctx.automaton, &input, &self.cost, Some(&mut self.path));
        if value <= 0.0 {
            return 0;
        }
        self.candidates_from_path(ctx, plan, seg);
        self.order_and_play(ctx, plan)
    }

    /// The letters the best string of `seg` puts on its empty cells, each with the summed value of
    /// the counted occurrences covering it (what the line stands to lose there): one DP solve.
    pub fn wanted(
        &mut self,
        ctx: &Context,
        plan: &Plan,
        seg: Segment,
        price: f64,
    ) -> Vec<(usize, u8, f64)> {
        let a = &ctx.automaton;
        if !self.load(ctx, plan, seg, price, None) {
            return Vec::new();
        }
        self.load_costs(ctx, plan);
        let input = self.input.view();
        self.dp.solve(a, &input, &self.cost, Some(&mut self.path));
        let values = ctx.layout.values().map(|v| v as f64);
        let mut loss = vec![0.0; self.cells.len()];
        for o in &self.path.occurrences {
            let word = &a.spellings[o.spelling as usize];
            let start = o.start as usize;
            let cost = self.cost[o.spelling as usize];
            let (r, _) = occurrence_value(&input, word, start, cost, &values);
            loss[start..start + word.len()]
                .iter_mut()
                .for_each(|l| *l += r);
        }
        (0..self.cells.len())
            .filter(|&t| self.path.letters[t] != 0 && plan.grid.letter(self.cells[t]) == 0)
            .map(|t| (self.cells[t], self.path.letters[t], loss[t]))
            .collect()
    }

    /// The DP input of `seg`: fixed letters as they are, empty cells at the letter price (plus
    /// `bonus`, one per cell of `seg`). False if no cell is empty.
    fn load(
        &mut self,
        ctx: &Context,
        plan: &Plan,
        seg: Segment,
        price: f64,
        bonus: Option<&[[f64; 26]]>,
    ) -> bool {
        let layout = ctx.layout;
        self.cells.clear();
        self.cells.extend(seg.cells(layout));
        self.input.clear();
        let mut any_empty = false;
        for (t, &c) in self.cells.iter().enumerate() {
            let (mult, factor) = (layout.letter_mult(c), layout.word_factor(c));
            match plan.grid.letter(c) {
                0 => {
                    any_empty = true;
                    let mut b = [-price; 26];
                    if let Some(extra) = bonus {
                        b.iter_mut().zip(&extra[t]).for_each(|(x, e)| *x += e);
                    }
                    self.input.push(mult, factor, 0.0, b, true);
                }
                l => {
                    // A filled cell cannot be anybody's new cell.
                    let mut b = [f64::NEG_INFINITY; 26];
                    b[(l - b'A') as usize] = 0.0;
                    self.input.push(mult, factor, f64::INFINITY, b, false);
                }
            }
        }
        any_empty
    }

    /// Spelling costs: free while the spelling has an unused entry, else forbidden.
    fn load_costs(&mut self, ctx: &Context, plan: &Plan) {
        let a = &ctx.automaton;
        self.cost.clear();
        self.cost.extend(a.entries.iter().map(|e| {
            if e.iter().any(|&i| !plan.used[i as usize]) {
                0.0
            } else {
                f64::INFINITY
            }
        }));
    }

    /// One candidate per counted occurrence, each with a distinct unused entry of its spelling.
    fn candidates_from_path(&mut self, ctx: &Context, plan: &Plan, seg: Segment) {
        let a = &ctx.automaton;
        self.candidates.clear();
        let mut taken: Vec<u32> = Vec::new();
        for o in &self.path.occurrences {
            let Some(&entry) = a.entries[o.spelling as usize]
                .iter()
                .find(|&&i| !plan.used[i as usize] && !taken.contains(&i))
            else {
                continue;
            };
            taken.push(entry);
            let from = o.start as usize;
            let to = from + a.spellings[o.spelling as usize].len();
            let pos = Pos::new(seg.dir, self.cells[from]);
            self.candidates.push(Candidate {
                play: Placement { word: entry, pos },
                score: ctx.layout.score(&ctx.words[entry as usize], pos),
                from,
                to,
                alive: true,
            });
        }
    }

    /// Peel the candidates from the last play backwards: the last must own a new cell that no
    /// other remaining candidate covers. When none does, drop the lowest score. Then play them.
    fn order_and_play(&mut self, ctx: &Context, plan: &mut Plan) -> u64 {
        let len = self.cells.len();
        self.cover.clear();
        self.cover.resize(len, 0);
        let is_new = |t: usize, cells: &[usize], plan: &Plan| plan.grid.letter(cells[t]) == 0;
        for c in &self.candidates {
            for t in c.from..c.to {
                self.cover[t] += 1;
            }
        }
        let mut reversed = Vec::with_capacity(self.candidates.len());
        let mut left = self.candidates.len();
        while left > 0 {
            let owner = (0..self.candidates.len()).find(|&k| {
                let c = &self.candidates[k];
                c.alive
                    && (c.from..c.to).any(|t| self.cover[t] == 1 && is_new(t, &self.cells, plan))
            });
            let k = owner.unwrap_or_else(|| {
                (0..self.candidates.len())
                    .filter(|&k| self.candidates[k].alive)
                    .min_by_key(|&k| self.candidates[k].score)
                    .expect("some candidate is alive")
            });
            let c = &mut self.candidates[k];
            c.alive = false;
            for t in c.from..c.to {
                self.cover[t] -= 1;
            }
            left -= 1;
            if owner.is_some() {
                reversed.push(k);
            }
        }
        let before = plan.score;
        let mut filled = Vec::new();
        for &k in reversed.iter().rev() {
            let p = self.candidates[k].play;
            let w = &ctx.words[p.word as usize];
            debug_assert!(plan.grid.probe(ctx.layout, w, p.pos).is_some_and(|n| n > 0));
            filled.clear();
            plan.push(ctx, p, &mut filled);
        }
        plan.score - before
    }
}
