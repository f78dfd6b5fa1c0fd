//! Line-DP searches over whole rows and columns: a construction that fills every line in turn
//! with its best string given the letters already placed, and a region repair for the LNS.

use super::layout::Segment;
use super::linefill::{FillPrices, LineFill};
use super::plan::{Context, Plan};
use std::time::Instant;

/// Experiment knobs from `SCRUFFLE_FILL=name=value,...` (development only).
pub fn knob(name: &str, default: f64) -> f64 {
    std::env::var("SCRUFFLE_FILL")
        .ok()
        .and_then(|v| {
            v.split(',').find_map(|kv| {
                kv.strip_prefix(name)
                    .and_then(|x| x.strip_prefix('='))
                    .and_then(|x| x.parse().ok())
            })
        })
        .unwrap_or(default)
}

/// How hot a segment is: the product of its word factors (capped), times its length.
fn heat(ctx: &Context, seg: &Segment) -> f64 {
    let mut f = 1.0f64;
    let mut m = 0.0;
    for c in seg.cells(ctx.layout) {
        f = (f * ctx.layout.word_factor(c) as f64).min(1e6);
        m += ctx.layout.letter_mult(c) as f64;
    }
    f * m
}

/// Fill every segment in turn (rows and columns interleaved by heat), `passes` times.
pub fn construct(
    ctx: &Context,
    fill: &mut LineFill,
    prices: FillPrices,
    passes: usize,
    deadline: Instant,
) -> Plan {
    let mut plan = Plan::empty(ctx);
    let mut segments = ctx.layout.segments();
    segments.retain(|s| s.len >= 2);
    segments.sort_by(|a, b| heat(ctx, b).total_cmp(&heat(ctx, a)));
    for _ in 0..passes {
        for seg in &segments {
            if Instant::now() >= deadline {
                return plan;
            }
            fill.fill(ctx, &mut plan, *seg, prices);
        }
    }
    plan
}
