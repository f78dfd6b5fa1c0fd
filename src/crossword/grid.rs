//! The `.cwg` file format: reading with line-numbered errors, and writing back byte-for-byte in the
//! style of the input (blocked character, line endings, final newline).

use std::fmt;

use crate::source_error::quote;

/// One grid field as read from the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Not part of the puzzle; keeps the character the file used (`-` or space).
    Blocked(u8),
    Question,
    /// A letter field not filled yet (`.`).
    Empty,
    /// A filled letter field, `b'A'..=b'Z'`.
    Letter(u8),
}

impl Cell {
    pub fn is_letter_field(self) -> bool {
        matches!(self, Cell::Empty | Cell::Letter(_))
    }

    pub fn is_blocked(self) -> bool {
        matches!(self, Cell::Blocked(_))
    }

    fn to_byte(self) -> u8 {
        match self {
            Cell::Blocked(b) => b,
            Cell::Question => b'?',
            Cell::Empty => b'.',
            Cell::Letter(b) => b,
        }
    }
}

/// One question: the field it sits in and its arrow type 0..=5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Question {
    pub row: usize,
    pub col: usize,
    pub arrow: u8,
}

/// A parsed grid, with enough of the input's style to write it back exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows * cols` fields.
    pub cells: Vec<Cell>,
    pub questions: Vec<Question>,
    pub crlf: bool,
    pub final_newline: bool,
    /// Separator written between the numbers of a question line (the first one read, else " ").
    pub question_separator: String,
}

/// Largest side accepted: far above the challenge's 40, small enough to rule out absurd headers.
pub const MAX_SIDE: usize = 1000;

/// A problem in a `.cwg` text, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for ParseError {}

fn error(line: usize, problem: impl Into<String>) -> ParseError {
    ParseError {
        line,
        problem: problem.into(),
    }
}

fn parse_side(lines: &[&str], index: usize, what: &str) -> Result<usize, ParseError> {
    let text = lines
        .get(index)
        .ok_or_else(|| error(index + 1, format!("missing the number of {what}")))?
        .trim();
    let value: usize = text.parse().map_err(|_| {
        error(
            index + 1,
            format!("expected the number of {what}, found {}", quote(text)),
        )
    })?;
    if value == 0 || value > MAX_SIDE {
        return Err(error(
            index + 1,
            format!("number of {what} must be 1..={MAX_SIDE}, found {value}"),
        ));
    }
    Ok(value)
}

