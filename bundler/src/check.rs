//! Proving the bundle: compile it alone with `rustc --edition 2021 -O`, no Cargo, no crates.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The outcome of one compile check.
#[derive(Debug)]
pub struct CheckResult {
    pub ok: bool,
    pub warnings: usize,
    pub seconds: f64,
    /// rustc's diagnostics (empty when clean).
    pub diagnostics: String,
    pub rustc_version: String,
}

/// Compile `source_file` into `out` (an executable path).
pub fn compile(rustc: &str, source_file: &Path, out: &Path) -> Result<CheckResult, String> {
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run `{rustc} --version`: {e}"))?;
    let started = Instant::now();
    let output = Command::new(rustc)
        .args(["--edition", "2021", "-O", "--crate-type", "bin", "-o"])
        .arg(out)
        .arg(source_file)
        .output()
        .map_err(|e| format!("cannot run `{rustc}`: {e}"))?;
    let diagnostics = String::from_utf8_lossy(&output.stderr).into_owned();
    Ok(CheckResult {
        ok: output.status.success(),
        warnings: diagnostics
            .lines()
            .filter(|l| {
                l.starts_with("warning:")
                    && !l.contains("warning emitted")
                    && !l.contains("warnings emitted")
            })
            .count(),
        seconds: started.elapsed().as_secs_f64(),
        diagnostics,
        rustc_version: String::from_utf8_lossy(&version.stdout).trim().to_string(),
    })
}

/// A fresh scratch directory under the system temp dir.
pub fn scratch_dir(tag: &str) -> Result<PathBuf, String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("bundler-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}
