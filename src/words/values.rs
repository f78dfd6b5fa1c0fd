//! Letter-value tables: standard English Scrabble values, or a file of `<LETTER> <int>` lines.

use super::letter_index;
use crate::source_error::{quote, SourceError};
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LetterValues(pub [u32; 26]);

impl Default for LetterValues {
    fn default() -> Self {
        Self::scrabble_english()
    }
}

impl LetterValues {
    /// Standard English Scrabble tile values (also the Scruffle statement's table).
    pub fn scrabble_english() -> Self {
        //            A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q   R  S  T  U  V  W  X  Y  Z
        LetterValues([
            1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
        ])
    }

    /// Value of an upper-case letter.
    #[inline]
    pub fn of(&self, letter: u8) -> u32 {
        self.0[letter_index(letter)]
    }

    /// Parse `<LETTER> <int>` lines (case-insensitive letter, blank lines ignored). Letters not
    /// listed keep value 0; a letter listed twice is an error.
    pub fn parse(text: &str, source: &str) -> Result<Self, SourceError> {
        let err = |line: usize, problem: String| SourceError::new(source, line, problem);
        let mut values = [0u32; 26];
        let mut seen = [false; 26];
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields.as_slice() {
                [] => continue,
                [letter, value] => {
                    let l = letter.to_ascii_uppercase();
                    let b = l.as_bytes();
                    if b.len() != 1 || !b[0].is_ascii_uppercase() {
                        return Err(err(
                            n,
                            format!("expected a letter A-Z, found {}", quote(letter)),
                        ));
                    }
                    let v: u32 = value.parse().map_err(|_| {
                        err(
                            n,
                            format!("expected a non-negative integer, found {}", quote(value)),
                        )
                    })?;
                    let idx = letter_index(b[0]);
                    if seen[idx] {
                        return Err(err(n, format!("letter {l} given twice")));
                    }
                    seen[idx] = true;
                    values[idx] = v;
                }
                _ => {
                    return Err(err(
                        n,
                        format!("expected `<LETTER> <value>`, found {}", quote(line)),
                    ))
                }
            }
        }
        Ok(LetterValues(values))
    }

    pub fn read(path: &Path) -> Result<Self, SourceError> {
        let text = crate::source_error::read_text(path)?;
        Self::parse(&text, &path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrabble_table_matches_the_scruffle_statement() {
        let v = LetterValues::scrabble_english();
        for (letters, value) in [
            ("AEILNORSTU", 1),
            ("DG", 2),
            ("BCMP", 3),
            ("FHVWY", 4),
            ("K", 5),
            ("JX", 8),
            ("QZ", 10),
        ] {
            for l in letters.bytes() {
                assert_eq!(v.of(l), value, "{}", l as char);
            }
        }
    }

    #[test]
    fn parses_statement_example_values() {
        let v = LetterValues::parse("H 2\r\no 1\nU 3\n\nS 1\nE 1\n", "v.txt").unwrap();
        assert_eq!(
            (v.of(b'H'), v.of(b'O'), v.of(b'U'), v.of(b'Z')),
            (2, 1, 3, 0)
        );
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let e = LetterValues::parse("A 1\nB x\n", "v.txt").unwrap_err();
        assert_eq!((e.line, e.source.as_str()), (2, "v.txt"));
        assert!(LetterValues::parse("AB 1", "v").is_err());
        assert!(LetterValues::parse("A 1\na 2", "v")
            .unwrap_err()
            .problem
            .contains("twice"));
        assert!(LetterValues::parse("A 1 2", "v").is_err());
    }

    #[test]
    fn unreadable_file_is_named_as_a_whole() {
        let e = LetterValues::read(Path::new("/nonexistent/v.txt")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("/nonexistent/v.txt: cannot read: "),
            "{e}"
        );
    }
}
