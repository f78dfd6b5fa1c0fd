//! `tester scruffle gen|score|bench`: case generator, independent scorer, solver-vs-baseline bench.

mod bench;
mod check;
mod gen;
mod merge;
mod page;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write `scruffle-S.board` and `scruffle-S.words` for seed S.
    Gen {
        /// Case seed: the same seed (and sizes) always gives the same case.
        #[arg(long)]
        seed: u64,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = ".")]
        out: PathBuf,
        #[command(flatten)]
        sizes: SizeArgs,
    },
    /// Validate a placement file against every rule and print its score.
    Score {
        /// Board file: rows of `#`, `0`-`9`, `D`, `T`.
        #[arg(long)]
        board: PathBuf,
        /// Word list: one word per line, the line order gives the indices.
        #[arg(long)]
        words: PathBuf,
        /// Placements in play order, one `H|V index x y` per line (the solver's output).
        #[arg(long)]
        placements: PathBuf,
        /// Also write the plan as one self-contained page: the board's multipliers and
        /// obstacles, the placements in play order under a slider, each one's score, the running
        /// total and the cells it adds and crosses (written only for a valid plan).
        #[arg(long, value_parser = bot::cli::args::output_file)]
        html: Option<PathBuf>,
    },
    /// Solver and naive greedy on generated cases, bounds, and a table.
    Bench(bench::Args),
    /// Merge the results files of bench shards (`bench --shard K/N --json FILE`) into the table
    /// and means of the whole seed list.
    Merge(merge::Args),
}

/// Narrower case sizes than the statement's (each `N` or `A-B`, drawn uniformly).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SizeArgs {
    /// Board width, or a range like `10-15` (1 to 1000; default: the statement's 10-100).
    #[arg(long, value_parser = gen::side_range)]
    width: Option<std::ops::RangeInclusive<usize>>,
    /// Board height, or a range (1 to 1000; default 10-100).
    #[arg(long, value_parser = gen::side_range)]
    height: Option<std::ops::RangeInclusive<usize>>,
    /// Number of words, or a range (1 to 100,000; default 10-10000).
    #[arg(long, value_parser = gen::words_range)]
    words: Option<std::ops::RangeInclusive<usize>>,
}

impl SizeArgs {
    pub fn sizes(&self) -> gen::Sizes {
        gen::Sizes::with(self.width.clone(), self.height.clone(), self.words.clone())
    }
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        Command::Gen { seed, out, sizes } => generate(seed, &sizes.sizes(), &out),
        Command::Score {
            board,
            words,
            placements,
            html,
        } => score(&board, &words, &placements, html.as_deref()),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
    }
}

fn generate(seed: u64, sizes: &gen::Sizes, out: &Path) -> ExitCode {
    let board = out.join(format!("scruffle-{seed}.board"));
    let words = out.join(format!("scruffle-{seed}.words"));
    if let Err(e) = [&board, &words]
        .into_iter()
        .try_for_each(|path| bot::cli::output::check(path))
    {
        return crate::fail(e);
    }
    let case = gen::generate_sized(seed, sizes);
    for (path, text) in [(&board, &case.board), (&words, &case.words)] {
        if let Err(e) = bot::cli::output::write(path, text) {
            return crate::fail(e);
        }
    }
    println!(
        "seed {seed}: {}x{} board, {} words -> {} {}",
        case.width,
        case.height,
        case.word_count,
        board.display(),
        words.display()
    );
    ExitCode::SUCCESS
}

