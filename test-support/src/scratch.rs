//! A scratch folder for one test: under the system's temporary folder, named after the test and
//! this process so that concurrent runs never share one, emptied of a previous run's files.

use std::path::PathBuf;

/// An empty folder `<temp>/<name>-<process id>`, created afresh.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder in the temporary folder");
    dir
}

/// The names of the entries of `dir`, sorted.
pub fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder to list")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
