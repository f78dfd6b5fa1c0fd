//! The `bundler` command: size report, limit failure, compile check, clear errors, exit codes.

use std::process::Command;

fn bundler(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bundler"))
        .args(args)
        .output()
        .expect("bundler runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch_output(name: &str) -> String {
    let dir = bundler::check::scratch_dir(name).unwrap();
    dir.join("bundle.rs").display().to_string()
}

#[test]
fn reports_size_and_compile_check() {
    let output = scratch_output("cli-ok");
    let root = "tests/fixtures/mod_rs/src/lib.rs";
    let args = [
        "--root", root, "-m", "app", "--entry", "app::run", "-o", &output, "--check",
    ];
    let (ok, stderr) = bundler(&args);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("size: ") && stderr.contains("of 100000 allowed"),
        "{stderr}"
    );
    assert!(stderr.contains("compile check: ok with rustc"), "{stderr}");
    assert!(stderr.contains("module app"), "{stderr}");
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.contains("crate::app::run();"));
}

#[test]
fn fails_above_the_limit_and_on_bad_input() {
    let output = scratch_output("cli-limit");
    let root = "tests/fixtures/mod_rs/src/lib.rs";
    let base = [
        "--root", root, "-m", "app", "--entry", "app::run", "-o", &output,
    ];
    let (ok, stderr) = bundler(&[&base[..], &["--limit", "100"]].concat());
    assert!(!ok);
    assert!(stderr.contains("over the limit of 100"), "{stderr}");

    let (ok, stderr) = bundler(&["--root", "tests/fixtures/nowhere/src/lib.rs", "-o", &output]);
    assert!(!ok);
    assert!(
        stderr.starts_with("error: crate root: cannot read"),
        "{stderr}"
    );

    let entry = [
        "--root",
        root,
        "-m",
        "app",
        "--entry",
        "unused::not_bundled",
        "-o",
        &output,
    ];
    let (ok, stderr) = bundler(&entry);
    assert!(!ok);
    assert!(
        stderr.contains("entry `unused::not_bundled` is outside"),
        "{stderr}"
    );
}

/// The bundler's default invocation, no flags at all, run from the workspace root as the README
/// says: the real crate's bundle fits CodinGame's 100,000 characters.
#[test]
fn the_default_invocation_fits_codingame() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_bundler"))
        .current_dir(&root)
        .output()
        .expect("bundler runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("): ok"), "{stderr}");
    let text = std::fs::read_to_string(root.join("target/codingame/penguins.rs")).unwrap();
    assert!(text.chars().count() <= 100_000);
}

/// A write that fails midway (a file size limit, as on a full disk) leaves the previous bundle
/// whole and no temporary file beside it.
#[test]
fn a_failed_write_leaves_the_previous_bundle() {
    let output = scratch_output("cli-atomic");
    let dir = std::path::Path::new(&output).parent().unwrap();
    std::fs::write(&output, "the previous bundle").unwrap();
    let args = ["--root", "tests/fixtures/mod_rs/src/lib.rs", "-m", "app"];
    let (code, stderr) = test_support::with_file_limit(
        env!("CARGO_BIN_EXE_bundler"),
        1,
        &[&args[..], &["--entry", "app::run", "-o", &output]].concat(),
    );
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "the previous bundle"
    );
    assert_eq!(
        test_support::file_names(dir),
        ["bundle.rs"],
        "only the previous bundle is left"
    );
}
