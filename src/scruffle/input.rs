//! Reading the two input files: the board (rows of `#`, `0`-`9`, `D`, `T`) and the word list (one
//! word per line; the line order gives the indices, duplicates allowed). Every problem is reported
//! with the file, the 1-based line and what is wrong.

use crate::source_error::{quote, SourceError};
use std::path::Path;

/// One board cell as written in the board file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Obstacle,
    /// Letter multiplier 0-9.
    Letter(u8),
    /// Double word (letter x1).
    Double,
    /// Triple word (letter x1).
    Triple,
}

/// A rectangular board, row-major: cell (x, y) is `cells[y * width + x]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
}

/// Largest input file read (the statement's largest case is about 100 KB).
pub const MAX_FILE_BYTES: u64 = 2 << 20;
/// Largest board side (the statement's boards are 10..100).
pub const MAX_SIDE: usize = 1000;
/// Most list entries (the statement's lists have 10..10000).
pub const MAX_WORDS: usize = 100_000;

/// The meaningful lines of a file: a BOM and CRs stripped, trailing blank lines dropped. A blank
/// line before the last non-blank one is an error (it would silently shift word indices or board
/// rows). Lines are bytes: each parser says what it expects in them.
fn content_lines<'a>(text: &'a [u8], source: &str) -> Result<Vec<&'a [u8]>, SourceError> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    while lines.last().is_some_and(|l| l.trim_ascii().is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Err(SourceError::new(source, 0, "file is empty"));
    }
    if let Some(i) = lines.iter().position(|l| l.trim_ascii().is_empty()) {
        return Err(SourceError::new(
            source,
            i + 1,
            "blank line inside the file",
        ));
    }
    Ok(lines)
}

/// Read a whole input file as bytes, refusing files above `MAX_FILE_BYTES`.
pub fn read_capped(path: &Path) -> Result<Vec<u8>, SourceError> {
    crate::source_error::read_bytes_capped(path, MAX_FILE_BYTES)
}

impl Board {
    /// Parse board text; `source` names the file in errors.
    pub fn parse(text: &str, source: &str) -> Result<Board, SourceError> {
        Board::parse_bytes(text.as_bytes(), source)
    }

    /// Parse a board file's bytes (any bytes: every problem is an error naming the line).
    pub fn parse_bytes(text: &[u8], source: &str) -> Result<Board, SourceError> {
        let lines = content_lines(text, source)?;
        if lines.len() > MAX_SIDE {
            return Err(SourceError::new(
                source,
                MAX_SIDE + 1,
                format!("more than {MAX_SIDE} rows"),
            ));
        }
        let width = lines[0].trim_ascii().len();
        let mut cells = Vec::with_capacity(width.min(MAX_SIDE) * lines.len());
        for (i, line) in lines.iter().enumerate() {
            let row = line.trim_ascii();
            let at = |problem: String| SourceError::new(source, i + 1, problem);
            for (x, &b) in row.iter().enumerate() {
                let cell = match b {
                    b'#' => Cell::Obstacle,
                    b'0'..=b'9' => Cell::Letter(b - b'0'),
                    b'D' => Cell::Double,
                    b'T' => Cell::Triple,
                    _ => {
                        // Quote the whole character (it may be several bytes) or the bad byte.
                        let rest = &row[x..];
                        let len = rest
                            .utf8_chunks()
                            .next()
                            .map_or(1, |c| c.valid().chars().next().map_or(1, char::len_utf8));
                        return Err(at(format!(
                            "column {}: unexpected character {} (expected #, 0-9, D or T)",
                            x + 1,
                            quote(&rest[..len])
                        )));
                    }
                };
                cells.push(cell);
            }
            if row.len() != width {
                return Err(at(format!(
                    "row has {} cells, the first row has {width}",
                    row.len()
                )));
            }
            if width > MAX_SIDE {
                return Err(at(format!("row has more than {MAX_SIDE} cells")));
            }
        }
        Ok(Board {
            width,
            height: lines.len(),
            cells,
        })
    }

    pub fn read(path: &Path) -> Result<Board, SourceError> {
        Board::parse_bytes(&read_capped(path)?, &path.display().to_string())
    }

    pub fn cell(&self, x: usize, y: usize) -> Cell {
        self.cells[y * self.width + x]
    }

    /// The board in its file format.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.width + 1) * self.height);
        for row in self.cells.chunks(self.width) {
            for cell in row {
                out.push(match cell {
                    Cell::Obstacle => '#',
                    Cell::Letter(m) => (b'0' + m) as char,
                    Cell::Double => 'D',
                    Cell::Triple => 'T',
                });
            }
            out.push('\n');
        }
        out
    }
}

