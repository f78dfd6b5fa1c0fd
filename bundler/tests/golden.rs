//! Golden tests: each fixture crate under `tests/fixtures/<layout>/` is bundled and compared with
//! its expected output file; then the bundle is compiled alone with rustc, the original crate is
//! compiled by rustc as a library, and both programs must print the same thing. The fixtures hold
//! decoy files with `compile_error!` where a wrong module resolution would look.
//! Set `BLESS=1` to rewrite the expected files after a deliberate change.

use std::path::{Path, PathBuf};
use std::process::Command;

use bundler::bundle::{bundle, Config};
use bundler::cfg::CfgSet;
use bundler::check::scratch_dir;
use bundler::process::Options;

fn fixture(name: &str) -> PathBuf {
    Path::new("tests/fixtures").join(name)
}

fn config(name: &str) -> Config {
    Config {
        root: fixture(name).join("src/lib.rs"),
        modules: vec!["app".into()],
        entry: "app::run".into(),
        auto_deps: false,
        exclude: vec![],
        options: Options::default(),
    }
}

fn with_feature(mut config: Config, feature: &str) -> Config {
    config.options.cfg = CfgSet {
        features: [feature.to_string()].into_iter().collect(),
        ..CfgSet::default()
    };
    config
}

/// Bundle, compare with the golden file, then prove the bundle behaves like the original crate.
fn golden(name: &str, config: &Config, expected_file: &str, marker: &str) {
    let made = bundle(config).unwrap_or_else(|e| panic!("bundling {name}: {e}"));
    let expected_path = fixture(name).join(expected_file);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &made.text).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", expected_path.display()));
    assert_eq!(
        made.text, expected,
        "bundle of {name} differs from {expected_file}"
    );

    let bundled = compile_bundle(name, &made.text);
    let original = compile_original(name, config);
    let (bundled_out, original_out) = (run(&bundled), run(&original));
    assert_eq!(
        bundled_out, original_out,
        "bundle and original crate disagree"
    );
    assert!(
        bundled_out.contains(marker),
        "output of {name} lacks {marker:?}:\n{bundled_out}"
    );
}

fn rustc_ok(cmd: &mut Command, what: &str) {
    let out = cmd.output().expect("rustc runs");
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn compile_bundle(name: &str, text: &str) -> PathBuf {
    let dir = scratch_dir(&format!("golden-{name}")).unwrap();
    let source = dir.join("bundle.rs");
    std::fs::write(&source, text).unwrap();
    let exe = dir.join("bundle");
    rustc_ok(
        Command::new("rustc")
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&exe)
            .arg(&source),
        &format!("compiling the bundle of {name}"),
    );
    exe
}

/// rustc itself resolves the original crate's modules: the reference the bundle must match.
fn compile_original(name: &str, config: &Config) -> PathBuf {
    let dir = scratch_dir(&format!("original-{name}")).unwrap();
    let lib = dir.join("libfixture.rlib");
    let mut cmd = Command::new("rustc");
    cmd.args([
        "--edition",
        "2021",
        "-O",
        "--crate-type",
        "lib",
        "--crate-name",
        "fixture",
    ]);
    for feature in &config.options.cfg.features {
        cmd.arg("--cfg").arg(format!("feature=\"{feature}\""));
    }
    rustc_ok(
        cmd.arg("-o").arg(&lib).arg(&config.root),
        &format!("compiling the original {name}"),
    );
    let main = dir.join("main.rs");
    std::fs::write(
        &main,
        format!("fn main() {{ fixture::{}() }}\n", config.entry),
    )
    .unwrap();
    let exe = dir.join("original");
    rustc_ok(
        Command::new("rustc")
            .args(["--edition", "2021", "-O", "--extern"])
            .arg(format!("fixture={}", lib.display()))
            .arg("-o")
            .arg(&exe)
            .arg(&main),
        &format!("compiling the main of {name}"),
    );
    exe
}

