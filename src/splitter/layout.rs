//! Board layouts: a W x H grid of cell codes (0 = not fillable, 1 = field, 2 = star, 3 = heart),
//! with the mirror map and neighbour lists precomputed once.

use std::fmt;

pub const BLOCKED: u8 = 0;
pub const FIELD: u8 = 1;
pub const STAR: u8 = 2;
pub const HEART: u8 = 3;

/// Largest board side we accept; the official boards are 8 x 7, this only guards against absurd headers.
pub const MAX_SIDE: usize = 64;

/// A parse problem, with the 1-based line it was found on (0 when not tied to a line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "{}", self.message)
        }
    }
}

impl std::error::Error for LayoutError {}

fn err(line: usize, message: impl Into<String>) -> LayoutError {
    LayoutError {
        line,
        message: message.into(),
    }
}

/// A checked layout. Cells are indexed `y * width + x`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    width: usize,
    height: usize,
    codes: Vec<u8>,
    mirror: Vec<usize>,
    neighbours: Vec<Vec<usize>>,
    fillable: Vec<usize>,
    hearts: Vec<usize>,
}

impl Layout {
    /// Build from rows of codes (row y = 0 first). Rows must all have the same non-zero length.
    pub fn new(rows: &[Vec<u8>]) -> Result<Layout, LayoutError> {
        let height = rows.len();
        if height == 0 || height > MAX_SIDE {
            return Err(err(
                0,
                format!("layout height {height} is not in 1..={MAX_SIDE}"),
            ));
        }
        let width = rows[0].len();
        if width == 0 || width > MAX_SIDE {
            return Err(err(
                0,
                format!("layout width {width} is not in 1..={MAX_SIDE}"),
            ));
        }
        let mut codes = Vec::with_capacity(width * height);
        for (y, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(err(
                    0,
                    format!("layout row {y} has {} cells, expected {width}", row.len()),
                ));
            }
            for (x, &c) in row.iter().enumerate() {
                if c > HEART {
                    return Err(err(
                        0,
                        format!("layout cell ({x},{y}) has code {c}, expected 0..=3"),
                    ));
                }
                codes.push(c);
            }
        }
        // A fillable cell whose mirror is blocked could never be placed legally: reject the grid.
        for y in 0..height {
            for x in 0..width {
                let a = codes[y * width + x] != BLOCKED;
                let b = codes[y * width + width - 1 - x] != BLOCKED;
                if a != b {
                    return Err(err(
                        0,
                        format!("layout cell ({x},{y}) is fillable but its mirror is not (or the reverse)"),
                    ));
                }
            }
        }
        let mirror = (0..width * height)
            .map(|i| (i / width) * width + (width - 1 - i % width))
            .collect();
        let neighbours = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                let mut n = Vec::with_capacity(4);
                if x > 0 {
                    n.push(i - 1);
                }
                if x + 1 < width {
                    n.push(i + 1);
                }
                if y > 0 {
                    n.push(i - width);
                }
                if y + 1 < height {
                    n.push(i + width);
                }
                n.retain(|&j| codes[j] != BLOCKED);
                n
            })
            .collect();
        let fillable = (0..width * height)
            .filter(|&i| codes[i] != BLOCKED)
            .collect();
        let hearts = (0..width * height).filter(|&i| codes[i] == HEART).collect();
        Ok(Layout {
            width,
            height,
            codes,
            mirror,
            neighbours,
            fillable,
            hearts,
        })
    }

    /// Parse rows of space-separated codes; blank lines and `#` comments are skipped.
    /// `first_line` is the 1-based line number of `text`'s first line, for error messages.
    pub fn parse_rows(text: &str, first_line: usize) -> Result<Layout, LayoutError> {
        let mut rows = Vec::new();
        let mut width = None;
        for (k, raw) in text.lines().enumerate() {
            let line_no = first_line + k;
            let line = clean_line(raw);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let row = parse_codes(line, line_no)?;
            match width {
                None => width = Some(row.len()),
                Some(w) if w != row.len() => {
                    return Err(err(
                        line_no,
                        format!("layout row has {} cells, expected {w}", row.len()),
                    ))
                }
                _ => {}
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(err(0, "no layout rows found"));
        }
        Layout::new(&rows)
    }

    /// Read a layout file (rows only, `#` comments allowed); errors name the file.
    pub fn from_file(path: &std::path::Path) -> Result<Layout, String> {
        let text = crate::source_error::read_text(path).map_err(|e| e.to_string())?;
        Layout::parse_rows(&text, 1).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn cells(&self) -> usize {
        self.codes.len()
    }
    pub fn code(&self, cell: usize) -> u8 {
        self.codes[cell]
    }
    pub fn is_fillable(&self, cell: usize) -> bool {
        self.codes[cell] != BLOCKED
    }
    pub fn is_star(&self, cell: usize) -> bool {
        self.codes[cell] == STAR
    }
    pub fn mirror(&self, cell: usize) -> usize {
        self.mirror[cell]
    }
    /// Fillable orthogonal neighbours.
    pub fn neighbours(&self, cell: usize) -> &[usize] {
        &self.neighbours[cell]
    }
    pub fn fillable(&self) -> &[usize] {
        &self.fillable
    }
    pub fn hearts(&self) -> &[usize] {
        &self.hearts
    }
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }
    pub fn xy(&self, cell: usize) -> (usize, usize) {
        (cell % self.width, cell / self.width)
    }
    /// Rounds as the reference Tester counts them: fillable cells / 2, rounded down.
    pub fn default_rounds(&self) -> usize {
        self.fillable.len() / 2
    }
    /// Rows of codes, y = 0 first.
    pub fn rows(&self) -> Vec<Vec<u8>> {
        self.codes.chunks(self.width).map(|r| r.to_vec()).collect()
    }
    /// The layout as the Tester sends it: `W H R`, then H rows.
    pub fn header_text(&self, rounds: usize) -> String {
        let mut s = format!("{} {} {}\n", self.width, self.height, rounds);
        for row in self.codes.chunks(self.width) {
            s.push_str(&join_row(row));
            s.push('\n');
        }
        s
    }
}

