//! Level files: the letters grid, the bonuses grid and the hand, parsed into a checked `Level`.
//! Every problem is reported with the file, the 1-based line and what is wrong.

use crate::source_error::{quote, SourceError};
use std::path::Path;

/// A cell's bonus. Portals carry the six-way direction they jump in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    None,
    DoubleLetter,
    TripleLetter,
    DoubleWord,
    TripleWord,
    Mine,
    Portal(Dir6),
}

/// The six hex directions. The first three are the word directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir6 {
    Right,
    UpRight,
    DownRight,
    Left,
    UpLeft,
    DownLeft,
}

impl Dir6 {
    pub const ALL: [Dir6; 6] = [
        Dir6::Right,
        Dir6::UpRight,
        Dir6::DownRight,
        Dir6::Left,
        Dir6::UpLeft,
        Dir6::DownLeft,
    ];

    pub fn opposite(self) -> Dir6 {
        match self {
            Dir6::Right => Dir6::Left,
            Dir6::Left => Dir6::Right,
            Dir6::UpRight => Dir6::DownLeft,
            Dir6::DownLeft => Dir6::UpRight,
            Dir6::DownRight => Dir6::UpLeft,
            Dir6::UpLeft => Dir6::DownRight,
        }
    }
}

impl Bonus {
    /// The bonuses file token (`-` for none).
    pub fn token(self) -> &'static str {
        match self {
            Bonus::None => "-",
            Bonus::DoubleLetter => "dl",
            Bonus::TripleLetter => "tl",
            Bonus::DoubleWord => "dw",
            Bonus::TripleWord => "tw",
            Bonus::Mine => "m",
            Bonus::Portal(Dir6::Right) => "pr",
            Bonus::Portal(Dir6::Left) => "pl",
            Bonus::Portal(Dir6::UpRight) => "pur",
            Bonus::Portal(Dir6::UpLeft) => "pul",
            Bonus::Portal(Dir6::DownRight) => "pdr",
            Bonus::Portal(Dir6::DownLeft) => "pdl",
        }
    }

    pub fn from_token(token: &str) -> Option<Bonus> {
        let all = [
            Bonus::None,
            Bonus::DoubleLetter,
            Bonus::TripleLetter,
            Bonus::DoubleWord,
            Bonus::TripleWord,
            Bonus::Mine,
        ];
        let lower = token.to_ascii_lowercase();
        all.into_iter()
            .chain(Dir6::ALL.map(Bonus::Portal))
            .find(|b| b.token() == lower)
    }
}

/// A parsed, validated level: `width` x `height` cells stored row by row (index = y * width + x).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    /// Upper-case letter or `None` for an empty cell.
    pub letters: Vec<Option<u8>>,
    pub bonuses: Vec<Bonus>,
    /// Hand tiles per letter A-Z.
    pub hand: [u8; 26],
}

/// Grid rows of whitespace-separated tokens; blank lines are skipped, rows must have equal length.
/// Returns each row with its 1-based line number.
fn parse_rows<'a>(text: &'a str, source: &str) -> Result<Vec<(usize, Vec<&'a str>)>, SourceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rows: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, cells)| !cells.is_empty())
        .collect();
    let Some((_, first)) = rows.first() else {
        return Err(SourceError::new(source, 0, "grid is empty"));
    };
    let width = first.len();
    for (line, cells) in &rows {
        if cells.len() != width {
            return Err(SourceError::new(
                source,
                *line,
                format!("row has {} cells, expected {width}", cells.len()),
            ));
        }
    }
    Ok(rows)
}

/// Parse a letters grid: `-` for empty, else one letter A-Z (either case).
pub fn parse_letters(
    text: &str,
    source: &str,
) -> Result<(usize, usize, Vec<Option<u8>>), SourceError> {
    let rows = parse_rows(text, source)?;
    let width = rows[0].1.len();
    let mut letters = Vec::with_capacity(width * rows.len());
    for (line, cells) in &rows {
        for (x, cell) in cells.iter().enumerate() {
            let b = cell.as_bytes();
            letters.push(match b {
                [b'-'] => None,
                [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
                _ => {
                    return Err(SourceError::new(
                        source,
                        *line,
                        format!("cell {x}: expected `-` or one letter A-Z, found {}", quote(cell)),
                    ))
                }
            });
        }
    }
    Ok((width, rows.len(), letters))
}

/// Parse a bonuses grid and check the portals pair up (each kind at most once, with its partner).
pub fn parse_bonuses(text: &str, source: &str) -> Result<(usize, usize, Vec<Bonus>), SourceError> {
    let rows = parse_rows(text, source)?;
    let width = rows[0].1.len();
    let mut bonuses = Vec::with_capacity(width * rows.len());
    let mut portal_line: [Option<usize>; 6] = [None; 6];
    for (line, cells) in &rows {
        for (x, cell) in cells.iter().enumerate() {
            let Some(bonus) = Bonus::from_token(cell) else {
                return Err(SourceError::new(
                    source,
                    *line,
                    format!("cell {x}: unknown bonus {} (expected - dl tl dw tw m pr pl pur pul pdr pdl)", quote(cell)),
                ));
            };
            if let Bonus::Portal(d) = bonus {
                if portal_line[d as usize].is_some() {
                    return Err(SourceError::new(
                        source,
                        *line,
                        format!(
                            "cell {x}: second `{}` portal (each portal kind may appear once)",
                            bonus.token()
                        ),
                    ));
                }
                portal_line[d as usize] = Some(*line);
            }
            bonuses.push(bonus);
        }
    }
    for d in Dir6::ALL {
        if let (Some(line), None) = (portal_line[d as usize], portal_line[d.opposite() as usize]) {
            return Err(SourceError::new(
                source,
                line,
                format!(
                    "portal `{}` has no `{}` partner",
                    Bonus::Portal(d).token(),
                    Bonus::Portal(d.opposite()).token()
                ),
            ));
        }
    }
    Ok((width, rows.len(), bonuses))
}

/// Parse a hand: letters A-Z (either case), whitespace ignored.
pub fn parse_hand(text: &str, source: &str) -> Result<[u8; 26], SourceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut hand = [0u8; 26];
    for (i, line) in text.lines().enumerate() {
        for c in line.chars().filter(|c| !c.is_whitespace()) {
            if !c.is_ascii_alphabetic() {
                return Err(SourceError::new(
                    source,
                    i + 1,
                    format!("expected letters A-Z, found {}", quote(c.to_string())),
                ));
            }
            let slot = &mut hand[crate::words::letter_index(c.to_ascii_uppercase() as u8)];
            *slot = slot.saturating_add(1);
        }
    }
    Ok(hand)
}

