//! `bot honey`: best move(s) for a level; `bot bench honey`: load and solve timings.

use crate::honey::board::Board;
use crate::honey::explain::{explain, render};
use crate::honey::{solve, Layout, Level, Link, Rules};
use crate::words::{english, read_words, LetterValues, Trie, WordList};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(Parser)]
pub struct Args {
    /// Directory holding `<ID>_letters.txt`, `<ID>_bonuses.txt`, `<ID>_hand.txt` (and optionally
    /// `<ID>_words.txt`, `<ID>_values.txt`, used when --words / --values are not given).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Level id within --dir.
    #[arg(long)]
    id: Option<String>,
    /// Letters grid file (overrides --dir/--id).
    #[arg(long)]
    letters: Option<PathBuf>,
    /// Bonuses grid file (overrides --dir/--id).
    #[arg(long)]
    bonuses: Option<PathBuf>,
    /// Hand file (overrides --dir/--id).
    #[arg(long)]
    hand: Option<PathBuf>,
    /// Vocabulary (whitespace-separated words); default: the embedded English list.
    #[arg(long)]
    words: Option<PathBuf>,
    /// Reject a vocabulary with any non A-Z entry instead of skipping and reporting it.
    #[arg(long)]
    strict_words: bool,
    /// Letter values (`<LETTER> <int>` lines); default: standard English Scrabble values.
    #[arg(long)]
    values: Option<PathBuf>,
    /// Print the N best moves in answer (tie) order.
    #[arg(long, default_value_t = 1)]
    top: usize,
    /// Show each move's path, portal jumps and running score.
    #[arg(long)]
    explain: bool,
    /// Print JSON instead of answer lines.
    #[arg(long)]
    json: bool,
    #[arg(long, value_enum, default_value_t = Layout::OddR)]
    layout: Layout,
    #[arg(long, value_enum, default_value_t = Link::Extend)]
    link: Link,
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    bonus_on_existing: OnOff,
}

/// The files of a level, from --dir/--id and the explicit paths.
struct LevelFiles {
    letters: PathBuf,
    bonuses: PathBuf,
    hand: PathBuf,
    words: Option<PathBuf>,
    values: Option<PathBuf>,
}

fn level_files(args: &Args) -> Result<LevelFiles, String> {
    let in_dir = |suffix: &str| -> Option<PathBuf> {
        match (&args.dir, &args.id) {
            (Some(d), Some(id)) => Some(d.join(format!("{id}_{suffix}.txt"))),
            _ => None,
        }
    };
    if args.dir.is_some() != args.id.is_some() {
        return Err("--dir and --id go together".into());
    }
    let need = |explicit: &Option<PathBuf>, suffix: &str| {
        explicit
            .clone()
            .or_else(|| in_dir(suffix))
            .ok_or_else(|| format!("no {suffix} file: give --dir and --id, or --{suffix}"))
    };
    let optional = |explicit: &Option<PathBuf>, suffix: &str| {
        explicit
            .clone()
            .or_else(|| in_dir(suffix).filter(|p| p.is_file()))
    };
    Ok(LevelFiles {
        letters: need(&args.letters, "letters")?,
        bonuses: need(&args.bonuses, "bonuses")?,
        hand: need(&args.hand, "hand")?,
        words: optional(&args.words, "words"),
        values: optional(&args.values, "values"),
    })
}

/// Load a vocabulary: rejected entries are an error in strict mode, else skipped and reported.
pub fn load_vocabulary(path: Option<&Path>, strict: bool) -> Result<WordList, String> {
    let Some(path) = path else {
        return Ok(english().clone());
    };
    let (list, rejected) = read_words(path).map_err(|e| e.to_string())?;
    if let Some(first) = rejected.first() {
        let what = format!(
            "{}:{}: not a word of letters A-Z: {:?}",
            path.display(),
            first.line,
            first.entry
        );
        if strict {
            return Err(what);
        }
        eprintln!("warning: {what} ({} such entries skipped)", rejected.len());
    }
    Ok(list)
}

pub fn run(args: Args) -> ExitCode {
    match run_inner(&args) {
        Ok(code) => code,
        Err(e) => super::fail(e),
    }
}

fn run_inner(args: &Args) -> Result<ExitCode, String> {
    let files = level_files(args)?;
    let level =
        Level::read(&files.letters, &files.bonuses, &files.hand).map_err(|e| e.to_string())?;
    let values = match &files.values {
        Some(p) => LetterValues::read(p).map_err(|e| e.to_string())?,
        None => LetterValues::scrabble_english(),
    };
    let vocabulary = load_vocabulary(files.words.as_deref(), args.strict_words)?;
    let trie = Trie::from_words(vocabulary.words.iter().map(|s| s.as_str()));
    let rules = Rules {
        layout: args.layout,
        link: args.link,
        bonus_on_existing: args.bonus_on_existing == OnOff::On,
    };
    let moves = solve(&level, rules, &trie, &values, args.top.max(1));
    if moves.is_empty() {
        return Err(format!(
            "no legal move for {} with hand {:?} ({rules})",
            files.letters.display(),
            level.hand_text().trim()
        ));
    }
    let board = Board::new(&level, rules);
    if args.json {
        let items: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                let mut v = serde_json::to_value(m).expect("plain data");
                v["answer"] = m.answer().into();
                if args.explain {
                    v["steps"] =
                        serde_json::to_value(explain(&board, &values, m)).expect("plain data");
                }
                v
            })
            .collect();
        println!("{}", serde_json::Value::Array(items));
    } else {
        for m in &moves {
            println!("{}", m.answer());
            if args.explain {
                print!("{}", render(&explain(&board, &values, m)));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Parser)]
pub struct BenchArgs {
    /// Levels to solve.
    #[arg(long, default_value_t = 20)]
    levels: usize,
    /// Grid size (size x size).
    #[arg(long, default_value_t = 20)]
    size: usize,
    /// Vocabulary size: the embedded list topped up with seeded pseudo-words.
    #[arg(long, default_value_t = 100_000)]
    vocab: usize,
    /// Seed for the pseudo-words and the levels.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Load the default list this many times (median reported).
    #[arg(long, default_value_t = 7)]
    load_runs: usize,
}

pub fn bench(args: BenchArgs) -> ExitCode {
    crate::honey::bench::run(
        args.levels,
        args.size,
        args.vocab,
        args.seed,
        args.load_runs,
    );
    ExitCode::SUCCESS
}
