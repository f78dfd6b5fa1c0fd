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

    /// Every bonus that is not a portal.
    pub const PLAIN: [Bonus; 6] = [
        Bonus::None,
        Bonus::DoubleLetter,
        Bonus::TripleLetter,
        Bonus::DoubleWord,
        Bonus::TripleWord,
        Bonus::Mine,
    ];

    pub fn from_token(token: &str) -> Option<Bonus> {
        let lower = token.to_ascii_lowercase();
        Self::PLAIN
            .into_iter()
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
    /// Hand tiles per letter A-Z (a hand file of at most 256 MiB holds fewer than 2^32).
    pub hand: [u32; 26],
}

/// Largest grid side accepted: far above real levels (the generator draws 5..=16), small enough
/// that any level is read and solved in well under a second (a 3000x3000 grid took 36 s and
/// 1.2 GB before this limit).
pub const MAX_SIDE: usize = 256;

/// Grid rows of whitespace-separated tokens; blank lines are skipped, rows must have equal length
/// and at most `MAX_SIDE` cells, and there may be at most `MAX_SIDE` rows (checked while reading,
/// so a huge file costs no memory). Returns each row with its 1-based line number.
fn parse_rows<'a>(text: &'a str, source: &str) -> Result<Vec<(usize, Vec<&'a str>)>, SourceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<(usize, Vec<&str>)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let cells: Vec<&str> = l.split_whitespace().take(MAX_SIDE + 1).collect();
        if cells.is_empty() {
            continue;
        }
        if cells.len() > MAX_SIDE {
            return Err(SourceError::new(
                source,
                line,
                format!("row has more than {MAX_SIDE} cells (the largest grid side accepted)"),
            ));
        }
        if rows.len() == MAX_SIDE {
            return Err(SourceError::new(
                source,
                line,
                format!("more than {MAX_SIDE} rows (the largest grid side accepted)"),
            ));
        }
        let width = rows.first().map_or(cells.len(), |(_, first)| first.len());
        if cells.len() != width {
            return Err(SourceError::new(
                source,
                line,
                format!("row has {} cells, expected {width}", cells.len()),
            ));
        }
        rows.push((line, cells));
    }
    if rows.is_empty() {
        return Err(SourceError::new(source, 0, "grid is empty"));
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
                        format!(
                            "cell {x}: expected `-` or one letter A-Z, found {}",
                            quote(cell)
                        ),
                    ))
                }
            });
        }
    }
    Ok((width, rows.len(), letters))
}

/// Parse a bonuses grid and check the portals pair up (each kind at most once, with its partner).
pub fn parse_bonuses(text: &str, source: &str) -> Result<(usize, usize, Vec<Bonus>), SourceError> {
    let (width, height, bonuses, portal_line) = parse_bonus_cells(text, source)?;
    check_portal_pairs(&portal_line, source)?;
    Ok((width, height, bonuses))
}

/// The line of each portal kind's cell, by `Dir6` index.
type PortalLines = [Option<usize>; 6];

/// A bonuses grid's cells, each portal kind at most once; partners not checked yet.
fn parse_bonus_cells(
    text: &str,
    source: &str,
) -> Result<(usize, usize, Vec<Bonus>, PortalLines), SourceError> {
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
    Ok((width, rows.len(), bonuses, portal_line))
}

/// Every portal needs its partner.
fn check_portal_pairs(portal_line: &PortalLines, source: &str) -> Result<(), SourceError> {
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
    Ok(())
}

/// Parse a hand: letters A-Z (either case), whitespace ignored.
pub fn parse_hand(text: &str, source: &str) -> Result<[u32; 26], SourceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut hand = [0u32; 26];
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
        // The shape first: a cut-short grid is reported as such, not as a portal without partner.
        let (bw, bh, bonus_cells, portal_lines) = parse_bonus_cells(bonuses.0, bonuses.1)?;
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
        check_portal_pairs(&portal_lines, bonuses.1)?;
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
        let read =
            |p: &Path| crate::source_error::read_text(p).map(|t| (t, p.display().to_string()));
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
        // A bonuses grid cut short before a portal's partner: the size is the problem.
        let letters = ("- -\n- -\n", "l");
        let e = Level::parse(letters, ("pr -\n", "b"), ("A", "h")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "b: grid is 2x1 but l is 2x2 (width x height)"
        );
        let e = Level::parse(letters, ("pr -\n- -\n", "b"), ("A", "h")).unwrap_err();
        assert!(e.problem.contains("no `pl` partner"), "{e}");
    }

    #[test]
    fn grids_beyond_the_side_limit_are_refused_where_they_exceed_it() {
        let row = |n: usize| vec!["-"; n].join(" ") + "\n";
        assert!(parse_letters(&row(MAX_SIDE).repeat(MAX_SIDE), "l").is_ok());
        let e = parse_letters(&row(MAX_SIDE + 1), "l").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.problem.contains("more than 256 cells"), "{e}");
        let e = parse_letters(&row(3).repeat(5000), "l").unwrap_err();
        assert_eq!(e.line, MAX_SIDE + 1);
        assert!(e.problem.contains("more than 256 rows"), "{e}");
        let e = parse_bonuses(&row(100_000), "b").unwrap_err();
        assert!(e.problem.contains("more than 256 cells"), "{e}");
    }
}
