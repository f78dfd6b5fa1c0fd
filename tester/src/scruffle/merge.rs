//! `tester scruffle merge`: the results files of bench shards back into the bench's table and
//! means, printed by the bench's own functions, rows in --seeds order.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::ExitCode;

use super::bench::{print_header, print_means, print_row, Plan, Row};
use crate::shard::{self, Part, RunInfo, Shard};

/// A bench shard's results file.
#[derive(Serialize, Deserialize)]
pub struct BenchFile {
    pub run: RunInfo,
    pub config: Plan,
    pub rows: Vec<Row>,
}

#[derive(clap::Args)]
pub struct Args {
    /// Results files (`tester scruffle bench --shard K/N --json FILE ...`), in any order: every
    /// shard of the seeds.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the merged rows as a results file here (it merges again, as shard 1/1).
    #[arg(long, value_parser = bot::cli::args::output_file)]
    json: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    match merge(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(format!("tester scruffle merge: {e}")),
    }
}

fn merge(args: &Args) -> Result<(), String> {
    let files = shard::load::<BenchFile>(&args.files, "scruffle bench")?;
    let plan = files[0].body.config.clone();
    let seeds = &plan.seeds;
    let mut parts = Vec::new();
    for file in &files {
        let mut games = Vec::new();
        for row in &file.body.rows {
            if seeds.get(row.index) != Some(&row.seed) {
                return Err(format!(
                    "{}: a row for seed {} at position {} of --seeds, which is not the plan's",
                    file.name,
                    row.seed,
                    row.index + 1
                ));
            }
            games.push(row.index);
        }
        parts.push(Part {
            name: &file.name,
            shard: file.run.shard,
            scope: 0..seeds.len(),
            games,
        });
    }
    let describe = |i: usize| format!("seed {} (position {} of --seeds)", seeds[i], i + 1);
    let order = shard::assemble(&parts, 0..seeds.len(), |i| i, describe)?;
    let rows: Vec<Row> = order
        .iter()
        .map(|&(p, j)| files[p].body.rows[j].clone())
        .collect();
    print_header(&plan);
    for row in &rows {
        print_row(row, &plan);
    }
    print_means(&rows);
    if let Some(path) = &args.json {
        let file = BenchFile {
            run: RunInfo::new("scruffle bench", Shard::WHOLE),
            config: plan,
            rows,
        };
        shard::write(path, &file)?;
    }
    Ok(())
}
