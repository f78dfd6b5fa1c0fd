//! One error type for problems in an input file: which file, which line, what is wrong. Printed as
//! `source:line: problem`, or `source: problem` when the problem concerns the whole file.

use std::fmt;
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

/// Read a whole file as text, naming the file in the error.
pub fn read_text(path: &Path) -> Result<String, SourceError> {
    let source = || path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| SourceError::new(&source(), 0, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|_| SourceError::new(&source(), 0, "not valid UTF-8 text"))
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
    fn read_text_returns_the_file_text() {
        let path = std::env::temp_dir().join(format!("bot-source-ok-{}.txt", std::process::id()));
        std::fs::write(&path, "é\nline two\n").unwrap();
        let result = read_text(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(result.unwrap(), "é\nline two\n");
    }
}