/// Cells of a row joined with single spaces.
pub fn join_row(row: &[u8]) -> String {
    row.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Strip a BOM, `\r` and surrounding whitespace.
pub fn clean_line(raw: &str) -> &str {
    raw.trim_start_matches('\u{feff}').trim()
}

/// One layout row of codes 0..=3; errors name the line and the bad code.
pub fn parse_codes(line: &str, line_no: usize) -> Result<Vec<u8>, LayoutError> {
    line.split_whitespace()
        .map(|t| match t.parse::<u8>() {
            Ok(c) if c <= HEART => Ok(c),
            _ => Err(err(
                line_no,
                format!(
                    "layout code {} is not 0, 1, 2 or 3",
                    crate::source_error::quote(t)
                ),
            )),
        })
        .collect()
}

/// The two official layouts, embedded (they are also read from `../shared/data/splitter/` in tests,
/// which checks these copies).
pub fn official(layout: u8) -> Layout {
    let rows: &[[u8; 8]; 7] = if layout == 1 { &GRID_A } else { &GRID_B };
    Layout::new(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>())
        .expect("official grid is valid")
}

const GRID_A: [[u8; 8]; 7] = [
    [0, 0, 1, 1, 1, 1, 0, 0],
    [0, 1, 1, 1, 1, 1, 1, 0],
    [1, 1, 1, 1, 1, 1, 1, 1],
    [2, 1, 1, 1, 1, 1, 1, 2],
    [1, 1, 1, 1, 1, 1, 1, 1],
    [0, 1, 1, 1, 1, 1, 1, 0],
    [0, 0, 1, 1, 1, 1, 0, 0],
];

const GRID_B: [[u8; 8]; 7] = [
    [1, 1, 1, 0, 0, 1, 3, 1],
    [1, 1, 1, 1, 1, 1, 1, 1],
    [0, 3, 1, 1, 1, 1, 1, 0],
    [0, 1, 1, 0, 0, 1, 1, 0],
    [0, 1, 1, 1, 3, 1, 1, 0],
    [1, 1, 1, 1, 1, 1, 1, 1],
    [1, 2, 1, 0, 0, 1, 2, 1],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn official_layouts_match_the_data_files() {
        for (n, file) in [(1, "grid_layout1_GridA.txt"), (2, "grid_layout2_GridB.txt")] {
            let path = std::path::Path::new("../shared/data/splitter").join(file);
            let from_file = Layout::from_file(&path).unwrap();
            assert_eq!(from_file, official(n), "{file}");
            assert_eq!(from_file.fillable().len(), 44);
            assert_eq!(from_file.default_rounds(), 22);
        }
        assert_eq!(official(2).hearts().len(), 3);
    }

    #[test]
    fn bad_layouts_give_line_numbered_errors() {
        let e = Layout::parse_rows("1 1\n1 x\n", 5).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(e.to_string().contains("code \"x\""), "{e}");
        let e = Layout::parse_rows("1 1\n1\n", 1).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(Layout::parse_rows("1 0\n", 1)
            .unwrap_err()
            .message
            .contains("mirror"));
        assert!(Layout::parse_rows("4 1\n", 1).is_err());
        assert!(Layout::parse_rows("# only a comment\n", 1).is_err());
    }

    #[test]
    fn mirror_and_neighbours() {
        let l = Layout::parse_rows("0 1 1 0\n1 2 3 1\n", 1).unwrap();
        assert_eq!(l.mirror(l.index(1, 0)), l.index(2, 0));
        assert_eq!(l.mirror(l.index(0, 1)), l.index(3, 1));
        let mut n = l.neighbours(l.index(1, 1)).to_vec();
        n.sort();
        assert_eq!(n, vec![l.index(1, 0), l.index(0, 1), l.index(2, 1)]);
        // Odd width: the middle column is its own mirror.
        let odd = Layout::parse_rows("1 1 1\n", 1).unwrap();
        assert_eq!(odd.mirror(1), 1);
    }
}
