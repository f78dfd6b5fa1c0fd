//! Editing source text by byte spans, so the bundle keeps the original formatting and comments.

use std::ops::Range;

/// One replacement of `range` (bytes of the original text) by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// A set of non-overlapping edits on one source text.
#[derive(Clone, Debug, Default)]
pub struct Edits {
    list: Vec<Edit>,
}

impl Edits {
    /// Delete `range`; if it is alone on its lines, the whole lines go (no blank holes left).
    pub fn delete(&mut self, range: Range<usize>) {
        self.list.push(Edit {
            range,
            text: String::new(),
        });
    }

    pub fn replace(&mut self, range: Range<usize>, text: String) {
        self.list.push(Edit { range, text });
    }

    /// Take over every edit of `other` (made on the same source text).
    pub fn extend(&mut self, other: Edits) {
        self.list.extend(other.list);
    }

    /// The ranges this set deletes outright (code that is not in the bundle).
    pub fn deleted(&self) -> Vec<Range<usize>> {
        self.list
            .iter()
            .filter(|e| e.text.is_empty())
            .map(|e| e.range.clone())
            .collect()
    }

    /// Apply every edit to `source`. An edit nested inside an earlier deletion is dropped (the
    /// deletion wins); two edits that partly overlap are a bug in the caller and are reported.
    pub fn apply(&self, source: &str) -> Result<String, String> {
        let mut list: Vec<Edit> = self
            .list
            .iter()
            .map(|e| {
                if e.text.is_empty() {
                    Edit {
                        range: whole_lines(source, e.range.clone()),
                        text: String::new(),
                    }
                } else {
                    e.clone()
                }
            })
            .collect();
        // Outer (longer) edits first among those starting at the same byte.
        list.sort_by_key(|e| (e.range.start, std::cmp::Reverse(e.range.end)));
        let mut out = String::with_capacity(source.len());
        let mut cursor = 0;
        let mut covered: Option<Range<usize>> = None;
        for edit in list {
            if let Some(outer) = &covered {
                if edit.range.end <= outer.end && edit.range.start >= outer.start {
                    continue;
                }
            }
            if edit.range.start < cursor {
                return Err(format!(
                    "overlapping edits at bytes {:?} and {:?}",
                    covered, edit.range
                ));
            }
            out.push_str(&source[cursor..edit.range.start]);
            out.push_str(&edit.text);
            cursor = edit.range.end;
            covered = Some(edit.range);
        }
        out.push_str(&source[cursor..]);
        Ok(out)
    }
}

/// Widen `range` to whole lines when only whitespace shares its first and last lines.
fn whole_lines(source: &str, range: Range<usize>) -> Range<usize> {
    let line_start = source[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &source[line_start..range.start];
    let line_end = source[range.end..]
        .find('\n')
        .map_or(source.len(), |i| range.end + i + 1);
    let after = &source[range.end..line_end];
    if before.trim().is_empty() && after.trim().is_empty() {
        // Between two blank lines (or after the start), take one blank line along so removals
        // do not leave runs of empty lines.
        let blank_before = line_start == 0 || source[..line_start - 1].ends_with('\n');
        let next_end = source[line_end..].find('\n').map(|i| line_end + i + 1);
        match next_end {
            Some(end) if blank_before && source[line_end..end].trim().is_empty() => line_start..end,
            _ => line_start..line_end,
        }
    } else {
        range
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deletion_of_a_whole_line_leaves_no_hole() {
        let src = "a\n    #[cfg(test)]\n    fn f() {}\nb\n";
        let start = src.find("#[").unwrap();
        let end = src.find("{}").unwrap() + 2;
        let mut edits = Edits::default();
        edits.delete(start..end);
        assert_eq!(edits.apply(src).unwrap(), "a\nb\n");
    }

    #[test]
    fn deletion_between_blank_lines_takes_one_blank_line() {
        let src = "a\n\n#[cfg(test)]\nfn f() {}\n\nb\n";
        let start = src.find("#[").unwrap();
        let end = src.find("{}").unwrap() + 2;
        let mut edits = Edits::default();
        edits.delete(start..end);
        assert_eq!(edits.apply(src).unwrap(), "a\n\nb\n");
    }

    #[test]
    fn partial_line_deletion_keeps_the_rest() {
        let src = "let x = 1; /* gone */ let y = 2;\n";
        let start = src.find("/*").unwrap();
        let mut edits = Edits::default();
        edits.delete(start..start + "/* gone */".len());
        assert_eq!(edits.apply(src).unwrap(), "let x = 1;  let y = 2;\n");
    }

    #[test]
    fn nested_edits_inside_a_deletion_are_dropped_and_replacements_apply() {
        let src = "keep; drop { inner } ; end";
        let mut edits = Edits::default();
        let inner = src.find("inner").unwrap();
        edits.replace(inner..inner + 5, "X".into());
        let drop = src.find("drop").unwrap();
        edits.delete(drop..src.find(';').map(|_| src.rfind(';').unwrap()).unwrap() + 1);
        let end = src.find("end").unwrap();
        edits.replace(end..end + 3, "END".into());
        assert_eq!(edits.apply(src).unwrap(), "keep;  END");
    }

    #[test]
    fn partly_overlapping_edits_are_reported() {
        let mut edits = Edits::default();
        edits.replace(0..4, "x".into());
        edits.replace(2..6, "y".into());
        assert!(edits.apply("abcdefgh").is_err());
    }
}
