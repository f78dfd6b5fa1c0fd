//! Reading the two input files: the board (rows of `#`, `0`-`9`, `D`, `T`) and the word list (one
//! word per line; the line order gives the indices, duplicates allowed). Every problem is reported
//! with the file, the 1-based line and what is wrong.

use crate::source_error::{read_text, SourceError};
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

/// The meaningful lines of a file: CR stripped, trailing blank lines dropped. A blank line before
/// the last non-blank one is an error (it would silently shift word indices or board rows).
fn content_lines<'a>(text: &'a str, source: &str) -> Result<Vec<&'a str>, SourceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Err(SourceError::new(source, 0, "file is empty"));
    }
    if let Some(i) = lines.iter().position(|l| l.trim().is_empty()) {
        return Err(SourceError::new(
            source,
            i + 1,
            "blank line inside the file",
        ));
    }
    Ok(lines)
}

impl Board {
    /// Parse board text; `source` names the file in errors.
    pub fn parse(text: &str, source: &str) -> Result<Board, SourceError> {
        let lines = content_lines(text, source)?;
        let width = lines[0].trim().len();
        let mut cells = Vec::with_capacity(width * lines.len());
        for (i, line) in lines.iter().enumerate() {
            let row = line.trim();
            for (x, ch) in row.chars().enumerate() {
                let cell = match ch {
                    '#' => Cell::Obstacle,
                    '0'..='9' => Cell::Letter(ch as u8 - b'0'),
                    'D' => Cell::Double,
                    'T' => Cell::Triple,
                    _ => {
                        return Err(SourceError::new(
                            source,
                            i + 1,
                            format!(
                                "column {}: unexpected character {ch:?} (expected #, 0-9, D or T)",
                                x + 1
                            ),
                        ))
                    }
                };
                cells.push(cell);
            }
            if row.len() != width {
                return Err(SourceError::new(
                    source,
                    i + 1,
                    format!("row has {} cells, the first row has {width}", row.len()),
                ));
            }
        }
        Ok(Board {
            width,
            height: lines.len(),
            cells,
        })
    }

    pub fn read(path: &Path) -> Result<Board, SourceError> {
        Board::parse(&read_text(path)?, &path.display().to_string())
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
    let lines = content_lines(text, source)?;
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let word = line.trim();
            if word.bytes().all(|b| b.is_ascii_alphabetic()) {
                Ok(word.to_ascii_uppercase().into_bytes())
            } else {
                Err(SourceError::new(
                    source,
                    i + 1,
                    format!("{word:?} is not one word of letters A-Z"),
                ))
            }
        })
        .collect()
}

pub fn read_words(path: &Path) -> Result<Vec<Vec<u8>>, SourceError> {
    parse_words(&read_text(path)?, &path.display().to_string())
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
}
