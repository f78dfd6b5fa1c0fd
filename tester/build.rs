//! Names the source the tester is built from (`TESTER_BUILD`: the git commit, plus a hash of
//! uncommitted changes), so that shard files written by different builds are never merged.
//! Without git (a source archive), `BOT_COMMIT` names the commit; else "commit unknown".

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir("..")
        // Never take the index lock: a build must not disturb a git command running beside it.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// FNV-1a, 64 bits: enough to tell two sets of uncommitted changes apart.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() {
    println!("cargo:rerun-if-env-changed=BOT_COMMIT");
    let build = match git(&["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let short: String = commit.chars().take(12).collect();
            match git(&["diff", "HEAD", "--no-ext-diff", "--no-color"]) {
                Some(diff) if !diff.is_empty() => {
                    format!("commit {short}, modified {:016x}", fnv1a(diff.as_bytes()))
                }
                _ => format!("commit {short}"),
            }
        }
        _ => match std::env::var("BOT_COMMIT") {
            Ok(commit) if !commit.trim().is_empty() => {
                let short: String = commit.trim().chars().take(12).collect();
                format!("commit {short}")
            }
            _ => "commit unknown".to_string(),
        },
    };
    println!("cargo:rustc-env=TESTER_BUILD={build}");
    // Run again when HEAD moves, something is staged, or a source changes (only paths that exist:
    // a missing one would make every build run this again).
    let mut watched: Vec<String> = ["build.rs", "Cargo.toml", "src", "../src", "../Cargo.toml"]
        .map(String::from)
        .to_vec();
    let branch = git(&["rev-parse", "--symbolic-full-name", "HEAD"]).unwrap_or_default();
    for name in ["HEAD", "index", "packed-refs", branch.as_str()] {
        if let Some(path) = git(&["rev-parse", "--git-path", name]).filter(|_| !name.is_empty()) {
            // Relative to the workspace root, where git ran.
            let path = Path::new("..").join(path);
            watched.push(path.display().to_string());
        }
    }
    for path in watched {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
