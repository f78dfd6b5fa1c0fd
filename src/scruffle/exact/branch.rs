//! Branch and bound on the letters of the board, bounded by U4's dual (`dual`). A node restricts
//! the symbols some cells may hold; its bound is the dual value after a few subgradient sweeps
//! from the root's multipliers. Where the row's and the column's best strings disagree on a
//! cell, the node splits into "the row's symbol", "the column's symbol" and "neither"; where
//! they agree everywhere, it fixes the most valuable cell still open. Each node's strings also
//! give a plan (their occurrences, best first, as long as letters agree, entries last and the
//! plays can be ordered), completed by the packing greedy. Nodes are taken best bound first, so
//! when the time runs out the largest open bound bounds the optimum.

use crate::scruffle::dual::{Descend, Dual, Sweep, ANY, BLANK};
use crate::scruffle::greedy::{extend, Params, Start};
use crate::scruffle::layout::{Layout, Placement, Pos};
use crate::scruffle::plan::{Context, Plan};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Subgradient sweeps at the root and at each node (nodes start from the root's multipliers).
const ROOT_SWEEPS: usize = 400;
const NODE_SWEEPS: usize = 30;
/// Nodes the candidate search may spend to close a node whose rows and columns agree.
const LEAF_NODES: u64 = 20_000;
/// Cell price of the greedy that completes each node's plan (the solver's usual best opening).
const COMPLETION_ALPHA: f32 = 10.0;

/// An open node: the symbols each cell may hold, and a bound on every plan that respects them.
struct Node {
    bound: f64,
    allowed: Vec<u32>,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.bound == other.bound
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bound.total_cmp(&other.bound)
    }
}

/// The result of a search.
pub struct Outcome {
    pub plays: Vec<Placement>,
    pub score: u64,
    /// A bound on the optimum: the score itself when the search ended, +inf when the deadline
    /// came before any sweep bounded the root.
    pub bound: f64,
    pub complete: bool,
    pub nodes: u64,
}

/// The symbol bit of a letter (0 = blank).
fn symbol(letter: u8) -> u32 {
    match letter {
        0 => BLANK,
        l => 1 << (l - b'A'),
    }
}

/// Search the whole board of `ctx` from the plan `floor`, with `dual` at its starting
/// multipliers, until `deadline` or `node_limit` nodes.
pub fn search(
    ctx: &Context,
    mut dual: Dual,
    floor: Plan,
    deadline: Instant,
    node_limit: u64,
) -> Outcome {
    let layout = ctx.layout;
    let root: Vec<u32> = (0..layout.cells())
        .map(|c| if layout.is_open(c) { ANY } else { BLANK })
        .collect();
    let mut best = floor;
    let target = |best: &Plan| best.score as f64 + 1.0;
    let descent = dual.descend(
        layout,
        &root,
        target(&best),
        Descend {
            sweeps: ROOT_SWEEPS,
            patience: 8,
            deadline: Some(deadline),
            parallel: false,
            keep_best: true,
        },
    );
    let root_m = dual.m.clone();
    let mut nodes = 1u64;
    let mut heap = BinaryHeap::new();
    let mut unresolved = false;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut stopped = false;
    match descent.at_best {
        Some(sweep) => expand(
            ctx,
            &dual,
            &sweep,
            descent.best,
            &root,
            &mut best,
            &mut heap,
            &mut unresolved,
            &mut rng,
            deadline,
        ),
        None => {
            // No sweep bounded the root (the deadline came first): the whole tree stays open,
            // bounded by whatever the sweeps reached (+inf when none ran), never the incumbent.
            heap.push(Node {
                bound: descent.best,
                allowed: root.clone(),
            });
            stopped = true;
        }
    }
    while let Some(node) = heap.pop() {
        if node.bound < target(&best) - 1e-6 {
            heap.clear();
            break;
        }
        if nodes >= node_limit || Instant::now() >= deadline {
            heap.push(node);
            stopped = true;
            break;
        }
        nodes += 1;
        dual.m.clone_from(&root_m);
        let descent = dual.descend(
            layout,
            &node.allowed,
            target(&best),
            Descend {
                sweeps: NODE_SWEEPS,
                patience: 4,
                deadline: Some(deadline),
                parallel: false,
                keep_best: true,
            },
        );
        let bound = descent.best.min(node.bound);
        if bound < target(&best) - 1e-6 {
            continue;
        }
        let Some(sweep) = descent.at_best else {
            heap.push(node);
            stopped = true;
            break;
        };
        expand(
            ctx,
            &dual,
            &sweep,
            bound,
            &node.allowed,
            &mut best,
            &mut heap,
            &mut unresolved,
            &mut rng,
            deadline,
        );
    }
    let open = heap.peek().map_or(f64::NEG_INFINITY, |n| n.bound);
    let complete = !stopped && !unresolved && heap.is_empty();
    Outcome {
        bound: open.max(best.score as f64),
        score: best.score,
        plays: best.plays,
        complete,
        nodes,
    }
}

