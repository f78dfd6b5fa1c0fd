//! The real crate's bundle, as the bundler's default invocation builds it (docs stripped, tabs): under the limit, no test
//! code or cfg left, only std, and the same engine files `bot penguins` is built from. (CI then
//! compiles it with rustc and plays it: `bundler/ci.sh`.)

use std::path::Path;

use bundler::bundle::{bundle, Config};
use bundler::process::Options;
use syn::visit::Visit;

/// Names declared anywhere in the bundle, and the first segment of every `use`.
#[derive(Default)]
struct Names {
    declared: Vec<String>,
    use_roots: Vec<String>,
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let ident = match item {
            syn::Item::Mod(i) => Some(&i.ident),
            syn::Item::Enum(i) => Some(&i.ident),
            syn::Item::Struct(i) => Some(&i.ident),
            syn::Item::Trait(i) => Some(&i.ident),
            syn::Item::Type(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(ident) = ident {
            self.declared.push(ident.to_string());
        }
        if let syn::Item::Use(u) = item {
            let mut roots = Vec::new();
            use_roots(&u.tree, &mut roots);
            self.use_roots.extend(roots);
        }
        syn::visit::visit_item(self, item);
    }
}

fn use_roots(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => out.push(p.ident.to_string()),
        syn::UseTree::Name(n) => out.push(n.ident.to_string()),
        syn::UseTree::Rename(r) => out.push(r.ident.to_string()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_roots(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}

#[test]
fn real_bundle_is_std_only_and_under_the_limit() {
    let config = Config {
        root: Path::new("../src/lib.rs").to_path_buf(),
        modules: vec!["penguins".into(), "search".into()],
        entry: "penguins::codingame_main".into(),
        auto_deps: false,
        exclude: vec![],
        options: Options {
            strip_docs: true,
            tabs: true,
            ..Options::default()
        },
    };
    let made = bundle(&config).unwrap_or_else(|e| panic!("{e}"));
    let chars = made.text.chars().count();
    assert!(chars <= 100_000, "{chars} characters");
    let file = syn::parse_file(&made.text).expect("the bundle parses");
    let text = made.text.as_str();
    for banned in [
        "#[test]",
        "#[cfg(",
        "cfg!(",
        "///",
        "extern crate",
        "include_str!",
    ] {
        assert!(!text.contains(banned), "the bundle contains {banned}");
    }
    // Every `use` starts at std/core/alloc, crate/self/super, or a name declared in the bundle:
    // a crate outside std (bumpalo, rand, ...) would start a `use` with its own name.
    let mut names = Names::default();
    syn::visit::visit_file(&mut names, &file);
    let std_or_local = |first: &str| {
        ["std", "core", "alloc", "crate", "self", "super"].contains(&first)
            || names.declared.iter().any(|d| d == first)
    };
    let foreign: Vec<&String> = names
        .use_roots
        .iter()
        .filter(|r| !std_or_local(r))
        .collect();
    assert!(foreign.is_empty(), "uses outside std: {foreign:?}");
    assert!(
        names.use_roots.iter().any(|r| r == "std"),
        "the scan sees uses"
    );
    let files: Vec<String> = made
        .modules
        .iter()
        .flat_map(|m| m.files.iter().map(|f| f.display().to_string()))
        .collect();
    assert!(files
        .iter()
        .any(|f| f.ends_with("src/penguins/protocol/mod.rs")));
    assert!(files.iter().any(|f| f.ends_with("src/search/mod.rs")));
    assert!(
        !files
            .iter()
            .any(|f| f.ends_with("tests.rs") || f.ends_with("naive.rs")),
        "test-only files were bundled: {files:?}"
    );
    assert!(text.ends_with("fn main() {\n\tcrate::penguins::codingame_main();\n}\n"));
}