fn score(board: &Path, words: &Path, placements: &Path, html: Option<&Path>) -> ExitCode {
    let claimed =
        match crate::process::outputs::claim(&[("--html", html)], &[board, words, placements]) {
            Ok(c) => c,
            Err(e) => return crate::fail(format!("tester scruffle score: {e}")),
        };
    let read = |p: &Path| bot::scruffle::input::read_capped(p).map_err(|e| e.to_string());
    let texts = match (read(board), read(words), read(placements)) {
        (Ok(b), Ok(w), Ok(p)) => (b, w, p),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return crate::fail(e),
    };
    let name = |p: &Path| p.display().to_string();
    let names = [name(board), name(words), name(placements)];
    // The steps are kept only for the page.
    let mut steps = Vec::new();
    let verdict = check::check_each(
        (&names[0], &texts.0),
        (&names[1], &texts.1),
        (&names[2], &texts.2),
        |step| {
            if html.is_some() {
                steps.push(step)
            }
        },
    );
    match verdict {
        Ok(v) => {
            println!(
                "valid: score {} with {} placements, {} new cells, {} crossed",
                v.score, v.placements, v.new_cells, v.crossed_cells
            );
            if let Some(path) = html {
                let names = [names[0].as_str(), &names[1], &names[2]];
                let text = page::render(names, &texts.0, &texts.1, &steps, &v);
                if let Err(e) = std::fs::write(path, text) {
                    return crate::fail(format!("--html {}: {e}", path.display()));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            claimed.discard();
            crate::fail(format!("invalid: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bench::parse_seeds;
    use super::check::{check, Verdict};
    use bot::scruffle::solver::Budget;
    use bot::scruffle::Placement;
    use bot::scruffle::{input, Case};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A small case in file form: random board text and words from the English list.
    fn small_case_text(seed: u64) -> (String, String) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (w, h) = (rng.random_range(4..=16), rng.random_range(4..=16));
        let board: String = (0..h)
            .map(|_| {
                let row: String = (0..w)
                    .map(|_| match rng.random_range(0..25) {
                        0..=2 => '#',
                        3 => 'D',
                        4 => 'T',
                        _ => (b'0' + rng.random_range(0..=9u8)) as char,
                    })
                    .collect();
                row + "\n"
            })
            .collect();
        let list = &bot::words::english().words;
        let words: String = (0..rng.random_range(3..=400))
            .map(|_| list[rng.random_range(0..list.len())].clone() + "\n")
            .collect();
        (board, words)
    }

    /// A seeded small case: its board and word files, and the case the solver parses from them.
    struct Files {
        board: String,
        words: String,
        case: Case,
    }

    impl Files {
        fn new(seed: u64) -> Files {
            let (board, words) = small_case_text(seed);
            let parsed = input::Board::parse(&board, "board").unwrap();
            let list = input::parse_words(&words, "words").unwrap();
            let case = Case::new(&parsed, list);
            Files { board, words, case }
        }

        /// The independent checker's verdict on `plays`, written as the solver writes them.
        fn check(&self, label: &str, plays: &[Placement]) -> Result<Verdict, String> {
            check(
                ("board", self.board.as_bytes()),
                ("words", self.words.as_bytes()),
                (label, self.case.format(plays).as_bytes()),
            )
        }
    }

    #[test]
    fn solver_and_baseline_outputs_pass_the_independent_checker() {
        for seed in 0..30 {
            let files = Files::new(seed);
            let case = &files.case;
            let solution = case.solve(seed, Budget::work(60));
            let verdict = files
                .check("solver", &solution.plays)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(verdict.score, solution.score.into(), "seed {seed}");
            assert_eq!(verdict.placements, solution.plays.len());
            let baseline = files.check("baseline", &case.baseline());
            assert!(baseline.is_ok(), "seed {seed}: {baseline:?}");
        }
    }

    #[test]
    fn solver_and_checker_agree_on_totals_beyond_machine_integers() {
        // Triple cells everywhere and long words: each play is worth up to about 5e50, so the
        // totals pass u64 and u128. The checker must call the plan valid and both must agree.
        let board = ("T".repeat(100) + "\n").repeat(100);
        let words: String = (0..12).map(|k| "QZ".repeat(50 - k) + "\n").collect();
        let parsed = input::Board::parse(&board, "board").unwrap();
        let list = input::parse_words(&words, "words").unwrap();
        let files = Files {
            board,
            words,
            case: Case::new(&parsed, list),
        };
        let solution = files.case.solve(1, Budget::work(20));
        assert!(solution.plays.len() > 2);
        let verdict = files
            .check("solver", &solution.plays)
            .unwrap_or_else(|e| panic!("a valid plan called invalid: {e}"));
        let total = files.case.total(&solution.plays);
        assert_eq!(verdict.score, total);
        assert!(total > num_bigint::BigUint::from(u128::MAX));
    }

    #[test]
    fn hub_plans_pass_the_independent_checker() {
        use bot::scruffle::hub::best_hub_plan;
        use bot::scruffle::plan::{Context, Plan};
        let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
        for seed in 0..20 {
            let files = Files::new(100 + seed);
            let case = &files.case;
            let ctx = Context::new(&case.layout, &case.words, &case.table);
            // Price the hubs from a greedy opening, as the solver does.
            let reference = Plan::from_plays(&ctx, &case.solve(seed, Budget::work(0)).plays);
            let hub = best_hub_plan(&ctx, &reference, 10.0, seed, far).expect("runs");
            let verdict = files
                .check("hub", &hub.plays)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(verdict.score, hub.score.into(), "seed {seed}");
        }
    }

    #[test]
    fn region_refills_pass_the_independent_checker() {
        use bot::scruffle::linefill::LineFill;
        use bot::scruffle::plan::{Context, Plan};
        use bot::scruffle::region::{refill_window, Window, LETTER_PRICE};
        let mut gained = 0;
        for seed in 0..20 {
            let files = Files::new(200 + seed);
            let case = &files.case;
            let ctx = Context::new(&case.layout, &case.words, &case.table);
            let mut plan = Plan::from_plays(&ctx, &case.solve(seed, Budget::work(0)).plays);
            // A window of up to 5x5 cells, cleared and refilled line by line, crossing-priced.
            let (w, h) = (case.layout.width, case.layout.height);
            let (x0, y0) = ((seed as usize * 7) % w, (seed as usize * 5) % h);
            let window = Window {
                x0,
                x1: (x0 + 4).min(w - 1),
                y0,
                y1: (y0 + 4).min(h - 1),
            };
            window.clear(&ctx, &mut plan, &mut Vec::new(), &mut Vec::new());
            let mut fill = LineFill::new(&ctx);
            let gain = refill_window(&ctx, &mut plan, &mut fill, &window, LETTER_PRICE);
            gained += (gain > 0) as usize;
            let verdict = files
                .check("region", &plan.plays)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(verdict.score, plan.score.into(), "seed {seed}");
        }
        assert!(gained > 5, "refills should usually add plays: {gained}");
    }

    #[test]
    fn seed_lists_and_ranges() {
        assert_eq!(parse_seeds("1-3,7").unwrap(), [1, 2, 3, 7]);
        assert_eq!(parse_seeds(" 5 ").unwrap(), [5]);
        assert!(parse_seeds("3-1").is_err());
        assert!(parse_seeds("x").unwrap_err().contains("\"x\""));
        assert!(parse_seeds("").is_err());
        // The cap counts every range, listed or not, before anything is stored.
        assert_eq!(parse_seeds("0-999999").unwrap().len(), 1_000_000);
        let many = vec!["0-999999"; 600].join(",");
        assert!(parse_seeds(&many)
            .unwrap_err()
            .contains("more than 1000000 seeds"));
        assert!(parse_seeds("0-999999,5").is_err());
        assert!(parse_seeds("0-18446744073709551615").is_err());
    }

    #[test]
    fn bench_counts_are_clap_errors() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(subcommand)]
            command: super::Command,
        }
        let parse = |extra: &[&str]| {
            let args = ["t", "bench"].iter().chain(extra);
            Cli::try_parse_from(args).map(|_| ())
        };
        assert!(parse(&["--seeds", "1-3"]).is_ok());
        for bad in [
            &["--seeds", &vec!["0-999999"; 600].join(",")][..],
            &["--u4-sweeps", "18446744073709551615"],
            &["--u4-sweeps", "100001"],
            &["--work", "100000001"],
            &["--words", "0"],
            &["--width", "1001"],
        ] {
            let e = parse(bad)
                .err()
                .unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert_eq!(e.exit_code(), 2, "{bad:?}: {e}");
        }
    }
}
