use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::crossword::fill::WordIndex;
use crate::crossword::generate::{fill_layout_with, generate, layout_problem, GenerateOptions};
use crate::crossword::grid::{Cell, Grid};
use crate::crossword::rate::{rate, Rating, SCORE_NAMES};
use crate::crossword::svg;
use crate::source_error::quote;

use super::args::{integer_in, output_file, same_file, seconds};

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the six scores, the mean, the bonus flag and every rule violation of a grid.
    Rate {
        /// The grid to rate (`.cwg`).
        file: PathBuf,
        /// Dictionary (one word a line); default: the embedded English list.
        #[arg(long)]
        words: Option<PathBuf>,
        /// Also draw the grid as an SVG picture.
        #[arg(long, value_parser = output_file)]
        svg: Option<PathBuf>,
    },
    /// Fill the layout a grid already has (its questions as given) with dictionary words.
    Fill {
        /// The grid whose layout is filled (`.cwg`, questions in place).
        input: PathBuf,
        /// Write the filled grid here (with --runs, the last one filled).
        #[arg(short, long, value_parser = output_file)]
        output: Option<PathBuf>,
        /// Dictionary (one word a line); default: the embedded English list.
        #[arg(long)]
        words: Option<PathBuf>,
        /// Time budget per run, in seconds (more than 0, at most a day).
        #[arg(long, default_value = "60", value_parser = seconds)]
        seconds: Duration,
        /// First seed; with --runs N, seeds S..S+N-1 are each filled and timed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fill this many seeds in turn and print the median time (1 to 10000).
        #[arg(long, default_value_t = 1, value_parser = runs)]
        runs: u64,
    },
    /// Lay out and fill a grid (or every .cwg of a folder with --out-dir).
    Generate {
        /// An input .cwg, or a folder of them (then --out-dir is required).
        input: PathBuf,
        /// Output file for a single grid (its folder must exist).
        #[arg(short, long, value_parser = output_file)]
        output: Option<PathBuf>,
        /// Output folder for batch mode (same file names as the inputs).
        #[arg(long)]
        out_dir: Option<PathBuf>,
        /// Dictionary (one word a line); default: the embedded English list.
        #[arg(long)]
        words: Option<PathBuf>,
        /// Time budget per grid, in seconds (more than 0, at most a day).
        #[arg(long, default_value = "60", value_parser = seconds)]
        seconds: Duration,
        /// Stop at the first completely filled valid grid instead of using the whole budget.
        #[arg(long)]
        first: bool,
        /// Seed of the layout search and the fill (a batch gives grid k the seed S+k).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cool the layout search by move count only: the same seed gives the same grid whatever
        /// the machine's load (the budget is then only a hard stop).
        #[arg(long)]
        reproducible: bool,
        /// Also draw the result as an SVG picture (single grid; batch mode writes NAME.svg).
        #[arg(long, value_parser = output_file)]
        svg: Option<PathBuf>,
    },
}

/// Most runs of `crossword fill --runs` (each may take the whole budget).
const MAX_RUNS: u64 = 10_000;

fn runs(text: &str) -> Result<u64, String> {
    integer_in(text, 1, MAX_RUNS)
}

