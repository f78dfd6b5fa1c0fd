//! Word-list loading: any whitespace separates words, CRLF and case are normalised, entries with
//! characters outside A-Z are rejected and reported (never silently kept).

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

/// The embedded default English list (SCOWL via Debian `wamerican`; see `data/words/README.md`).
pub const ENGLISH_TEXT: &str = include_str!("../../data/words/english.txt");

/// A normalised word list: upper-case A-Z words of 1+ letters, in input order, duplicates kept
/// (some puzzles index words by position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordList {
    pub words: Vec<String>,
}

/// An entry that was not a word of letters A-Z, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub line: usize,
    pub entry: String,
}

#[derive(Debug)]
pub enum WordsError {
    Read(crate::source_error::SourceError),
    Empty { source: String },
}

impl fmt::Display for WordsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WordsError::Read(e) => write!(f, "{e} (word list)"),
            WordsError::Empty { source } => write!(f, "{source}: word list has no valid words"),
        }
    }
}

impl std::error::Error for WordsError {}

/// Split `text` on any whitespace, upper-case each entry, keep the A-Z ones and report the rest
/// with their 1-based line numbers. A leading UTF-8 BOM is ignored.
pub fn parse_words(text: &str) -> (WordList, Vec<Rejected>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut words = Vec::new();
    let mut rejected = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for entry in line.split_whitespace() {
            let upper = entry.to_ascii_uppercase();
            if upper.bytes().all(|b| b.is_ascii_uppercase()) {
                words.push(upper);
            } else {
                rejected.push(Rejected {
                    line: line_no + 1,
                    entry: entry.to_string(),
                });
            }
        }
    }
    (WordList { words }, rejected)
}

/// Read and parse a word file; an unreadable file or one with no valid word is an error.
pub fn read_words(path: &Path) -> Result<(WordList, Vec<Rejected>), WordsError> {
    let bytes = crate::source_error::read_bytes(path).map_err(WordsError::Read)?;
    let text = String::from_utf8_lossy(&bytes);
    let (list, rejected) = parse_words(&text);
    if list.words.is_empty() {
        return Err(WordsError::Empty {
            source: path.display().to_string(),
        });
    }
    Ok((list, rejected))
}

/// Strict loading failed: the file could not be loaded, or it holds an entry that is not a word
/// of letters A-Z (the first one is named with its line).
#[derive(Debug)]
pub enum StrictWordsError {
    Load(WordsError),
    Rejected {
        source: String,
        line: usize,
        entry: String,
    },
}

impl fmt::Display for StrictWordsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictWordsError::Load(e) => e.fmt(f),
            StrictWordsError::Rejected {
                source,
                line,
                entry,
            } => write!(
                f,
                "{source}:{line}: not a word of letters A-Z: {}",
                crate::source_error::quote(entry)
            ),
        }
    }
}

impl std::error::Error for StrictWordsError {}

/// Strict mode of `read_words`: any rejected entry is an error instead of a report.
pub fn read_words_strict(path: &Path) -> Result<WordList, StrictWordsError> {
    let (list, rejected) = read_words(path).map_err(StrictWordsError::Load)?;
    match rejected.into_iter().next() {
        None => Ok(list),
        Some(r) => Err(StrictWordsError::Rejected {
            source: path.display().to_string(),
            line: r.line,
            entry: r.entry,
        }),
    }
}

/// The embedded English list, parsed once.
pub fn english() -> &'static WordList {
    static LIST: OnceLock<WordList> = OnceLock::new();
    LIST.get_or_init(|| parse_words(ENGLISH_TEXT).0)
}

impl WordList {
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Sorted, deduplicated copy (for set-like uses).
    pub fn deduplicated(&self) -> WordList {
        let mut words = self.words.clone();
        words.sort_unstable();
        words.dedup();
        WordList { words }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_case_whitespace_crlf_and_bom() {
        let (list, rejected) = parse_words("\u{feff}house\r\nTree  mouse\tcat\r\n\r\n");
        assert_eq!(list.words, ["HOUSE", "TREE", "MOUSE", "CAT"]);
        assert!(rejected.is_empty());
    }

    #[test]
    fn reports_non_letter_entries_with_line_numbers() {
        let (list, rejected) = parse_words("ok\ndon't\nfine x-ray\nüber\n");
        assert_eq!(list.words, ["OK", "FINE"]);
        let lines: Vec<_> = rejected
            .iter()
            .map(|r| (r.line, r.entry.as_str()))
            .collect();
        assert_eq!(lines, [(2, "don't"), (3, "x-ray"), (4, "über")]);
    }

    #[test]
    fn embedded_english_list_is_clean_and_large() {
        let (list, rejected) = parse_words(ENGLISH_TEXT);
        assert!(rejected.is_empty());
        assert!(list.len() > 60_000, "{}", list.len());
        assert!(list.words.iter().all(|w| w.len() >= 2));
        assert!(
            list.words.windows(2).all(|p| p[0] < p[1]),
            "sorted and unique"
        );
        assert!(list.words.iter().any(|w| w == "HOUSE"));
    }

    #[test]
    fn strict_mode_rejects_what_report_mode_skips() {
        let path = std::env::temp_dir().join(format!("bot-words-strict-{}", std::process::id()));
        std::fs::write(&path, "good\r\nwords here\nbad-one\n").unwrap();
        let (list, rejected) = read_words(&path).unwrap();
        let strict = read_words_strict(&path).unwrap_err();
        std::fs::write(&path, "all\nclean\n").unwrap();
        let clean = read_words_strict(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(list.words, ["GOOD", "WORDS", "HERE"]);
        assert_eq!(rejected.len(), 1);
        let message = strict.to_string();
        assert!(
            message.ends_with(":3: not a word of letters A-Z: \"bad-one\""),
            "{message}"
        );
        assert_eq!(clean.words, ["ALL", "CLEAN"]);
        assert!(matches!(
            read_words_strict(Path::new("/nonexistent/w")),
            Err(StrictWordsError::Load(_))
        ));
    }

    #[test]
    fn missing_and_empty_files_are_errors() {
        let missing = read_words(Path::new("/nonexistent/words.txt")).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/words.txt"));
        let dir = std::env::temp_dir().join(format!("bot-words-empty-{}", std::process::id()));
        std::fs::write(&dir, "123 4-5\n").unwrap();
        let empty = read_words(&dir).unwrap_err();
        std::fs::remove_file(&dir).ok();
        assert!(matches!(empty, WordsError::Empty { .. }));
    }
}
