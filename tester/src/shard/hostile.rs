//! Test helper: damage a results file's JSON the way a broken disk, a hand edit or a hostile file
//! would (a value replaced by junk of another type or size, a key dropped, an array element
//! doubled or dropped), driven by numbers a property test draws, so a failure shrinks.

use serde_json::{json, Value};
use std::path::PathBuf;

/// Every value's JSON pointer, depth first.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                pointers(
                    v,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Apply one damage per pair of `choices` (which value, what to do).
pub fn damage(value: &mut Value, choices: &[(u64, u8)]) {
    for &(which, what) in choices {
        let mut all = Vec::new();
        pointers(value, String::new(), &mut all);
        let pointer = &all[which as usize % all.len()];
        let Some(target) = value.pointer_mut(pointer) else {
            continue;
        };
        *target = match (what % 10, &*target) {
            (0, _) => Value::Null,
            (1, _) => json!(u64::MAX),
            (2, _) => json!(-1),
            (3, _) => json!(1e300),
            (4, _) => json!("x\u{1b}[2J\n".repeat(40)),
            (5, _) => json!([]),
            (6, _) => json!({}),
            (7, Value::Number(n)) => json!(n.as_f64().unwrap_or(0.0) + 1.0),
            (7, Value::Array(items)) if !items.is_empty() => {
                let mut items = items.clone();
                items.push(items[which as usize % items.len()].clone());
                Value::Array(items)
            }
            (8, Value::Array(items)) if !items.is_empty() => {
                let mut items = items.clone();
                items.remove(which as usize % items.len());
                Value::Array(items)
            }
            (9, Value::Object(map)) if !map.is_empty() => {
                let mut map = map.clone();
                let key = map.keys().nth(which as usize % map.len()).cloned();
                map.remove(&key.unwrap_or_default());
                Value::Object(map)
            }
            (_, other) => json!([other.clone(), 0]),
        };
    }
}

/// A merge's error, as the command prints it: one line, short, no control characters.
fn is_one_clean_line(error: &str) -> bool {
    !error.chars().any(char::is_control) && error.chars().count() <= 1000
}

/// Write `files` as temporary results files, run `merge` on their paths, remove them.
pub fn merge_files<R>(files: &[Value], tag: &str, merge: impl FnOnce(Vec<PathBuf>) -> R) -> R {
    let paths: Vec<PathBuf> = (0..files.len())
        .map(|i| {
            let name = format!("hostile-{}-{tag}-{i}.json", std::process::id());
            let path = std::env::temp_dir().join(name);
            std::fs::write(&path, files[i].to_string()).unwrap();
            path
        })
        .collect();
    let result = merge(paths.clone());
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
    result
}

/// The property every merge keeps: with file `file` of `files` damaged by `damages`, the merge
/// works, or fails with one clean line; the message when it does not.
pub fn refused_cleanly<T>(
    mut files: Vec<Value>,
    file: usize,
    damages: &[(u64, u8)],
    merge: impl FnOnce(&[Value]) -> Result<T, String>,
) -> Result<(), String> {
    damage(&mut files[file], damages);
    match merge(&files) {
        Err(e) if !is_one_clean_line(&e) => Err(format!("not one clean line: {e:?}")),
        _ => Ok(()),
    }
}