/// Parse a word list: one word of letters A-Z per line (case is normalised), in index order.
pub fn parse_words(text: &str, source: &str) -> Result<Vec<Vec<u8>>, SourceError> {
    parse_words_bytes(text.as_bytes(), source)
}

/// Parse a word list file's bytes (any bytes: every problem is an error naming the line).
pub fn parse_words_bytes(text: &[u8], source: &str) -> Result<Vec<Vec<u8>>, SourceError> {
    let lines = content_lines(text, source)?;
    if lines.len() > MAX_WORDS {
        return Err(SourceError::new(
            source,
            MAX_WORDS + 1,
            format!("more than {MAX_WORDS} words"),
        ));
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let word = line.trim_ascii();
            if word.iter().all(|b| b.is_ascii_alphabetic()) {
                Ok(word.to_ascii_uppercase())
            } else {
                Err(SourceError::new(
                    source,
                    i + 1,
                    format!("{} is not one word of letters A-Z", quote(word)),
                ))
            }
        })
        .collect()
}

pub fn read_words(path: &Path) -> Result<Vec<Vec<u8>>, SourceError> {
    parse_words_bytes(&read_capped(path)?, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_cell_kinds_and_crlf() {
        let b = Board::parse("#0D\r\n9T1\r\n\r\n", "b").unwrap();
        assert_eq!((b.width, b.height), (3, 2));
        assert_eq!(b.cell(0, 0), Cell::Obstacle);
        assert_eq!(b.cell(1, 0), Cell::Letter(0));
        assert_eq!(b.cell(2, 0), Cell::Double);
        assert_eq!(b.cell(0, 1), Cell::Letter(9));
        assert_eq!(b.cell(1, 1), Cell::Triple);
        assert_eq!(b.to_text(), "#0D\n9T1\n");
    }

    #[test]
    fn board_errors_name_file_line_and_problem() {
        let e = Board::parse("123\n1x3\n", "b.txt").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("b.txt:2: column 2"), "{e}");
        let e = Board::parse("123\n12\n", "b.txt").unwrap_err();
        assert!(e.to_string().contains("row has 2 cells"), "{e}");
        let e = Board::parse("\n\n", "b.txt").unwrap_err();
        assert_eq!(e.to_string(), "b.txt: file is empty");
        let e = Board::parse("12\n\n12\n", "b.txt").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn words_keep_order_and_duplicates() {
        let w = parse_words("cat\nDOG\ncat\n\n", "w").unwrap();
        assert_eq!(w, vec![b"CAT".to_vec(), b"DOG".to_vec(), b"CAT".to_vec()]);
    }

    #[test]
    fn word_errors_name_line() {
        let e = parse_words("cat\ndon't\n", "w.txt").unwrap_err();
        assert!(e.to_string().starts_with("w.txt:2: \"don't\""), "{e}");
        let e = parse_words("two words\n", "w.txt").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_words("a\n\nb\n", "w.txt").unwrap_err();
        assert_eq!(e.line, 2);
        let e = read_words(Path::new("/nonexistent/w.txt")).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/w.txt: cannot read"));
    }

    #[test]
    fn bad_bytes_and_oversized_inputs_are_errors_with_a_line() {
        let e = parse_words_bytes(b"cat\nd\xFFg\n", "w").unwrap_err();
        assert_eq!(
            e.to_string(),
            "w:2: \"d\\xffg\" is not one word of letters A-Z"
        );
        let e = Board::parse_bytes("12\n1é\n".as_bytes(), "b").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("b:2: column 2: unexpected character \"é\""),
            "{e}"
        );
        let e = Board::parse_bytes(b"12\n1\x80\n", "b").unwrap_err();
        assert!(e.to_string().contains("character \"\\x80\""), "{e}");
        let tall = "1\n".repeat(MAX_SIDE + 1);
        let e = Board::parse(&tall, "b").unwrap_err();
        assert_eq!(
            (e.line, e.problem.as_str()),
            (MAX_SIDE + 1, "more than 1000 rows")
        );
        let wide = "1".repeat(MAX_SIDE + 1);
        assert!(Board::parse(&wide, "b")
            .unwrap_err()
            .problem
            .contains("more than 1000 cells"));
        let e = parse_words(&"x".repeat(1000), "w").unwrap();
        assert_eq!(
            e[0].len(),
            1000,
            "long words are read (they just never fit)"
        );
    }
}
