//! One error type for problems in an input file: which file, which line, what is wrong. Printed as
//! `source:line: problem`, or `source: problem` when the problem concerns the whole file. And
//! `quote`, the one way an error message shows a piece of the input.

use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// The file (or other input) the problem is in, as shown to the user.
    pub source: String,
    /// 1-based line, 0 when the problem concerns the whole file.
    pub line: usize,
    pub problem: String,
}

impl SourceError {
    pub fn new(source: &str, line: usize, problem: impl Into<String>) -> SourceError {
        SourceError {
            source: source.to_string(),
            line,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.source, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.source, self.line, self.problem)
        }
    }
}

impl std::error::Error for SourceError {}

/// Most characters `quote` shows of an input (escapes count as the characters they print).
pub const QUOTE_CHARS: usize = 80;

/// A piece of input as an error message shows it: in double quotes, at most `QUOTE_CHARS`
/// characters, with control and invisible characters, quotes, backslashes and bytes that are
/// not UTF-8 escaped (so a message is one short line that cannot upset a terminal). A longer
/// input is cut and its size given: `"abc…" (1048576 bytes)`.
pub fn quote(input: impl AsRef<[u8]>) -> String {
    let bytes = input.as_ref();
    let mut shown = String::from("\"");
    let mut length = 0;
    let mut cut = false;
    'chunks: for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().chars().map(|c| match c {
            '\'' => "'".to_string(),
            c => c.escape_debug().to_string(),
        });
        let invalid = chunk.invalid().iter().map(|b| format!("\\x{b:02x}"));
        for piece in valid.chain(invalid) {
            let width = piece.chars().count();
            if length + width > QUOTE_CHARS {
                cut = true;
                break 'chunks;
            }
            length += width;
            shown.push_str(&piece);
        }
    }
    if cut {
        shown.push_str(&format!("…\" ({} bytes)", bytes.len()));
    } else {
        shown.push('"');
    }
    shown
}

/// Read one line into `line` (cleared first; without its `\n`), keeping at most `cap` bytes: the
/// rest of an overlong line is read past and counted, never stored, so a line of a gigabyte costs
/// `cap` bytes. Returns `None` at the end of input, else the number of bytes dropped.
pub fn read_line_capped<R: BufRead>(
    input: &mut R,
    cap: usize,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<u64>> {
    line.clear();
    let mut dropped = 0u64;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(dropped));
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let piece = &available[..newline.unwrap_or(available.len())];
        let kept = piece.len().min(cap - line.len());
        line.extend_from_slice(&piece[..kept]);
        dropped += (piece.len() - kept) as u64;
        let used = piece.len() + newline.map_or(0, |_| 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(dropped));
        }
    }
}

/// Largest input file read (`/dev/zero` or a huge file given by mistake must not exhaust memory).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Read a whole file, at most `MAX_FILE_BYTES`, naming the file in the error.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, SourceError> {
    read_bytes_capped(path, MAX_FILE_BYTES)
}

/// Read a whole file of at most `max` bytes (a whole number of MiB), naming the file in the
/// error; a larger file is refused after reading `max + 1` bytes, whatever its real size.
pub fn read_bytes_capped(path: &Path, max: u64) -> Result<Vec<u8>, SourceError> {
    let source = path.display().to_string();
    let cannot = |e: std::io::Error| SourceError::new(&source, 0, format!("cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > max {
        return Err(SourceError::new(
            &source,
            0,
            format!("larger than {} MiB, not read", max >> 20),
        ));
    }
    Ok(bytes)
}

/// Read a whole file as text (see `read_bytes`), naming the file in the error.
pub fn read_text(path: &Path) -> Result<String, SourceError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes)
        .map_err(|_| SourceError::new(&path.display().to_string(), 0, "not valid UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_shows_the_line_only_when_there_is_one() {
        let e = SourceError::new("w.txt", 3, "bad word");
        assert_eq!(e.to_string(), "w.txt:3: bad word");
        let e = SourceError::new("w.txt", 0, "file is empty");
        assert_eq!(e.to_string(), "w.txt: file is empty");
    }

    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(quote("MOVE 1 A2"), "\"MOVE 1 A2\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(
            quote(b"a\"b\\c'd\te\r\n\x01\x1b[31m"),
            r#""a\"b\\c'd\te\r\n\u{1}\u{1b}[31m""#
        );
        // Non-UTF-8 bytes, invisible and bidi characters are escaped; letters are kept.
        assert_eq!(quote(b"\xff\xfe\xc3\xa9"), r#""\xff\xfeé""#);
        assert_eq!(quote("x\u{202e}y\u{feff}"), r#""x\u{202e}y\u{feff}""#);
        let long = "é".repeat(1 << 20);
        let q = quote(&long);
        assert_eq!(
            q.chars().count(),
            1 + QUOTE_CHARS + 2 + " (2097152 bytes)".len()
        );
        assert!(q.ends_with("é…\" (2097152 bytes)"), "{q}");
        // An escape is never split, and exactly QUOTE_CHARS characters are not cut.
        let q = quote([0u8; 100]);
        assert_eq!(
            q,
            format!("\"{}…\" (100 bytes)", "\\0".repeat(QUOTE_CHARS / 2))
        );
        assert_eq!(
            quote("a".repeat(QUOTE_CHARS)),
            format!("\"{}\"", "a".repeat(QUOTE_CHARS))
        );
    }

    #[test]
    fn read_text_names_a_missing_file() {
        let e = read_text(Path::new("/nonexistent/dir/w.txt")).unwrap_err();
        assert_eq!((e.source.as_str(), e.line), ("/nonexistent/dir/w.txt", 0));
        assert!(
            e.to_string()
                .starts_with("/nonexistent/dir/w.txt: cannot read: "),
            "{e}"
        );
    }

    #[test]
    fn read_text_names_a_file_that_is_not_utf8() {
        let path =
            std::env::temp_dir().join(format!("bot-source-error-{}.txt", std::process::id()));
        std::fs::write(&path, b"ok\n\xff\xfe\n").unwrap();
        let result = read_text(&path);
        std::fs::remove_file(&path).unwrap();
        let e = result.unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: not valid UTF-8 text", path.display())
        );
    }

    #[test]
    fn capped_lines_keep_the_start_and_count_the_rest() {
        let text = format!("ab\n{}\n\nlast", "x".repeat(10_000));
        let mut input = std::io::BufReader::with_capacity(64, text.as_bytes());
        let mut line = Vec::new();
        let mut got = Vec::new();
        while let Some(dropped) = read_line_capped(&mut input, 100, &mut line).unwrap() {
            got.push((String::from_utf8(line.clone()).unwrap(), dropped));
        }
        let xs = "x".repeat(100);
        assert_eq!(
            got,
            vec![
                ("ab".to_string(), 0),
                (xs, 9_900),
                (String::new(), 0),
                ("last".to_string(), 0)
            ]
        );
    }

    #[test]
    fn read_bytes_stops_at_the_cap() {
        let e = read_bytes(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.to_string(), "/dev/zero: larger than 256 MiB, not read");
    }

    #[test]
    fn read_text_returns_the_file_text() {
        let path = std::env::temp_dir().join(format!("bot-source-ok-{}.txt", std::process::id()));
        std::fs::write(&path, "é\nline two\n").unwrap();
        let result = read_text(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(result.unwrap(), "é\nline two\n");
    }
}
