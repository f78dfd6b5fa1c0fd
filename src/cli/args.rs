//! Argument parsers shared by both command lines (`bot` and `tester`): durations, bounded
//! integers, output files and plain names. Each is a clap `value_parser`, so a bad value is
//! clap's one-line error before any work starts.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The longest duration any option accepts: one day. Longer is a typo, and `Duration` arithmetic
/// on absurd values (1e30 s) panics.
pub const MAX_SECONDS: u64 = 86_400;

/// A number of seconds (decimals allowed), more than 0 and at most `MAX_SECONDS`.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let value = number(text)?;
    if !(value > 0.0 && value <= MAX_SECONDS as f64) {
        return Err(format!(
            "must be more than 0 and at most {MAX_SECONDS} seconds (one day)"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

/// A whole number of milliseconds, from 1 to one day.
pub fn millis(text: &str) -> Result<u64, String> {
    integer_in(text, 1, MAX_SECONDS * 1000)
}

/// A threshold in milliseconds (decimals allowed), from 0 to one day.
pub fn millis_threshold(text: &str) -> Result<f64, String> {
    let value = number(text)?;
    if !(0.0..=(MAX_SECONDS * 1000) as f64).contains(&value) {
        return Err(format!(
            "must be at least 0 and at most {} milliseconds (one day)",
            MAX_SECONDS * 1000
        ));
    }
    Ok(value)
}

/// A finite decimal number.
fn number(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| "not a number".to_string())?;
    if !value.is_finite() {
        return Err("not a finite number".into());
    }
    Ok(value)
}

/// A whole number in `min..=max`.
pub fn integer_in(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let out_of_range = || format!("must be a whole number from {min} to {max}");
    let value: u64 = text.trim().parse().map_err(|_| out_of_range())?;
    if !(min..=max).contains(&value) {
        return Err(out_of_range());
    }
    Ok(value)
}

/// Seeds `first`, `first + 1`, ... for `count` runs (`count_option` names the option that gave
/// the count, for the error): refused when they would pass the largest seed, rather than
/// wrapping around or silently running fewer.
pub fn seed_range(
    first: u64,
    count: u64,
    count_option: &str,
) -> Result<std::ops::RangeInclusive<u64>, String> {
    match count.checked_sub(1).map(|steps| first.checked_add(steps)) {
        Some(Some(last)) => Ok(first..=last),
        Some(None) => Err(format!(
            "--seed {first} with {count_option} {count}: the seeds would run past {} (at most {} from this seed)",
            u64::MAX,
            u64::MAX - first + 1
        )),
        None => Err(format!("{count_option} 0: nothing to run")),
    }
}

/// A file to write later: checked now (its folder exists and takes a new file, see
/// `output::check`), so a long run does not fail at its end.
pub fn output_file(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    check_output_file(&path)?;
    Ok(path)
}

/// `output_file`'s check, for paths that do not come from a clap argument.
pub fn check_output_file(path: &Path) -> Result<(), String> {
    super::output::check(path)
}

/// Whether two paths name one file: the same file when both exist, else the same place once
/// their folders are resolved (`dir/./x` and `dir/x`, a folder reached through a link).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    let resolved = |p: &Path| -> Option<PathBuf> {
        let folder = match p.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        Some(folder.canonicalize().ok()?.join(p.file_name()?))
    };
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Longest plain name accepted (file systems allow 255 bytes, and names get suffixes).
pub const MAX_NAME: usize = 100;

/// A plain name used as part of a file name (a level id): letters, digits, `-`, `_`, `.`, not
/// starting with `.`; so it can never reach outside the output folder.
pub fn plain_name(text: &str) -> Result<String, String> {
    let plain = !text.is_empty()
        && text.len() <= MAX_NAME
        && !text.starts_with('.')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !plain {
        return Err(format!(
            "{} is not a plain name (1 to {MAX_NAME} of A-Z a-z 0-9 - _ ., not starting with .)",
            crate::source_error::quote(text)
        ));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_finite_positive_and_at_most_a_day() {
        assert_eq!(seconds("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(seconds(" 86400 "), Ok(Duration::from_secs(86_400)));
        for bad in [
            "nan", "inf", "-inf", "1e30", "0", "-1", "", "x", "86400.5", "1e-400",
        ] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(millis("1"), Ok(1));
        assert_eq!(millis("86400000"), Ok(86_400_000));
        for bad in [
            "0",
            "-5",
            "1.5",
            "nan",
            "86400001",
            "99999999999999999999999",
        ] {
            assert!(millis(bad).is_err(), "{bad}");
        }
        assert_eq!(millis_threshold("0"), Ok(0.0));
        assert_eq!(millis_threshold("45.5"), Ok(45.5));
        for bad in ["-0.1", "nan", "inf", "1e300"] {
            assert!(millis_threshold(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn integers_are_checked_against_their_range() {
        assert_eq!(integer_in("3", 3, 9), Ok(3));
        let e = integer_in("2", 3, 9).unwrap_err();
        assert_eq!(e, "must be a whole number from 3 to 9");
        assert!(integer_in("10", 3, 9).is_err() && integer_in("-1", 0, 9).is_err());
    }

    #[test]
    fn seed_ranges_end_at_the_last_seed() {
        assert_eq!(seed_range(5, 3, "--runs"), Ok(5..=7));
        assert_eq!(seed_range(u64::MAX, 1, "--runs"), Ok(u64::MAX..=u64::MAX));
        assert_eq!(seed_range(u64::MAX - 2, 3, "--runs").unwrap().count(), 3);
        let e = seed_range(u64::MAX - 2, 5, "--runs").unwrap_err();
        assert_eq!(
            e,
            "--seed 18446744073709551613 with --runs 5: the seeds would run past 18446744073709551615 (at most 3 from this seed)"
        );
        assert!(seed_range(1, 0, "--count").is_err());
    }

    #[test]
    fn output_files_need_an_existing_folder() {
        let dir = std::env::temp_dir();
        let inside = dir.join("bot-args-out.txt");
        assert_eq!(output_file(inside.to_str().unwrap()), Ok(inside));
        assert!(output_file("plain-in-current-folder.txt").is_ok());
        let e = output_file("/nonexistent-bot-dir/sub/x.cwg").unwrap_err();
        assert!(e.contains("/nonexistent-bot-dir/sub does not exist"), "{e}");
        let e = output_file(dir.to_str().unwrap()).unwrap_err();
        assert!(e.contains("is a folder"), "{e}");
        assert!(output_file("").is_err());
    }

    #[test]
    fn names_are_plain() {
        assert_eq!(plain_name("honey12"), Ok("honey12".to_string()));
        assert!(plain_name("a-b_c.1").is_ok());
        for bad in ["", "../evil", "a/b", "..", ".hidden", "a\\b", "x\ny", "é"] {
            assert!(plain_name(bad).is_err(), "{bad:?}");
        }
        assert!(plain_name(&"a".repeat(MAX_NAME + 1)).is_err());
        assert!(plain_name("../evil")
            .unwrap_err()
            .starts_with("\"../evil\" is not"));
    }
}
