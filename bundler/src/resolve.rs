//! Finding the file of a `mod x;` declaration, following rustc's rules exactly.
//!
//! - In a "mod-rs" file (the crate root, any `mod.rs`, and any file loaded through `#[path]`),
//!   `mod x;` is `<dir of file>/x.rs` or `<dir of file>/x/mod.rs`.
//! - In a non-mod-rs file `p/a.rs`, `mod x;` is `p/a/x.rs` or `p/a/x/mod.rs`.
//! - Inside an inline `mod m { ... }`, the directory gains `m/`; with its own `#[path = "p"]` the
//!   inline module's directory is `p` relative to the current file's directory (at the top of a
//!   non-mod-rs file too: `a/` is not added).
//! - `#[path = "f"]` on `mod x;` outside inline modules is relative to the directory of the current
//!   file; inside inline modules it is relative to the inline module's directory.

use std::path::{Path, PathBuf};

/// Where the `mod` declarations in one piece of code look for their files: rustc's own model, a
/// directory plus, in a non-mod-rs file, the file's module name still to be appended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModDir {
    /// Directory that `#[path]` on `mod x;` is relative to.
    pub dir: PathBuf,
    /// In a non-mod-rs file `a.rs` (outside inline modules): `a`, added for plain `mod x;` only.
    pub relative: Option<String>,
}

impl ModDir {
    /// The directories for the code of `file`; `mod_rs` for the crate root, `mod.rs` files and
    /// files loaded through `#[path]`.
    pub fn for_file(file: &Path, mod_rs: bool) -> ModDir {
        let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
        let relative = if mod_rs {
            None
        } else {
            file.file_stem().map(|s| s.to_string_lossy().into_owned())
        };
        ModDir { dir, relative }
    }

    /// The directories inside `mod name { ... }`. With its own `#[path]`, an inline module's
    /// directory is that path relative to `dir` (the file's module name is not added: rustc's rule).
    pub fn inline_module(&self, name: &str, path_attr: Option<&str>) -> ModDir {
        let dir = match path_attr {
            Some(path) => self.dir.join(path),
            None => self.module_dir().join(name),
        };
        ModDir {
            dir,
            relative: None,
        }
    }

    /// Directory that plain `mod x;` looks in.
    fn module_dir(&self) -> PathBuf {
        match &self.relative {
            Some(stem) => self.dir.join(stem),
            None => self.dir.clone(),
        }
    }

    /// The file of `mod name;` and whether that file is mod-rs; `exists` decides which candidate
    /// files are there (the file system in the bundler, a fake one in tests).
    pub fn resolve(
        &self,
        name: &str,
        path_attr: Option<&str>,
        exists: &dyn Fn(&Path) -> bool,
    ) -> Result<(PathBuf, bool), String> {
        if let Some(path) = path_attr {
            let file = self.dir.join(path);
            return if exists(&file) {
                Ok((file, true))
            } else {
                Err(format!(
                    "file not found for module `{name}`: {} (from #[path])",
                    file.display()
                ))
            };
        }
        let flat = self.module_dir().join(format!("{name}.rs"));
        let nested = self.module_dir().join(name).join("mod.rs");
        match (exists(&flat), exists(&nested)) {
            (true, false) => Ok((flat, false)),
            (false, true) => Ok((nested, true)),
            (true, true) => Err(format!(
                "module `{name}` found at both {} and {}",
                flat.display(),
                nested.display()
            )),
            (false, false) => Err(format!(
                "file not found for module `{name}`: neither {} nor {}",
                flat.display(),
                nested.display()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs(files: &'static [&'static str]) -> impl Fn(&Path) -> bool {
        move |p: &Path| files.iter().any(|f| Path::new(f) == p)
    }

    #[test]
    fn mod_rs_and_non_mod_rs_files() {
        let exists = fs(&["src/a.rs", "src/a/x.rs", "src/b/mod.rs", "src/b/y/mod.rs"]);
        let root = ModDir::for_file(Path::new("src/lib.rs"), true);
        assert_eq!(
            root.resolve("a", None, &exists).unwrap(),
            ("src/a.rs".into(), false)
        );
        assert_eq!(
            root.resolve("b", None, &exists).unwrap(),
            ("src/b/mod.rs".into(), true)
        );
        let a = ModDir::for_file(Path::new("src/a.rs"), false);
        assert_eq!(
            a.resolve("x", None, &exists).unwrap(),
            ("src/a/x.rs".into(), false)
        );
        let b = ModDir::for_file(Path::new("src/b/mod.rs"), true);
        assert_eq!(
            b.resolve("y", None, &exists).unwrap(),
            ("src/b/y/mod.rs".into(), true)
        );
        assert!(root
            .resolve("zz", None, &exists)
            .unwrap_err()
            .contains("src/zz.rs"));
    }

    #[test]
    fn ambiguous_module_is_an_error() {
        let exists = fs(&["src/x.rs", "src/x/mod.rs"]);
        let root = ModDir::for_file(Path::new("src/lib.rs"), true);
        assert!(root
            .resolve("x", None, &exists)
            .unwrap_err()
            .contains("both"));
    }

    #[test]
    fn path_attributes_and_inline_modules() {
        let exists = fs(&[
            "src/sib.rs",
            "src/a/inl/deep.rs",
            "src/m/n.rs",
            "src/a/m/n.rs",
        ]);
        let a = ModDir::for_file(Path::new("src/a.rs"), false);
        // Outside inline modules, #[path] is relative to the file's own directory.
        assert_eq!(
            a.resolve("s", Some("sib.rs"), &exists).unwrap(),
            ("src/sib.rs".into(), true)
        );
        // Inside an inline module of a non-mod-rs file, it includes the file's module name.
        let inl = a.inline_module("inl", None);
        assert_eq!(
            inl.resolve("d", Some("deep.rs"), &exists).unwrap(),
            ("src/a/inl/deep.rs".into(), true)
        );
        let root = ModDir::for_file(Path::new("src/lib.rs"), true);
        assert_eq!(
            root.inline_module("m", None)
                .resolve("n", None, &exists)
                .unwrap(),
            ("src/m/n.rs".into(), false)
        );
        assert_eq!(
            a.inline_module("m", None)
                .resolve("n", None, &exists)
                .unwrap(),
            ("src/a/m/n.rs".into(), false)
        );
    }
}