fn load_grid(path: &Path) -> Result<Grid, String> {
    let text = crate::source_error::read_text(path).map_err(|e| e.to_string())?;
    Grid::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn load_words(path: Option<&Path>) -> Result<Vec<String>, String> {
    match path {
        // The embedded list is already sorted and deduplicated (`embedded_english_list_is_clean_and_large`).
        None => Ok(crate::words::english().words.clone()),
        Some(p) => {
            let (list, rejected) = crate::words::read_words(p).map_err(|e| e.to_string())?;
            if let Some(r) = rejected.first() {
                eprintln!(
                    "warning: {}: {} entries skipped (not A-Z), first {} on line {}",
                    p.display(),
                    rejected.len(),
                    quote(&r.entry),
                    r.line
                );
            }
            Ok(list.deduplicated().words)
        }
    }
}

fn print_rating(name: &str, grid: &Grid, r: &Rating) {
    println!("{name}: {}x{}", grid.rows, grid.cols);
    let c = &r.counts;
    println!(
        "  counts: {} unblocked, {} questions ({} double), {} letters, {} uncrossed, {} dead, {} words, clusters {:?}",
        c.unblocked,
        c.questions,
        c.doubles,
        c.letters,
        c.uncrossed,
        c.dead,
        c.histogram.iter().sum::<usize>(),
        {
            let mut big: Vec<_> = c.clusters.iter().filter(|&&s| s >= 3).collect();
            big.sort();
            big
        }
    );
    println!("  word lengths 2..9+: {:?}", c.histogram);
    for (name, score) in SCORE_NAMES.iter().zip(r.scores.as_array()) {
        println!("  {name:<10} {score:6.1}");
    }
    println!("  mean       {:6.1}", r.mean());
    println!(
        "  filled: {}, bonus (+10%): {}, violations: {}",
        if r.filled { "yes" } else { "no" },
        if r.bonus() { "yes" } else { "no" },
        r.violations.len()
    );
    for v in &r.violations {
        println!("  violation: {v}");
    }
}

fn write_svg(path: &Path, grid: &Grid) -> Result<(), String> {
    super::output::write(path, svg::render(grid))
}

pub fn run(args: Args) -> ExitCode {
    match run_inner(args) {
        Ok(code) => code,
        Err(message) => super::fail(message),
    }
}

fn run_inner(args: Args) -> Result<ExitCode, String> {
    match args.command {
        Command::Rate { file, words, svg } => {
            let grid = load_grid(&file)?;
            let dict: std::collections::HashSet<String> =
                load_words(words.as_deref())?.into_iter().collect();
            let r = rate(&grid, Some(&dict));
            print_rating(&file.display().to_string(), &grid, &r);
            if let Some(path) = svg {
                write_svg(&path, &grid)?;
            }
            Ok(if r.violations.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Fill {
            input,
            output,
            words,
            seconds,
            seed,
            runs,
        } => {
            let seeds = super::args::seed_range(seed, runs, "--runs")?;
            if let Some(out) = output.as_ref().filter(|out| same_file(out, &input)) {
                return Err(format!(
                    "{}: writing it would replace the input {}; give another output file",
                    out.display(),
                    input.display()
                ));
            }
            let grid = load_grid(&input)?;
            if let Some(problem) = layout_problem(&grid) {
                return Err(format!("{}: not filled: {problem}", input.display()));
            }
            let words = load_words(words.as_deref())?;
            let index = WordIndex::new(&words);
            let dict: std::collections::HashSet<String> = words.iter().cloned().collect();
            let mut times = Vec::new();
            let mut filled_count = 0;
            for s in seeds {
                let started = std::time::Instant::now();
                let deadline = started + seconds;
                let fill = fill_layout_with(&grid, &index, s, deadline)?;
                let (filled, restarts, nodes) = (fill.grid, fill.restarts, fill.nodes);
                let elapsed = started.elapsed().as_secs_f64();
                times.push(elapsed);
                let rating = filled.as_ref().map(|g| rate(g, Some(&dict)));
                let valid = rating.as_ref().is_some_and(Rating::bonus);
                filled_count += valid as usize;
                let outcome = match (&rating, fill.time_up) {
                    (Some(r), _) if r.bonus() => "filled, valid".to_string(),
                    // Every slot got a distinct dictionary word, yet the rating refuses the grid.
                    (Some(r), _) => format!(
                        "NOT filled: the fill breaks a rule ({})",
                        r.violations.first().map_or("incomplete", String::as_str)
                    ),
                    (None, true) => "NOT filled: time up".to_string(),
                    (None, false) => "NOT filled: the search ran out of candidates".to_string(),
                };
                println!(
                    "seed {s}: {outcome} in {elapsed:.2} s, {restarts} restarts, {nodes} nodes"
                );
                if let (Some(g), Some(out)) = (&filled, &output) {
                    super::output::write(out, g.to_text())?;
                }
            }
            times.sort_by(f64::total_cmp);
            println!(
                "filled {filled_count}/{}, median {:.2} s (unfilled runs count as {} s)",
                times.len(),
                times[times.len() / 2],
                seconds.as_secs_f64()
            );
            Ok(if filled_count == times.len() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Generate {
            input,
            output,
            out_dir,
            words,
            seconds,
            first,
            seed,
            reproducible,
            svg,
        } => {
            let words = load_words(words.as_deref())?;
            let batch = input.is_dir();
            let jobs: Vec<(PathBuf, PathBuf)> = if batch {
                let dir = out_dir.ok_or("a folder input needs --out-dir")?;
                std::fs::create_dir_all(&dir)
                    .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
                super::output::check_folder(&dir).map_err(|e| format!("--out-dir: {e}"))?;
                let mut files: Vec<PathBuf> = std::fs::read_dir(&input)
                    .map_err(|e| format!("{}: cannot read folder: {e}", input.display()))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "cwg"))
                    .collect();
                files.sort();
                if files.is_empty() {
                    return Err(format!("{}: no .cwg files in this folder", input.display()));
                }
                files
                    .into_iter()
                    .map(|p| {
                        let out = dir.join(p.file_name().unwrap());
                        (p, out)
                    })
                    .collect()
            } else {
                let out = output.ok_or("a single input needs -o OUT.cwg")?;
                vec![(input, out)]
            };
            super::args::seed_range(seed, jobs.len() as u64, "a batch of")?;
            // Every output writable, and none replaces an input (`--out-dir` the input folder, `-o`
            // the input), before any search.
            for (_, out) in &jobs {
                let svg_out = if batch {
                    Some(out.with_extension("svg"))
                } else {
                    svg.clone()
                };
                for written in std::iter::once(out).chain(svg_out.as_ref()) {
                    super::output::check(written)?;
                    if let Some((input, _)) = jobs.iter().find(|(i, _)| same_file(i, written)) {
                        return Err(format!(
                            "{}: writing it would replace the input {}; give another output folder or file",
                            written.display(),
                            input.display()
                        ));
                    }
                }
            }
            // Every input read before any search, so a broken file fails at once.
            let grids = jobs
                .iter()
                .map(|(inp, _)| load_grid(inp))
                .collect::<Result<Vec<Grid>, String>>()?;
            let mut all_valid = true;
            let mut summary = Vec::new();
            let mut means = Vec::new();
            println!(
                "seed {seed}, {} s per grid, {} dictionary words",
                seconds.as_secs_f64(),
                words.len()
            );
            for (k, ((inp, out), grid)) in jobs.iter().zip(&grids).enumerate() {
                let prefilled = grid
                    .cells
                    .iter()
                    .filter(|c| matches!(c, Cell::Question | Cell::Letter(_)))
                    .count();
                if prefilled > 0 {
                    eprintln!(
                        "warning: {}: {prefilled} question/letter fields in the input are laid out anew",
                        inp.display()
                    );
                }
                // Each grid of a batch gets its own seed, so equal-sized grids differ.
                let grid_seed = seed + k as u64; // within `seed_range`, checked above
                println!("{}: seed {grid_seed}", inp.display());
                let options = GenerateOptions {
                    seed: grid_seed,
                    budget: seconds,
                    stop_at_first: first,
                    verbose: true,
                    reproducible,
                };
                let started = std::time::Instant::now();
                let result = generate(grid, &words, &options)
                    .map_err(|e| format!("{}: {e}", inp.display()))?;
                let elapsed = started.elapsed().as_secs_f64();
                super::output::write(out, result.to_text())?;
                let dict: std::collections::HashSet<String> = words.iter().cloned().collect();
                let r = rate(&result, Some(&dict));
                print_rating(&out.display().to_string(), &result, &r);
                println!("  time {elapsed:.1} s");
                all_valid &= r.bonus();
                let name = out.file_name().unwrap_or_default().to_string_lossy();
                let sc = r.scores.as_array().map(|x| format!("{x:.1}")).join(" | ");
                summary.push(format!(
                    "| {name} | {grid_seed} | {sc} | {:.2} | {elapsed:.1} | {} |",
                    r.mean(),
                    if r.bonus() {
                        "filled, valid"
                    } else if r.filled {
                        "INVALID"
                    } else {
                        "not filled"
                    }
                ));
                means.push(r.mean());
                if batch {
                    write_svg(&out.with_extension("svg"), &result)?;
                } else if let Some(path) = &svg {
                    write_svg(path, &result)?;
                }
            }
            if batch {
                println!();
                println!(
                    "| grid | seed | {} | mean | time s | result |",
                    SCORE_NAMES.join(" | ")
                );
                println!("|---|---|---|---|---|---|---|---|---|---|---|");
                for line in &summary {
                    println!("{line}");
                }
                let avg = means.iter().sum::<f64>() / means.len().max(1) as f64;
                println!("mean of {} grids: {avg:.2}", means.len());
            }
            Ok(if all_valid {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
