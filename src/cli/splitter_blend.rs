//! `bot train splitter-blend`: one weight file whose value is (1 - share) x a table's value +
//! share x a larger value's (`learned::blend`), e.g. layout 1's group table and its network.

use crate::splitter::learned::blend::blend;
use crate::splitter::learned::file::layout_text;
use crate::splitter::learned::file::WeightFile;
use crate::splitter::learned::value::read_weight_file;
use crate::splitter::learned::LearnedValue;
use crate::splitter::official;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
pub struct BlendArgs {
    /// Official layout 1 or 2.
    #[arg(long)]
    layout: u8,
    /// The table-only value (feature set groups-v1 or groups-v1+pairs).
    #[arg(long)]
    table: PathBuf,
    /// The value blended in (the same entries or more, and maybe a network).
    #[arg(long)]
    with: PathBuf,
    /// Weight of `--with` in the blend (0..1).
    #[arg(long, default_value_t = 0.5)]
    share: f32,
    /// Write the blended weights here (without training state: a blend cannot be resumed).
    #[arg(short = 'o', long = "out", value_parser = super::args::output_file)]
    out: PathBuf,
}

pub fn run(args: BlendArgs) -> ExitCode {
    if args.layout != 1 && args.layout != 2 {
        return super::fail(format!("--layout {}: expected 1 or 2", args.layout));
    }
    if !(0.0..=1.0).contains(&args.share) {
        return super::fail(format!("--share {}: the share must be in 0..1", args.share));
    }
    let layout = official(args.layout);
    let load = |flag: &str, path: &PathBuf| {
        let file = read_weight_file(path, &layout).map_err(|e| format!("{flag} {e}"))?;
        let value =
            LearnedValue::from_file(&layout, &file).expect("official layouts fit in 64 cells");
        Ok::<_, String>((file, value))
    };
    let loaded = load("--table", &args.table).and_then(|t| Ok((t, load("--with", &args.with)?)));
    let ((_, table), (with_file, with)) = match loaded {
        Ok(both) => both,
        Err(e) => return super::fail(e),
    };
    let mixed = match blend(&table, &with, args.share) {
        Ok(v) => v,
        Err(e) => return super::fail(format!("--table {}: {e}", args.table.display())),
    };
    // The header keeps the blended-in value's training record (the recipe is in the docs).
    let file = WeightFile {
        layout: layout_text(&layout),
        features: mixed.features.set.name(),
        weights: mixed.weights,
        coherence: None,
        ..with_file
    };
    if let Err(e) = super::output::write(&args.out, file.to_bytes()) {
        return super::fail(format!("-o: {e}"));
    }
    // The table's share printed as the user would write it (0.2, not f32's 0.19999999).
    let rest = ((1.0 - args.share as f64) * 1e6).round() / 1e6;
    println!(
        "blend splitter: layout {}, {rest} x {} + {} x {} -> {}",
        args.layout,
        args.table.display(),
        args.share,
        args.with.display(),
        args.out.display()
    );
    ExitCode::SUCCESS
}
