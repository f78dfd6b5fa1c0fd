//! The files a command writes after its games (`--json`, `--html`, `--csv`, `--replay`, `-l`):
//! claimed before the first game, so a path that cannot be written fails at once instead of after
//! hours of games, two options naming one file are refused, and an output never replaces one of
//! the command's inputs. Claiming creates (or empties) each file, so a previous run's file never
//! survives as if it were this run's; a file still empty when the claim is dropped (the command
//! failed or was interrupted before writing it) is removed again.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use bot::cli::args::same_file;

/// Output files created by `claim`.
#[derive(Debug)]
pub struct Claimed {
    paths: Vec<PathBuf>,
}

/// Check and create the outputs given as (option, path); `inputs` are files the command reads
/// (an output on one of them is refused before anything is written).
pub fn claim(outputs: &[(&str, Option<&Path>)], inputs: &[&Path]) -> Result<Claimed, String> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(option, path)| path.map(|p| (option, p)))
        .collect();
    for (i, &(option, path)) in given.iter().enumerate() {
        bot::cli::args::check_output_file(path).map_err(|e| format!("{option}: {e}"))?;
        if let Some((other, _)) = given[..i].iter().find(|(_, p)| same_file(p, path)) {
            return Err(format!(
                "{other} and {option} both name {}: give each output its own file",
                path.display()
            ));
        }
        if let Some(input) = inputs.iter().find(|input| same_file(input, path)) {
            return Err(format!(
                "{option} {}: that is an input of this command ({}); write elsewhere",
                path.display(),
                input.display()
            ));
        }
    }
    let mut claimed = Claimed { paths: Vec::new() };
    for (option, path) in given {
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| format!("{option} {}: cannot write: {e}", path.display()))?;
        claimed.paths.push(path.to_path_buf());
    }
    Ok(claimed)
}

impl Claimed {
    /// Remove every claimed file, written or not (a run that was cut short); only plain files
    /// (an output may be `/dev/null`).
    pub fn discard(mut self) {
        for path in self.paths.drain(..) {
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

impl Drop for Claimed {
    fn drop(&mut self) {
        for path in &self.paths {
            if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_created_at_once_and_removed_when_never_written() {
        let dir = test_support::scratch_dir("outputs-create");
        let (json, html) = (dir.join("r.json"), dir.join("r.html"));
        std::fs::write(&json, "the previous run's results").unwrap();
        let claimed = claim(&[("--json", Some(&json)), ("--html", Some(&html))], &[]).unwrap();
        assert_eq!(std::fs::read(&json).unwrap(), b"", "the old file is gone");
        assert!(html.is_file());
        std::fs::write(&html, "<p>written</p>").unwrap();
        drop(claimed);
        assert!(!json.exists(), "never written: removed");
        assert!(html.is_file(), "written: kept");
        let claimed = claim(&[("--json", Some(&json))], &[]).unwrap();
        std::fs::write(&json, "{}").unwrap();
        claimed.discard();
        assert!(!json.exists(), "discarded even when written");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn one_file_for_two_outputs_or_an_input_is_refused_before_anything_is_written() {
        let dir = test_support::scratch_dir("outputs-same");
        let json = dir.join("r.json");
        std::fs::write(&json, "keep me").unwrap();
        let spelled_otherwise = dir.join(".").join("r.json");
        let e = claim(
            &[
                ("--json", Some(&json)),
                ("--html", Some(&spelled_otherwise)),
            ],
            &[],
        )
        .unwrap_err();
        assert!(e.starts_with("--json and --html both name"), "{e}");
        let e = claim(&[("--html", Some(&json))], &[&spelled_otherwise]).unwrap_err();
        assert!(e.contains("that is an input of this command"), "{e}");
        assert_eq!(std::fs::read_to_string(&json).unwrap(), "keep me");
        let e = claim(&[("-l", Some(Path::new("/nonexistent/x.json")))], &[]).unwrap_err();
        assert!(
            e.starts_with("-l: folder /nonexistent does not exist"),
            "{e}"
        );
        // A folder that exists but takes no new file (root may write anywhere else).
        let e = claim(&[("--json", Some(Path::new("/proc/x.json")))], &[]).unwrap_err();
        assert!(e.starts_with("--json /proc/x.json: cannot write"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
