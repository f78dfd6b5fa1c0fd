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
    let inputs: Vec<&std::path::Path> = args.files.iter().map(PathBuf::as_path).collect();
    let _json = crate::process::outputs::claim(&[("--json", args.json.as_deref())], &inputs)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scruffle::check::Verdict;
    use crate::shard::hostile::{merge_files, refused_cleanly};
    use test_support::fuzz::config;
    use test_support::proptest::prelude::*;

    fn plan() -> Plan {
        Plan {
            seeds_text: "3,1-4".into(),
            seeds: vec![3, 1, 2, 3, 4],
            seconds: 0.5,
            work: None,
            solver_seed: 1,
            u4_sweeps: 3,
            exact: 0.0,
            exact_nodes: None,
            sizes: crate::scruffle::gen::Sizes::statement(),
            phase_seconds: Some(10.0),
        }
    }

    fn shard_files(count: usize) -> Vec<serde_json::Value> {
        let plan = plan();
        (1..=count)
            .map(|index| {
                let shard = Shard { index, count };
                let rows: Vec<Row> = (0..plan.seeds.len())
                    .filter(|&i| shard.holds(i))
                    .map(|i| Row {
                        index: i,
                        seed: plan.seeds[i],
                        width: 10,
                        height: 12,
                        words: 40,
                        baseline: 900u32.into(),
                        u2: 5000,
                        u3: 4000,
                        u4: Some(3000),
                        u4_sweeps: Some(3),
                        bounds_cut: false,
                        exact: None,
                        verdict: Verdict {
                            score: (1000 + i as u32).into(),
                            placements: 10,
                            new_cells: 30,
                            crossed_cells: 5,
                        },
                        lns_iterations: 7,
                        seconds: 0.25 + i as f64 / 4.0,
                    })
                    .collect();
                serde_json::json!({
                    "run": RunInfo::new("scruffle bench", shard),
                    "config": plan,
                    "rows": rows,
                })
            })
            .collect()
    }

    fn merge_these(files: &[serde_json::Value], tag: &str) -> Result<(), String> {
        merge_files(files, tag, |paths| {
            merge(&Args {
                files: paths,
                json: None,
            })
        })
    }

    #[test]
    fn shards_merge_even_with_a_seed_listed_twice() {
        assert_eq!(merge_these(&shard_files(2), "good"), Ok(()));
        let mut files = shard_files(2);
        files[1]["rows"][0]["seed"] = 4.into();
        let e = merge_these(&files, "bad").unwrap_err();
        assert!(
            e.contains("a row for seed 4 at position 2 of --seeds"),
            "{e}"
        );
    }

    proptest! {
        #![proptest_config(config("scruffle merge: damaged results files"))]
        #[test]
        fn damaged_results_files_are_refused_in_one_line_or_merged(
            file in 0usize..3,
            damages in prop::collection::vec((any::<u64>(), any::<u8>()), 1..4),
        ) {
            let checked = refused_cleanly(shard_files(3), file, &damages, |f| merge_these(f, "fuzz"));
            prop_assert!(checked.is_ok(), "{checked:?}");
        }
    }
}
