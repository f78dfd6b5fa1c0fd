//! `bot honey`: best move(s) for a level; `bot bench honey`: load and solve timings.

use crate::honey::board::Board;
use crate::honey::explain::{explain, render};
use crate::honey::{solve, Layout, Level, Link, Rules};
use crate::words::{english, read_words, read_words_strict, LetterValues, Trie, WordList};
use clap::Parser;
use std::borrow::Cow;
use std::io::Write;
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
    /// Hex grid geometry: odd rows shifted right, even rows shifted right, or a rhombus.
    #[arg(long, value_enum, default_value_t = Layout::OddR)]
    layout: Layout,
    /// How a word joins the board: `extend` = one board letter or a whole existing word on its
    /// line; `single` = exactly one board letter.
    #[arg(long, value_enum, default_value_t = Link::Extend)]
    link: Link,
    /// Whether bonuses and mines under the board letters a word reuses count again.
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
/// The default is the embedded list itself, borrowed rather than copied.
pub fn load_vocabulary(
    path: Option<&Path>,
    strict: bool,
) -> Result<Cow<'static, WordList>, String> {
    let Some(path) = path else {
        return Ok(Cow::Borrowed(english()));
    };
    if strict {
        return read_words_strict(path)
            .map(Cow::Owned)
            .map_err(|e| e.to_string());
    }
    let (list, rejected) = read_words(path).map_err(|e| e.to_string())?;
    if let Some(first) = rejected.first() {
        eprintln!(
            "warning: {}:{}: not a word of letters A-Z: {} ({} such entries skipped)",
            path.display(),
            first.line,
            crate::source_error::quote(&first.entry),
            rejected.len()
        );
    }
    Ok(Cow::Owned(list))
}

pub fn run(args: Args) -> ExitCode {
    match run_inner(&args, &mut std::io::stdout().lock()) {
        Ok(code) => code,
        Err(e) => super::fail(e),
    }
}

/// Solve the level and write the answers to `stdout`.
fn run_inner(args: &Args, stdout: &mut dyn Write) -> Result<ExitCode, String> {
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
            "no legal move for {} with hand {} ({rules})",
            files.letters.display(),
            crate::source_error::quote(level.hand_text().trim())
        ));
    }
    let board = Board::new(&level, rules);
    let mut out = String::new();
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
        out.push_str(&serde_json::Value::Array(items).to_string());
        out.push('\n');
    } else {
        for m in &moves {
            out.push_str(&m.answer());
            out.push('\n');
            if args.explain {
                out.push_str(&render(&explain(&board, &values, m)));
            }
        }
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    match stdout.write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Bench caps: far above the defaults, low enough that no value runs out of memory or runs for
/// days (the bench's vocabulary of `MAX_VOCAB` pseudo-words builds a trie of about 2.4 million
/// nodes, 250 MB).
const MAX_LEVELS: u64 = 10_000;
const MAX_VOCAB: u64 = 1_000_000;
const MAX_LOAD_RUNS: u64 = 1_000;
/// A bigger hand makes the every-move baseline list most placements of most words.
const MAX_HAND: u64 = 30;

fn levels(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 1, MAX_LEVELS).map(|n| n as usize)
}

fn side(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 4, crate::honey::level::MAX_SIDE as u64).map(|n| n as usize)
}

fn vocab(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 1, MAX_VOCAB).map(|n| n as usize)
}

fn load_runs(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 1, MAX_LOAD_RUNS).map(|n| n as usize)
}

fn hand_size(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 1, MAX_HAND).map(|n| n as usize)
}