impl Grid {
    /// Parse a `.cwg` text (CRLF or LF; blocked fields `-` or space; short lines padded blocked).
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let crlf = text.contains("\r\n");
        let final_newline = text.ends_with('\n');
        let body = text.strip_suffix('\n').unwrap_or(text);
        let lines: Vec<&str> = body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        let rows = parse_side(&lines, 0, "rows")?;
        let cols = parse_side(&lines, 1, "columns")?;
        let mut cells = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            let line_no = r + 3;
            let line = lines.get(r + 2).ok_or_else(|| {
                error(line_no, format!("file ends after {r} of {rows} grid lines"))
            })?;
            // Fields are characters (a `Ä` is one field, two bytes): each is checked, and named
            // when it is none of the grid's.
            let chars: Vec<char> = line.chars().collect();
            let mut row = Vec::with_capacity(cols);
            for (c, &ch) in chars.iter().enumerate() {
                let cell = match ch {
                    '?' => Cell::Question,
                    '.' => Cell::Empty,
                    'A'..='Z' => Cell::Letter(ch as u8),
                    '-' | ' ' => Cell::Blocked(ch as u8),
                    _ => {
                        return Err(error(
                            line_no,
                            format!(
                                "column {c}: unexpected character {} (expected ? . A-Z - or space)",
                                quote(ch.to_string())
                            ),
                        ))
                    }
                };
                row.push(cell);
            }
            let fields = line.trim_end_matches(' ').chars().count();
            if fields > cols {
                return Err(error(
                    line_no,
                    format!("grid line has {fields} fields, expected {cols}"),
                ));
            }
            row.resize(cols, Cell::Blocked(b' '));
            cells.extend(row);
        }
        let mut questions = Vec::new();
        let mut question_separator = None;
        for (i, line) in lines.iter().enumerate().skip(rows + 2) {
            let line_no = i + 1;
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.is_empty() {
                continue;
            }
            if fields.len() != 3 {
                return Err(error(
                    line_no,
                    format!(
                        "question line needs 'row col type', found {}",
                        quote(line.trim())
                    ),
                ));
            }
            let number = |k: usize, what: &str| -> Result<usize, ParseError> {
                fields[k].parse().map_err(|_| {
                    error(
                        line_no,
                        format!(
                            "question {what} must be a number, found {}",
                            quote(fields[k])
                        ),
                    )
                })
            };
            let (row, col, arrow) = (number(0, "row")?, number(1, "column")?, number(2, "type")?);
            if row >= rows || col >= cols {
                return Err(error(
                    line_no,
                    format!("question at ({row}, {col}) lies outside the {rows}x{cols} grid"),
                ));
            }
            if arrow > 5 {
                return Err(error(
                    line_no,
                    format!("question type must be 0..=5, found {arrow}"),
                ));
            }
            let cell = cells[row * cols + col];
            if cell != Cell::Question {
                return Err(error(
                    line_no,
                    format!(
                        "question at ({row}, {col}) but that field is '{}', not '?'",
                        cell.to_byte() as char
                    ),
                ));
            }
            if question_separator.is_none() {
                let start = line.find(fields[0]).unwrap_or(0) + fields[0].len();
                let rest = &line[start..];
                let sep_len = rest.len() - rest.trim_start().len();
                question_separator = Some(rest[..sep_len].to_string());
            }
            questions.push(Question {
                row,
                col,
                arrow: arrow as u8,
            });
        }
        Ok(Grid {
            rows,
            cols,
            cells,
            questions,
            crlf,
            final_newline,
            question_separator: question_separator.unwrap_or_else(|| " ".to_string()),
        })
    }

    /// Write the grid in the style it was read in.
    pub fn to_text(&self) -> String {
        let eol = if self.crlf { "\r\n" } else { "\n" };
        let mut lines = vec![self.rows.to_string(), self.cols.to_string()];
        for r in 0..self.rows {
            let row = &self.cells[r * self.cols..(r + 1) * self.cols];
            lines.push(row.iter().map(|c| c.to_byte() as char).collect());
        }
        let sep = &self.question_separator;
        for q in &self.questions {
            lines.push(format!("{}{sep}{}{sep}{}", q.row, q.col, q.arrow));
        }
        let mut text = lines.join(eol);
        if self.final_newline {
            text.push_str(eol);
        }
        text
    }

    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    pub fn cell(&self, row: usize, col: usize) -> Cell {
        self.cells[row * self.cols + col]
    }

    /// The cell at a signed position, `None` outside the grid.
    pub fn cell_at(&self, row: isize, col: isize) -> Option<Cell> {
        if row < 0 || col < 0 || row as usize >= self.rows || col as usize >= self.cols {
            None
        } else {
            Some(self.cell(row as usize, col as usize))
        }
    }

    /// True when every letter field holds a letter.
    pub fn is_filled(&self) -> bool {
        !self.cells.contains(&Cell::Empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIT: &str = "../shared/data/crossword";

    fn kit_files(folder: &str) -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(format!("{KIT}/{folder}"))
            .expect("challenge kit beside the checkout")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cwg"))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn all_test_cases_and_examples_round_trip_byte_for_byte() {
        let mut count = 0;
        for folder in ["test_cases", "test_cases_original_crlf", "example_grids"] {
            for path in kit_files(folder) {
                let text = std::fs::read_to_string(&path).unwrap();
                let grid = Grid::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
                assert_eq!(grid.to_text(), text, "{path:?}");
                count += 1;
            }
        }
        assert_eq!(count, 11 + 11 + 4);
    }

    #[test]
    fn crlf_originals_equal_the_lf_copies() {
        for path in kit_files("test_cases_original_crlf") {
            let crlf = Grid::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let name = path.file_name().unwrap();
            let lf_path = std::path::Path::new(KIT).join("test_cases").join(name);
            let lf = Grid::parse(&std::fs::read_to_string(lf_path).unwrap()).unwrap();
            assert!(crlf.crlf && !lf.crlf);
            assert_eq!(crlf.cells, lf.cells, "{name:?}");
            assert_eq!((crlf.rows, crlf.cols), (lf.rows, lf.cols));
        }
    }

    #[test]
    fn islands_keep_their_space_character() {
        let text = std::fs::read_to_string(format!("{KIT}/test_cases/island_1.cwg")).unwrap();
        let grid = Grid::parse(&text).unwrap();
        assert_eq!(grid.cell(7, 6), Cell::Blocked(b' '));
        assert_eq!(grid.cell(7, 5), Cell::Empty);
        let blocked = grid.cells.iter().filter(|c| c.is_blocked()).count();
        assert_eq!(blocked, 6 * 10);
    }

    #[test]
    fn reads_dashes_tabs_short_lines_and_question_lines() {
        let grid = Grid::parse("3\n4\n?AB-\n?C\n....\n0\t0\t3\n1 0   3\n").unwrap();
        assert_eq!(grid.cell(0, 3), Cell::Blocked(b'-'));
        assert_eq!(grid.cell(1, 2), Cell::Blocked(b' '));
        assert_eq!(grid.cell(1, 3), Cell::Blocked(b' '));
        assert_eq!(grid.questions.len(), 2);
        assert_eq!(grid.questions[1].arrow, 3);
        assert_eq!(grid.question_separator, "\t");
        assert!(grid.final_newline && !grid.crlf);
    }

    #[test]
    fn broken_files_give_line_numbered_errors() {
        let cases = [
            ("", 1, "number of rows"),
            ("x\n3\n", 1, "found \"x\""),
            ("2\n0\n", 2, "must be 1..="),
            ("2\n2\n..\n", 4, "ends after 1 of 2"),
            ("2\n2\n..\n.x\n", 4, "unexpected character \"x\""),
            ("2\n2\n...\n..\n", 3, "3 fields, expected 2"),
            // A field is a character, not a byte, and a character that is no field is named.
            (
                "3\n3\n?.?\n?\u{c4}.\n?..\n",
                4,
                "column 1: unexpected character \"\u{c4}\"",
            ),
            (
                "2\n2\n..\n.\u{e9}.\n",
                4,
                "column 1: unexpected character \"\u{e9}\"",
            ),
            (
                "2\n2\n..\n.\u{1f600}\n",
                4,
                "column 1: unexpected character",
            ),
            ("2\n2\n?.\n..\n0 0\n", 5, "'row col type'"),
            ("2\n2\n?.\n..\n0 a 3\n", 5, "column must be a number"),
            ("2\n2\n?.\n..\n0 0 6\n", 5, "type must be 0..=5"),
            ("2\n2\n?.\n..\n2 0 3\n", 5, "outside the 2x2 grid"),
            ("2\n2\n?.\n..\n0 1 3\n", 5, "not '?'"),
        ];
        for (text, line, needle) in cases {
            let e = Grid::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
    }
}
