//! How fast a page the project writes opens in headless Chromium, and a picture of it:
//!
//!     cargo run --release -p tester --example page_load -- [--runs N] FILE...
//!     cargo run --release -p tester --example page_load -- FILE --js 'CODE' --shot OUT.png \
//!         [--region X,Y,WIDTH,HEIGHT]
//!
//! For each file: its size, then per run the time from navigation to the load event and to the
//! second frame painted after it (what a reader waits for), the median of the runs, and any
//! console error, exception or request the page made. `--js` runs script in the page after the
//! last load (e.g. a click), `--shot` saves the viewport as PNG (for the docs). Exit 1 on any
//! problem.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use test_support::browser::Browser;

#[derive(Parser)]
struct Args {
    /// Pages to open.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Loads per page (each a fresh navigation).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Script to run in the (last) page before the screenshot.
    #[arg(long)]
    js: Option<String>,
    /// Save a screenshot of the (last) page here.
    #[arg(long)]
    shot: Option<PathBuf>,
    /// Only this region of the viewport in the screenshot: X,Y,WIDTH,HEIGHT (CSS pixels).
    #[arg(long, value_parser = region)]
    region: Option<[f64; 4]>,
}

fn region(text: &str) -> Result<[f64; 4], String> {
    let numbers: Vec<f64> = text
        .split(',')
        .map(|n| {
            n.trim()
                .parse::<f64>()
                .map_err(|_| format!("{n:?} is not a number"))
        })
        .collect::<Result<_, _>>()?;
    numbers
        .try_into()
        .map_err(|_| "expected X,Y,WIDTH,HEIGHT".to_string())
}

/// Milliseconds from navigation to two frames painted after the load event.
const PAINTED: &str =
    "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))";

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut browser = match Browser::launch() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = false;
    for file in &args.files {
        let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        let (mut loads, mut painted) = (Vec::new(), Vec::new());
        for _ in 0..args.runs.max(1) {
            let measured = browser.open(file).and_then(|_| {
                let load = browser.load_ms()?;
                let paint = browser.eval(PAINTED)?.as_f64().unwrap_or(f64::NAN);
                Ok((load, paint))
            });
            match measured {
                Ok((load, paint)) => {
                    loads.push(load);
                    painted.push(paint);
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            }
        }
        let problems = browser.problems();
        println!(
            "{}: {:.1} MB; load event {:.0} ms, painted {:.0} ms (median of {}; loads {})",
            file.display(),
            bytes as f64 / 1e6,
            median(loads.clone()),
            median(painted),
            loads.len(),
            loads
                .iter()
                .map(|l| format!("{l:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for p in &problems {
            println!("  problem: {p}");
        }
        failed |= !problems.is_empty();
    }
    if let Some(js) = &args.js {
        if let Err(e) = browser.eval(js) {
            eprintln!("error: --js: {e}");
            return ExitCode::FAILURE;
        }
        // Let the page draw what the script changed.
        let _ = browser.eval(PAINTED);
    }
    if let Some(path) = &args.shot {
        if let Err(e) = browser.screenshot_region(path, args.region) {
            eprintln!("error: --shot: {e}");
            return ExitCode::FAILURE;
        }
        println!("screenshot: {}", path.display());
    }
    for p in browser.problems() {
        println!("  problem: {p}");
        failed = true;
    }
    match failed {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}