/// A node with bound `bound` whose best strings are `sweep`: improve `best` from its strings,
/// then queue its children (if the bound still leaves room).
#[allow(clippy::too_many_arguments)]
fn expand(
    ctx: &Context,
    dual: &Dual,
    sweep: &Sweep,
    bound: f64,
    allowed: &[u32],
    best: &mut Plan,
    heap: &mut BinaryHeap<Node>,
    unresolved: &mut bool,
    rng: &mut Xoshiro256PlusPlus,
    deadline: Instant,
) {
    let layout = ctx.layout;
    let (occurrences, stake) = occurrences(layout, dual, sweep);
    let plan = plan_from(ctx, &occurrences, rng, deadline);
    if plan.score > best.score {
        *best = plan;
    }
    if bound < best.score as f64 + 1.0 - 1e-6 {
        return;
    }
    let [rows, cols] = &sweep.letters;
    // Rows and columns agree: what is left is the dual's gap on copies, claims and the play
    // order, which the candidate search closes exactly when the letters leave few candidates.
    if (0..layout.cells()).all(|c| rows[c] == cols[c]) {
        let floor = best.score;
        if let Some((plays, score)) =
            super::solve_within(layout, ctx.words, allowed, floor, 50, deadline, LEAF_NODES)
        {
            if score > best.score {
                *best = Plan::from_plays(ctx, &plays);
            }
            return;
        }
    }
    // The disagreeing cell with the most at stake; else the open cell with the most at stake.
    let open = |c: usize| allowed[c].count_ones() > 1;
    let pick = |want: &dyn Fn(usize) -> bool| {
        (0..layout.cells())
            .filter(|&c| want(c))
            .max_by(|&a, &b| stake[a].total_cmp(&stake[b]).then(b.cmp(&a)))
    };
    let children: Vec<u32> = if let Some(c) = pick(&|c| rows[c] != cols[c]) {
        let (r, v) = (symbol(rows[c]), symbol(cols[c]));
        let mut out = vec![allowed[c] & r, allowed[c] & v, allowed[c] & !(r | v)];
        out.retain(|&m| m != 0);
        push_children(heap, allowed, c, &out, bound);
        return;
    } else if let Some(c) = pick(&|c| open(c) && stake[c] > 0.0) {
        let r = symbol(rows[c]);
        vec![c as u32, allowed[c] & r, allowed[c] & !r]
    } else {
        // Nothing left to split on and the candidate search did not end: this part of the
        // tree stays open.
        *unresolved = true;
        return;
    };
    let c = children[0] as usize;
    let masks: Vec<u32> = children[1..].iter().copied().filter(|&m| m != 0).collect();
    push_children(heap, allowed, c, &masks, bound);
}

fn push_children(
    heap: &mut BinaryHeap<Node>,
    allowed: &[u32],
    cell: usize,
    masks: &[u32],
    bound: f64,
) {
    for &m in masks {
        let mut child = allowed.to_vec();
        child[cell] = m;
        heap.push(Node {
            bound,
            allowed: child,
        });
    }
}

/// The counted occurrences of a sweep as placements of spellings (spelling, position, score),
/// best first, and per cell the summed score of the occurrences over it.
fn occurrences(layout: &Layout, dual: &Dual, sweep: &Sweep) -> (Vec<(u32, Pos, u64)>, Vec<f64>) {
    let a = &dual.automaton;
    let mut out = Vec::new();
    let mut stake = vec![0.0; layout.cells()];
    for (seg, path) in dual.segments.iter().zip(&sweep.paths) {
        let step = layout.step(seg.dir);
        for o in &path.occurrences {
            let text = &a.spellings[o.spelling as usize];
            let pos = Pos::new(seg.dir, seg.start + o.start as usize * step);
            let score = layout.score(text, pos);
            for c in layout.span(pos, text.len()) {
                stake[c] += score as f64;
            }
            out.push((o.spelling, pos, score));
        }
    }
    out.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    (out, stake)
}

/// A valid plan from occurrences (best first): each is played while its letters agree with
/// those laid, its spelling has an entry left and all can still be ordered; then the packing
/// greedy completes the board.
fn plan_from(
    ctx: &Context,
    occurrences: &[(u32, Pos, u64)],
    rng: &mut Xoshiro256PlusPlus,
    deadline: Instant,
) -> Plan {
    let layout = ctx.layout;
    let a = &ctx.automaton;
    let mut letters = vec![0u8; layout.cells()];
    let mut next = vec![0usize; a.spellings.len()];
    let mut chosen: Vec<Placement> = Vec::new();
    for &(s, pos, _) in occurrences {
        let entries = &a.entries[s as usize];
        let Some(&word) = entries.get(next[s as usize]) else {
            continue;
        };
        let text = &ctx.words[word as usize];
        let agrees = layout
            .span(pos, text.len())
            .zip(text)
            .all(|(c, &b)| letters[c] == 0 || letters[c] == b);
        if !agrees
            || chosen
                .iter()
                .any(|p| p.pos == pos && ctx.words[p.word as usize] == *text)
        {
            continue;
        }
        chosen.push(Placement { word, pos });
        match order(ctx, &chosen) {
            Some(_) => {
                next[s as usize] += 1;
                for (c, &b) in layout.span(pos, text.len()).zip(text) {
                    letters[c] = b;
                }
            }
            None => {
                chosen.pop();
            }
        }
    }
    let ordered = order(ctx, &chosen).expect("kept orderable");
    let mut plan = Plan::from_plays(ctx, &ordered);
    let seeds: Vec<usize> = (0..layout.cells())
        .filter(|&c| plan.grid.letter(c) != 0)
        .collect();
    let from = Start {
        seeds: &seeds,
        ..Start::default()
    };
    extend(
        ctx,
        &mut plan,
        Params::opening(COMPLETION_ALPHA),
        from,
        rng,
        deadline,
    );
    plan
}

/// The plays in an order where each fills a new cell, if there is one (`model::peel`).
pub fn order(ctx: &Context, plays: &[Placement]) -> Option<Vec<Placement>> {
    let layout = ctx.layout;
    let cells: Vec<Vec<u32>> = plays
        .iter()
        .map(|p| {
            let span = layout.span(p.pos, ctx.words[p.word as usize].len());
            span.map(|c| c as u32).collect()
        })
        .collect();
    super::model::peel(&cells).map(|order| order.into_iter().map(|i| plays[i]).collect())
}