#[derive(Parser)]
pub struct BenchArgs {
    /// Levels to solve (1 to 10000).
    #[arg(long, default_value_t = 20, value_parser = levels)]
    levels: usize,
    /// Grid size, size x size (4 to 256, the largest level side read).
    #[arg(long, default_value_t = 20, value_parser = side)]
    size: usize,
    /// Vocabulary size: the embedded list topped up with seeded pseudo-words (1 to 1000000;
    /// below the embedded list's size, the whole list).
    #[arg(long, default_value_t = 100_000, value_parser = vocab)]
    vocab: usize,
    /// Seed for the pseudo-words and the levels.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Load the default list this many times, median reported (1 to 1000).
    #[arg(long, default_value_t = 7, value_parser = load_runs)]
    load_runs: usize,
    /// Tiles in the hand to solve with (1 to 30).
    #[arg(long, default_value_t = 7, value_parser = hand_size)]
    hand_size: usize,
}

pub fn bench(args: BenchArgs) -> ExitCode {
    crate::honey::bench::run(
        args.levels,
        args.size,
        args.vocab,
        args.seed,
        args.load_runs,
        args.hand_size,
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory holding a level `t` with the given files.
    fn level_dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bot-honey-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (suffix, text) in files {
            std::fs::write(dir.join(format!("t_{suffix}.txt")), text).unwrap();
        }
        dir
    }

    fn args(dir: &Path, extra: &[&str]) -> Args {
        let mut argv = vec!["honey", "--dir", dir.to_str().unwrap(), "--id", "t"];
        argv.extend_from_slice(extra);
        Args::parse_from(argv)
    }

    const HOUSE: [(&str, &str); 5] = [
        ("letters", "H - - - - -\n"),
        ("bonuses", "- dl dw - - -\n"),
        ("hand", "OUSE\n"),
        ("values", "H 2\nO 1\nU 3\nS 1\nE 1\n"),
        ("words", "house\r\nhose\n"),
    ];

    #[test]
    fn level_files_in_dir_are_found_and_solved() {
        let dir = level_dir("ok", &HOUSE);
        let mut out = Vec::new();
        let result = run_inner(&args(&dir, &["--top", "2"]), &mut out);
        std::fs::remove_dir_all(&dir).ok();
        assert!(result.is_ok());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "HOUSE_00_right_16\nHOSE_00_right_11\n"
        );
    }

    #[test]
    fn bad_input_is_a_clear_error() {
        let mut files = HOUSE;
        files[1] = ("bonuses", "- dl dw - -\n");
        let dir = level_dir("shape", &files);
        let shape = run_inner(&args(&dir, &[]), &mut Vec::new()).unwrap_err();
        files[1] = HOUSE[1];
        files[3] = ("values", "H 2\nO one\n");
        let dir2 = level_dir("values", &files);
        let values = run_inner(&args(&dir2, &[]), &mut Vec::new()).unwrap_err();
        files[3] = HOUSE[3];
        files[4] = ("words", "house\nho-se\n");
        let dir3 = level_dir("words", &files);
        let strict = run_inner(&args(&dir3, &["--strict-words"]), &mut Vec::new()).unwrap_err();
        let lenient = run_inner(&args(&dir3, &[]), &mut Vec::new());
        files[2] = ("hand", "XYZ\n");
        let dir4 = level_dir("nomove", &files);
        let no_move = run_inner(&args(&dir4, &[]), &mut Vec::new()).unwrap_err();
        let missing =
            run_inner(&args(Path::new("/nonexistent"), &[]), &mut Vec::new()).unwrap_err();
        for d in [dir, dir2, dir3, dir4] {
            std::fs::remove_dir_all(d).ok();
        }
        assert!(
            shape.contains("t_bonuses.txt") && shape.contains("5x1"),
            "{shape}"
        );
        assert!(values.contains("t_values.txt:2:"), "{values}");
        assert!(
            strict.contains("t_words.txt:2:") && strict.contains("ho-se"),
            "{strict}"
        );
        assert!(lenient.is_ok());
        assert!(no_move.starts_with("no legal move"), "{no_move}");
        assert!(missing.contains("/nonexistent/t_letters.txt"), "{missing}");
    }
}