impl Level {
    /// Build from the three file texts, checking that the grids have the same shape.
    pub fn parse(
        letters: (&str, &str),
        bonuses: (&str, &str),
        hand: (&str, &str),
    ) -> Result<Level, SourceError> {
        let (width, height, cells) = parse_letters(letters.0, letters.1)?;
        let (bw, bh, bonus_cells) = parse_bonuses(bonuses.0, bonuses.1)?;
        if (bw, bh) != (width, height) {
            return Err(SourceError::new(
                bonuses.1,
                0,
                format!(
                    "grid is {bw}x{bh} but {} is {width}x{height} (width x height)",
                    letters.1
                ),
            ));
        }
        Ok(Level {
            width,
            height,
            letters: cells,
            bonuses: bonus_cells,
            hand: parse_hand(hand.0, hand.1)?,
        })
    }

    /// Read the three files.
    pub fn read(letters: &Path, bonuses: &Path, hand: &Path) -> Result<Level, SourceError> {
        let read = |p: &Path| {
            let source = p.display().to_string();
            std::fs::read_to_string(p)
                .map(|t| (t, source.clone()))
                .map_err(|e| SourceError::new(&source, 0, format!("cannot read: {e}")))
        };
        let (l, ls) = read(letters)?;
        let (b, bs) = read(bonuses)?;
        let (h, hs) = read(hand)?;
        Level::parse((&l, &ls), (&b, &bs), (&h, &hs))
    }

    pub fn cell_count(&self) -> usize {
        self.width * self.height
    }

    /// Cell index of (x, y).
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Write the letters grid in the input format.
    pub fn letters_text(&self) -> String {
        self.grid_text(|i| match self.letters[i] {
            Some(c) => (c as char).to_string(),
            None => "-".to_string(),
        })
    }

    /// Write the bonuses grid in the input format.
    pub fn bonuses_text(&self) -> String {
        self.grid_text(|i| self.bonuses[i].token().to_string())
    }

    /// Write the hand as one line of letters in A-Z order.
    pub fn hand_text(&self) -> String {
        let mut s = String::new();
        for (i, &n) in self.hand.iter().enumerate() {
            for _ in 0..n {
                s.push((b'A' + i as u8) as char);
            }
        }
        s.push('\n');
        s
    }

    fn grid_text(&self, cell: impl Fn(usize) -> String) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            let row: Vec<String> = (0..self.width).map(|x| cell(self.index(x, y))).collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_text() {
        let level = Level::parse(
            ("- a -\nB - c\r\n\n", "l"),
            ("dl - pr\nm tw pl\n", "b"),
            (" hou se\n", "h"),
        )
        .unwrap();
        assert_eq!((level.width, level.height), (3, 2));
        assert_eq!(level.letters[1], Some(b'A'));
        assert_eq!(level.bonuses[2], Bonus::Portal(Dir6::Right));
        assert_eq!(level.hand_text(), "EHOSU\n");
        let again = Level::parse(
            (&level.letters_text(), "l"),
            (&level.bonuses_text(), "b"),
            (&level.hand_text(), "h"),
        )
        .unwrap();
        assert_eq!(again, level);
    }

    #[test]
    fn malformed_files_name_file_line_and_problem() {
        let e = parse_letters("- a\n- ab\n", "x_letters.txt").unwrap_err();
        assert_eq!((e.source.as_str(), e.line), ("x_letters.txt", 2));
        assert!(e.to_string().starts_with("x_letters.txt:2: cell 1"), "{e}");
        let e = parse_letters("- a\n- a -\n", "l").unwrap_err();
        assert!(e.problem.contains("3 cells, expected 2"), "{e}");
        assert_eq!(parse_letters("\n \n", "l").unwrap_err().line, 0);
        let e = parse_bonuses("- xx\n", "b").unwrap_err();
        assert!(e.problem.contains("unknown bonus \"xx\""), "{e}");
        let e = parse_bonuses("pr -\n- -\n", "b").unwrap_err();
        assert!(e.problem.contains("no `pl` partner"), "{e}");
        let e = parse_bonuses("pr pl\npr pl\n", "b").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_hand("ab\nc1\n", "h").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Level::parse(("- -\n", "l"), ("- - -\n", "b"), ("A", "h")).unwrap_err();
        assert!(e.to_string().contains("3x1"), "{e}");
    }
}
