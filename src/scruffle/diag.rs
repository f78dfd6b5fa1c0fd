//! TEMPORARY diagnostics (scruffle9 session), not for commit.
use super::layout::Pos;
use super::plan::{Context, Plan};

pub fn report(ctx: &Context, plan: &Plan) {
    let layout = ctx.layout;
    let longest = layout.longest_run();
    let n = ctx.words.len();
    let mut used_score = 0u64;
    let mut used_best = 0u64;
    let mut used_n = 0;
    let mut unused_best = Vec::new();
    let mut unused_fit = 0u64;
    let mut unused_fit_n = 0;
    let mut unused_fit_sum = 0u64;
    for p in &plan.plays {
        used_n += 1;
        used_score += layout.score(&ctx.words[p.word as usize], p.pos);
        used_best += ctx.table.best(p.word as usize);
    }
    for i in 0..n {
        if plan.used[i] || ctx.words[i].len() > longest {
            continue;
        }
        unused_best.push(ctx.table.best(i));
        // best valid position now
        let w = &ctx.words[i];
        let mut b = 0u64;
        for pos in layout.positions(w.len()) {
            if let Some(k) = plan.grid.probe(layout, w, pos) {
                if k > 0 {
                    b = b.max(layout.score(w, pos));
                }
            }
        }
        if b > 0 {
            unused_fit_n += 1;
            unused_fit_sum += b;
            unused_fit = unused_fit.max(b);
        }
    }
    unused_best.sort_unstable_by(|a, b| b.cmp(a));
    let open = layout.open_cells();
    let empty = (0..layout.cells())
        .filter(|&c| layout.is_open(c) && plan.grid.letter(c) == 0)
        .count();
    eprintln!(
        "DIAG words {n} used {used_n} score {used_score} sum best(used) {used_best} unused {} sum best(unused) {} top unused {:?}",
        unused_best.len(),
        unused_best.iter().sum::<u64>(),
        &unused_best[..unused_best.len().min(10)]
    );
    eprintln!(
        "DIAG open {open} empty {empty}; unused that still fit: {unused_fit_n}, sum of their best valid {unused_fit_sum}, max {unused_fit}"
    );
    // per-play score vs best standalone, histogram of ratio
    let mut hist = [0usize; 11];
    let mut loss = Vec::new();
    for p in &plan.plays {
        let s = layout.score(&ctx.words[p.word as usize], p.pos);
        let b = ctx.table.best(p.word as usize).max(1);
        hist[((s * 10) / b).min(10) as usize] += 1;
        loss.push((b.saturating_sub(s), p.word));
    }
    loss.sort_unstable_by(|a, b| b.cmp(a));
    eprintln!(
        "DIAG score/best deciles {hist:?}; top losses {:?}",
        &loss[..loss.len().min(8)]
    );
    // new cells per play (replayed) and D/T coverage
    let mut g = super::grid::Grid::new(layout.cells());
    let mut newh = [0usize; 16];
    let mut filled = Vec::new();
    let mut hot_score = 0u64;
    for p in &plan.plays {
        let w = &ctx.words[p.word as usize];
        filled.clear();
        g.place(layout, w, p.pos, &mut filled);
        newh[filled.len().min(15)] += 1;
        if layout
            .span(p.pos, w.len())
            .any(|c| layout.word_factor(c) > 1)
        {
            hot_score += layout.score(w, p.pos);
        }
    }
    let mut cov = [0usize; 4];
    for c in 0..layout.cells() {
        if layout.is_open(c) && layout.word_factor(c) > 1 {
            cov[(plan.grid.cover(c) as usize).min(3)] += 1;
        }
    }
    eprintln!("DIAG new-cells hist {newh:?}; score from plays on D/T {hot_score}; D/T cells by cover 0/1/2/3+ {cov:?}");
    let _ = Pos::new;
}
