//! The files a command writes after its games (`--json`, `--html`, `--csv`, `--replay`, `-l`):
//! claimed before the first game, so a path that cannot be written fails at once instead of after
//! hours of games, two options naming one file are refused, and an output never replaces one of
//! the command's inputs. Claiming removes a previous run's file, so it never survives as if it
//! were this run's; each output is then written whole or not at all (`bot::cli::output::write`),
//! so a run that fails or is interrupted leaves nothing, never a fragment or an empty file.

use std::path::{Path, PathBuf};

use bot::cli::args::same_file;
use bot::cli::output;

/// Output files checked by `claim`.
#[derive(Debug)]
pub struct Claimed {
    paths: Vec<PathBuf>,
}

/// Check the outputs given as (option, path) and remove their previous files; `inputs` are files
/// the command reads (an output on one of them is refused before anything is touched).
pub fn claim(outputs: &[(&str, Option<&Path>)], inputs: &[&Path]) -> Result<Claimed, String> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(option, path)| path.map(|p| (option, p)))
        .collect();
    for (i, &(option, path)) in given.iter().enumerate() {
        output::check(path).map_err(|e| format!("{option}: {e}"))?;
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
        remove_plain_file(path)
            .map_err(|e| format!("{option} {}: cannot replace: {e}", path.display()))?;
        claimed.paths.push(path.to_path_buf());
    }
    Ok(claimed)
}

impl Claimed {
    /// Remove every claimed file already written (a run that was cut short).
    pub fn discard(mut self) {
        for path in self.paths.drain(..) {
            let _ = remove_plain_file(&path);
        }
    }
}

/// Remove the file `path` names (through a link), if it is a plain file: an output may be
/// `/dev/null`.
fn remove_plain_file(path: &Path) -> std::io::Result<()> {
    let target = output::resolve(path);
    match std::fs::symlink_metadata(&target) {
        Ok(m) if m.is_file() => std::fs::remove_file(target),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_removes_the_previous_file_and_a_discard_what_was_written() {
        let dir = test_support::scratch_dir("outputs-create");
        let (json, html) = (dir.join("r.json"), dir.join("r.html"));
        std::fs::write(&json, "the previous run's results").unwrap();
        let claimed = claim(&[("--json", Some(&json)), ("--html", Some(&html))], &[]).unwrap();
        assert!(!json.exists(), "the old file is gone");
        assert!(!html.exists(), "nothing is created before it is written");
        output::write(&html, "<p>written</p>").unwrap();
        drop(claimed);
        assert!(html.is_file(), "written: kept");
        let claimed = claim(&[("--json", Some(&json))], &[]).unwrap();
        output::write(&json, "{}").unwrap();
        claimed.discard();
        assert!(!json.exists(), "discarded even when written");
        // Through a link: the file it names goes, the link stays.
        let real = dir.join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let claimed = claim(&[("--json", Some(&link))], &[]).unwrap();
        assert!(!real.exists() && std::fs::symlink_metadata(&link).is_ok());
        claimed.discard();
        let claimed = claim(&[("--json", Some(Path::new("/dev/null")))], &[]).unwrap();
        claimed.discard();
        assert!(Path::new("/dev/null").exists());
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
        assert!(e.starts_with("--json: cannot write /proc/x.json"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