fn run(exe: &Path) -> String {
    let out = Command::new(exe).output().expect("program runs");
    assert!(out.status.success(), "{} failed", exe.display());
    let _ = std::fs::remove_dir_all(exe.parent().unwrap());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn mod_rs_layout() {
    golden(
        "mod_rs",
        &config("mod_rs"),
        "expected.rs",
        "hello from app/engine/deep.rs",
    );
}

#[test]
fn non_mod_rs_layout() {
    golden(
        "non_mod_rs",
        &config("non_mod_rs"),
        "expected.rs",
        "board+cell more",
    );
}

#[test]
fn nested_inline_modules() {
    golden(
        "inline_nested",
        &config("inline_nested"),
        "expected.rs",
        "app/outer/inner/leaf2.rs",
    );
}

#[test]
fn path_attributes() {
    let mut config = config("path_attr");
    config.modules = vec!["app".into(), "thing".into(), "alias".into()];
    golden(
        "path_attr",
        &config,
        "expected.rs",
        "sib.rs other_dir/leaf.rs app/inl/deep.rs thing+custom/child.rs elsewhere/leaf.rs",
    );
}

#[test]
fn cfg_items_with_feature_on() {
    golden(
        "cfg_items",
        &with_feature(config("cfg_items"), "fast"),
        "expected.rs",
        "not test speed 9 all_on true checks off fast yes 2 true A pair",
    );
}

#[test]
fn doc_comments_stripped_strings_kept() {
    let mut config = config("docs_strings");
    config.options.strip_docs = true;
    golden(
        "docs_strings",
        &config,
        "expected.rs",
        "mod fake; #[cfg(test)]",
    );
}

#[test]
fn comments_stripped_too() {
    let mut config = config("docs_strings");
    config.options.strip_docs = true;
    config.options.strip_comments = true;
    golden(
        "docs_strings",
        &config,
        "expected_no_comments.rs",
        "/* not a comment */",
    );
}

#[test]
fn tab_indentation_keeps_behaviour() {
    let mut config = config("docs_strings");
    config.options.tabs = true;
    golden(
        "docs_strings",
        &config,
        "expected_tabs.rs",
        "mod fake; #[cfg(test)]",
    );
}

#[test]
fn dependencies_pulled_in_on_request() {
    let mut config = config("deps");
    config.auto_deps = true;
    golden("deps", &config, "expected.rs", "deps: 4 9");
}

#[test]
fn a_use_of_a_left_out_module_is_reported() {
    let err = bundle(&config("deps")).unwrap_err();
    assert!(err.contains("app/mod.rs:3: uses `crate::helper`"), "{err}");
    assert!(err.contains("app/inner.rs:1: uses `crate::tools`"), "{err}");
    let mut excluded = config("deps");
    excluded.auto_deps = true;
    excluded.exclude = vec!["tools".into()];
    let err = bundle(&excluded).unwrap_err();
    assert!(
        err.contains("crate::tools") && !err.contains("helper"),
        "{err}"
    );
}

/// A throw-away crate with the given files, for the error cases.
fn scratch_crate(tag: &str, files: &[(&str, &str)]) -> Config {
    let dir = scratch_dir(tag).unwrap();
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    Config {
        root: dir.join("src/lib.rs"),
        ..config("unused")
    }
}

fn bundle_error(tag: &str, files: &[(&str, &str)]) -> String {
    let config = scratch_crate(tag, files);
    let err = bundle(&config).unwrap_err();
    let _ = std::fs::remove_dir_all(config.root.parent().unwrap().parent().unwrap());
    err
}

#[test]
fn bad_crates_get_one_clear_error_each() {
    let lib = ("src/lib.rs", "pub mod app;\n");
    let err = bundle_error(
        "missing",
        &[lib, ("src/app.rs", "mod gone;\npub fn run() {}\n")],
    );
    assert!(
        err.contains("app.rs:1: file not found for module `gone`"),
        "{err}"
    );
    assert!(
        err.contains("app/gone.rs") && err.contains("app/gone/mod.rs"),
        "{err}"
    );

    let err = bundle_error(
        "ambiguous",
        &[lib, ("src/app.rs", ""), ("src/app/mod.rs", "")],
    );
    assert!(err.contains("module `app` found at both"), "{err}");

    let app = "#[cfg(target_feature = \"avx2\")]\nfn f() {}\npub fn run() {}\n";
    let err = bundle_error("unknown-cfg", &[lib, ("src/app.rs", app)]);
    assert!(
        err.contains("app.rs:1: unknown cfg key `target_feature"),
        "{err}"
    );

    let err = bundle_error("syntax", &[lib, ("src/app.rs", "pub fn run( {}\n")]);
    assert!(
        err.contains("app.rs:1:") && err.contains("cannot parse"),
        "{err}"
    );

    let app = "const WORDS: &str = include_str!(\"words.txt\");\npub fn run() {}\n";
    let err = bundle_error("include", &[lib, ("src/app.rs", app)]);
    assert!(
        err.contains("app.rs:1: reads a file at compile time"),
        "{err}"
    );

    let err = bundle_error(
        "no-module",
        &[("src/lib.rs", "pub mod other;\n"), ("src/other.rs", "")],
    );
    assert!(err.contains("module `app` is not declared"), "{err}");
}

#[test]
fn size_limit_verdict() {
    let (chars, line) = bundler::bundle::size_line("é".repeat(10).as_str(), 10);
    assert_eq!(chars, 10, "characters, not bytes");
    assert!(line.ends_with(": ok"), "{line}");
    let (_, line) = bundler::bundle::size_line(&"x".repeat(11), 10);
    assert!(line.ends_with("TOO LARGE"), "{line}");
}
