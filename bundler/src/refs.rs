//! Finding what a module uses from the rest of the crate: `crate::x` paths (also inside macro
//! bodies and `use crate::{a, b}` groups) and `super::` chains that climb to the crate root.

use std::ops::Range;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// A use of the top-level module (or root item) `name` at `file:line`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrateRef {
    pub name: String,
    pub file: PathBuf,
    pub line: usize,
}

/// Scan `tokens` (code at module depth `depth` below the crate root), skipping tokens inside the
/// `skip` byte ranges (code that is not in the bundle).
pub fn scan_refs(
    tokens: TokenStream,
    depth: usize,
    skip: &[Range<usize>],
    file: &Path,
    out: &mut Vec<CrateRef>,
) -> Result<(), String> {
    let trees: Vec<TokenTree> = tokens
        .into_iter()
        .filter(|t| {
            let r = t.span().byte_range();
            !skip.iter().any(|s| s.start <= r.start && r.end <= s.end)
        })
        .collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Ident(id) if id == "mod" => {
                if let (Some(TokenTree::Ident(_)), Some(TokenTree::Group(g))) =
                    (trees.get(i + 1), trees.get(i + 2))
                {
                    if g.delimiter() == Delimiter::Brace {
                        scan_refs(g.stream(), depth + 1, skip, file, out)?;
                        i += 3;
                        continue;
                    }
                }
            }
            TokenTree::Ident(id)
                if id == "crate" && !follows_path_sep(&trees, i) && is_path_sep(&trees, i + 1) =>
            {
                names_at(&trees, i + 3, file, out);
            }
            TokenTree::Ident(id) if id == "super" && !follows_path_sep(&trees, i) => {
                let mut climbs = 0;
                let mut j = i;
                while matches!(&trees.get(j), Some(TokenTree::Ident(s)) if s == "super")
                    && is_path_sep(&trees, j + 1)
                {
                    climbs += 1;
                    j += 3;
                }
                if climbs > depth {
                    return Err(format!(
                        "{}:{}: `super::` climbs above the crate root",
                        file.display(),
                        id.span().start().line
                    ));
                }
                if climbs == depth && climbs > 0 {
                    names_at(&trees, j, file, out);
                }
                i = j.max(i + 1);
                continue;
            }
            TokenTree::Group(g) => scan_refs(g.stream(), depth, skip, file, out)?,
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn is_path_sep(trees: &[TokenTree], i: usize) -> bool {
    matches!(
        (trees.get(i), trees.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// True when the token at `i` is preceded by `::` (so it is not the start of a path).
fn follows_path_sep(trees: &[TokenTree], i: usize) -> bool {
    i >= 2 && is_path_sep(trees, i - 2)
}

/// The root-level name(s) at `i`: an identifier, or the first identifier of each part of a
/// `{a, b::c}` group.
fn names_at(trees: &[TokenTree], i: usize, file: &Path, out: &mut Vec<CrateRef>) {
    match trees.get(i) {
        Some(TokenTree::Ident(name)) => out.push(CrateRef {
            name: name.to_string(),
            file: file.to_path_buf(),
            line: name.span().start().line,
        }),
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            let mut at_start = true;
            for (k, t) in inner.iter().enumerate() {
                match t {
                    TokenTree::Punct(p) if p.as_char() == ',' => at_start = true,
                    _ if at_start => {
                        at_start = false;
                        if let TokenTree::Ident(id) = t {
                            if id != "self" {
                                names_at(&inner, k, file, out);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(code: &str, depth: usize) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        scan_refs(
            code.parse().unwrap(),
            depth,
            &[],
            Path::new("f.rs"),
            &mut out,
        )?;
        Ok(out.into_iter().map(|r| r.name).collect())
    }

    #[test]
    fn crate_paths_groups_and_macros() {
        let code = "use crate::a::X; use crate::{b, c::d, self}; fn f() { println!(\"{}\", crate::e::g()); }";
        assert_eq!(refs(code, 1).unwrap(), ["a", "b", "c", "e"]);
        assert_eq!(
            refs("let s = \"crate::fake\"; // crate::nope", 1).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(refs("$crate::m::f()", 1).unwrap(), ["m"]);
        // `x::crate` is not a crate path (and not valid Rust, but must not count).
        assert_eq!(refs("a::crate::b", 1).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn super_chains_reaching_the_root() {
        assert_eq!(refs("use super::other::Y;", 1).unwrap(), ["other"]);
        assert_eq!(
            refs("use super::sibling::Y;", 2).unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(refs("use super::super::top::Y;", 2).unwrap(), ["top"]);
        assert_eq!(
            refs("mod inner { use super::super::top::Y; }", 1).unwrap(),
            ["top"]
        );
        assert!(refs("use super::super::x;", 1).is_err());
    }
}
