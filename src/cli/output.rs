//! The files a command writes, for both command lines. `check` runs before the work starts: the
//! folder must exist and take a new file, so a long run never fails at its end for a path it could
//! have refused at once. `write` puts the whole text into a temporary file beside the target,
//! syncs it and renames it over the target: a failure (a full disk, a signal, an error while
//! producing the text) leaves the previous file or nothing, never a fragment or an empty file.
//! A target that is a link is written through the link; a device or a pipe (`/dev/null`,
//! `/dev/stdout`) is written in place, as there is nothing to replace.

use std::fs::{OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Check that `path` can be written later: not empty, not a folder, in a folder that exists and
/// takes a new file (tried with a temporary file, removed at once).
pub fn check(path: &Path) -> Result<(), String> {
    if path.as_os_str().is_empty() {
        return Err("empty file name".into());
    }
    let target = resolve(path);
    if target.is_dir() {
        return Err(format!("{} is a folder, not a file", path.display()));
    }
    if is_special(&target) {
        return Ok(());
    }
    let folder = folder_of(&target);
    if !folder.is_dir() {
        return Err(format!("folder {} does not exist", folder.display()));
    }
    temp_file_in(&folder, &target)
        .map(drop)
        .map_err(|e| cannot_write(path, &e))
}

/// Check that files can be created in the folder `dir` (which must exist).
pub fn check_folder(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    temp_file_in(dir, &dir.join("probe"))
        .map(drop)
        .map_err(|e| format!("cannot write in {}: {}", dir.display(), reason(&e)))
}

/// Write `bytes` to `path` whole or not at all (see the module comment).
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    write_with(path, |out| out.write_all(bytes.as_ref()))
}

/// Write what `fill` writes to `path` whole or not at all: an error from `fill` leaves the
/// previous file as it was, like an error of the disk.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    let target = resolve(path);
    let fail = |e: io::Error| cannot_write(path, &e);
    if is_special(&target) {
        let file = OpenOptions::new().write(true).open(&target).map_err(fail)?;
        let mut out = BufWriter::new(file);
        return fill(&mut out).and_then(|()| out.flush()).map_err(fail);
    }
    let mut temp = temp_file_in(&folder_of(&target), &target).map_err(fail)?;
    {
        let mut out = BufWriter::new(temp.as_file_mut());
        fill(&mut out).and_then(|()| out.flush()).map_err(fail)?;
    }
    // A file written before keeps its permissions.
    if let Ok(previous) = std::fs::metadata(&target) {
        let _ = temp.as_file().set_permissions(previous.permissions());
    }
    // Synced before the rename: some file systems report a full disk only here, and a crash
    // after the rename must not leave an empty file.
    temp.as_file().sync_all().map_err(fail)?;
    // On failure the temporary file is dropped, hence removed.
    temp.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The file a write lands in: a link's target (so the link stays a link), else the path itself.
pub fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Whether `path` exists and is neither a plain file nor a folder (a device, a pipe).
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file in `folder` named after `target` (`.NAME.XXXXXX.tmp`, so one left by a
/// killed run says whose it was), readable as a new file of the user's would be.
fn temp_file_in(folder: &Path, target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    // Names are at most 255 bytes: a long one is cut (on a character boundary).
    let mut cut = name.len().min(100);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let prefix = format!(".{}.", &name[..cut]);
    tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(folder)
}

fn cannot_write(path: &Path, e: &io::Error) -> String {
    format!("cannot write {}: {}", path.display(), reason(e))
}

/// The system's words for an error, without the temporary file's name that `tempfile` appends
/// (" at path ...": the name is ours, not the user's).
fn reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at path \"") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        test_support::scratch_dir(&format!("bot-output-{name}"))
    }

    #[test]
    fn a_write_replaces_the_file_whole() {
        let dir = dir("whole");
        let path = dir.join("r.json");
        write(&path, "first").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write(&path, "second, longer").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second, longer");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o777,
            0o640,
            "the previous file's permissions are kept"
        );
        assert_eq!(
            test_support::file_names(&dir),
            ["r.json"],
            "no temporary file is left"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failure_while_writing_leaves_the_previous_file_and_no_temporary_file() {
        let dir = dir("fail");
        let path = dir.join("r.json");
        std::fs::write(&path, "the previous results").unwrap();
        // Half the text written, then an error (as a full disk gives).
        let e = write_with(&path, |out| {
            out.write_all(&[b'x'; 100_000])?;
            Err(io::Error::from_raw_os_error(28))
        })
        .unwrap_err();
        assert_eq!(
            e,
            format!(
                "cannot write {}: No space left on device (os error 28)",
                path.display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "the previous results"
        );
        assert_eq!(test_support::file_names(&dir), ["r.json"]);
        // No previous file: nothing at all is left.
        let fresh = dir.join("new.json");
        assert!(write_with(&fresh, |out| {
            out.write_all(b"{\"games\": [")?;
            Err(io::Error::other("the text could not be made"))
        })
        .is_err());
        assert!(!fresh.exists());
        assert_eq!(test_support::file_names(&dir), ["r.json"]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_rename_that_fails_leaves_no_temporary_file() {
        let dir = dir("rename");
        // A folder that is not empty cannot be replaced by a file.
        let taken = dir.join("taken");
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("inside"), "kept").unwrap();
        let e = write(&taken, "text").unwrap_err();
        assert!(
            e.starts_with(&format!("cannot write {}: ", taken.display())),
            "{e}"
        );
        assert_eq!(test_support::file_names(&dir), ["taken"]);
        assert_eq!(
            std::fs::read_to_string(taken.join("inside")).unwrap(),
            "kept"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn links_are_written_through_and_devices_in_place() {
        let dir = dir("link");
        let real = dir.join("real.txt");
        std::fs::write(&real, "old").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write(&link, "new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        check(Path::new("/dev/null")).unwrap();
        write(Path::new("/dev/null"), "discarded").unwrap();
        use std::os::unix::fs::FileTypeExt;
        let null = std::fs::metadata("/dev/null").unwrap().file_type();
        assert!(null.is_char_device(), "/dev/null is still the device");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn checks_refuse_what_cannot_be_written_and_leave_nothing() {
        let dir = dir("check");
        check(&dir.join("ok.txt")).unwrap();
        assert!(
            test_support::file_names(&dir).is_empty(),
            "the trial file is removed"
        );
        let e = check(&dir.join("missing/x.txt")).unwrap_err();
        assert!(e.ends_with("missing does not exist"), "{e}");
        let e = check(&dir).unwrap_err();
        assert!(e.ends_with("is a folder, not a file"), "{e}");
        assert_eq!(check(Path::new("")).unwrap_err(), "empty file name");
        // A folder that exists but takes no file (root may write anywhere else).
        let e = check(Path::new("/proc/x.json")).unwrap_err();
        assert!(e.starts_with("cannot write /proc/x.json: "), "{e}");
        assert!(
            !e.contains(".tmp"),
            "the trial file's name is not the user's: {e}"
        );
        check_folder(&dir).unwrap();
        let e = check_folder(Path::new("/proc")).unwrap_err();
        assert!(e.starts_with("cannot write in /proc: "), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
