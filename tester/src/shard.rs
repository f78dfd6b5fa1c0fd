//! Sharded runs and their merge, for every command with a fixed plan (`tester arena`, `tester
//! splitter`, `tester scruffle bench`): `--shard K/N` plays the K-th of N interleaved slices of
//! the plan and writes a results file; `merge` reads the files of all slices, checks they belong
//! to one plan (same tool, build and configuration, every game exactly once) and hands the games
//! back in plan order, so the report is computed as if one machine had played them all.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::path::Path;

/// Most slices a plan is cut into.
pub const MAX_SHARDS: usize = 100_000;

/// Version of the results-file layout.
pub const FORMAT: u32 = 1;

/// The build that wrote a file: the package version and the source commit (see `build.rs`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("TESTER_BUILD"), ")");

/// Slice `index` (1-based) of `count`: the plan units `u` with `u % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole plan as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    pub fn holds(&self, unit: usize) -> bool {
        unit % self.count == self.index - 1
    }

    fn check(&self) -> Result<(), String> {
        if self.count == 0 || self.count > MAX_SHARDS || !(1..=self.count).contains(&self.index) {
            return Err(format!(
                "shard {}/{}: K/N needs 1 <= K <= N <= {MAX_SHARDS}",
                self.index, self.count
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `--shard K/N` (a clap value parser).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected K/N with 1 <= K <= N <= {MAX_SHARDS}, like 2/8");
    let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let number = |s: &str| bot::cli::args::integer_in(s, 1, MAX_SHARDS as u64).map_err(|_| bad());
    let shard = Shard {
        index: number(k)? as usize,
        count: number(n)? as usize,
    };
    shard.check().map_err(|_| bad())?;
    Ok(shard)
}

/// What every results file starts with: which layout, which tool and build wrote it, which slice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub format: u32,
    pub tool: String,
    pub version: String,
    pub shard: Shard,
}

impl RunInfo {
    pub fn new(tool: &str, shard: Shard) -> RunInfo {
        RunInfo {
            format: FORMAT,
            tool: tool.to_string(),
            version: VERSION.to_string(),
            shard,
        }
    }
}

/// A results file as `merge` reads it: its name (for errors), its header and configuration (as
/// JSON, compared between files), and the rest, tool-specific.
#[derive(Debug)]
pub struct Loaded<T> {
    pub name: String,
    pub run: RunInfo,
    pub body: T,
}

#[derive(Deserialize)]
struct Envelope {
    run: RunInfo,
    config: serde_json::Value,
}

/// Most characters of a parser's message shown (it can quote the file).
const MAX_MESSAGE: usize = 200;

/// One line, control characters escaped, at most `MAX_MESSAGE` characters.
pub fn one_line(message: &str) -> String {
    let escaped: String = message.chars().flat_map(char::escape_debug).collect();
    match escaped.char_indices().nth(MAX_MESSAGE) {
        Some((cut, _)) => format!("{}…", &escaped[..cut]),
        None => escaped,
    }
}

/// Read the results files of `tool` (at least one): each parsed (size capped, errors naming the
/// file), and all from the same layout, tool, build and configuration. `T` is the tool's view of
/// a file (its configuration included).
pub fn load<T: serde::de::DeserializeOwned>(
    paths: &[impl AsRef<Path>],
    tool: &str,
) -> Result<Vec<Loaded<T>>, String> {
    if paths.is_empty() {
        return Err("no results files given".into());
    }
    let mut loaded: Vec<Loaded<T>> = Vec::new();
    let mut first_config: Option<serde_json::Value> = None;
    for path in paths {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = bot::source_error::read_bytes(path).map_err(|e| e.to_string())?;
        let parse_error = |e: serde_json::Error| format!("{name}: {}", one_line(&e.to_string()));
        let envelope: Envelope = serde_json::from_slice(&bytes).map_err(|e| {
            format!(
                "{name}: not a results file of `tester {tool} --shard` ({})",
                one_line(&e.to_string())
            )
        })?;
        let run = envelope.run;
        if run.format != FORMAT {
            return Err(format!(
                "{name}: results format {} (this tester reads format {FORMAT})",
                run.format
            ));
        }
        if run.tool != tool {
            return Err(format!(
                "{name}: results of `tester {}`, not of `tester {tool}`",
                one_line(&run.tool)
            ));
        }
        run.shard.check().map_err(|e| format!("{name}: {e}"))?;
        match (&first_config, loaded.first()) {
            (Some(config), Some(first)) => {
                if run.version != first.run.version {
                    return Err(format!(
                        "{name}: written by {}, but {} by {}: shards of one plan come from one build",
                        bot::source_error::quote(&run.version),
                        first.name,
                        bot::source_error::quote(&first.run.version)
                    ));
                }
                if let Some(difference) = difference("", config, &envelope.config) {
                    return Err(format!(
                        "{name}: another configuration than {}: {difference}",
                        first.name
                    ));
                }
            }
            _ => first_config = Some(envelope.config),
        }
        let body: T = serde_json::from_slice(&bytes).map_err(parse_error)?;
        loaded.push(Loaded { name, run, body });
    }
    if loaded[0].run.version != VERSION {
        eprintln!(
            "note: the shards were played by tester {}; this is tester {VERSION}",
            one_line(&loaded[0].run.version)
        );
    }
    Ok(loaded)
}

/// The first place where two configurations differ, as `path: A vs B` (values quoted short).
pub fn difference(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let at = |key: &str| match path {
        "" => key.to_string(),
        _ => format!("{path}.{key}"),
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let other = y.get(key).unwrap_or(&Value::Null);
                if let Some(d) = difference(&at(key), value, other) {
                    return Some(d);
                }
            }
            y.keys()
                .find(|key| !x.contains_key(*key))
                .and_then(|key| difference(&at(key), &Value::Null, &y[key]))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| difference(&at(&i.to_string()), p, q)),
        _ if a == b => None,
        _ => {
            let show = |v: &Value| bot::source_error::quote(v.to_string());
            Some(format!("{path} {} vs {}", show(a), show(b)))
        }
    }
}

/// One file's claim on the plan: the part of the plan it was asked to play a slice of
/// (`scope`: the whole plan, or some SPRT rounds), its slice, and where each of its games sits in
/// the plan.
pub struct Part<'a> {
    pub name: &'a str,
    pub shard: Shard,
    pub scope: Range<usize>,
    pub games: Vec<usize>,
}

/// Check that `parts` hold every game of `required` exactly once, each part exactly its slice of
/// its scope, and give for each plan index of `required`, in order, (part, position in the part).
/// `unit` maps a plan index to the unit shards are cut by (a seed with its seatings, a pair of
/// paired games); `describe` names a plan game in errors.
pub fn assemble(
    parts: &[Part],
    required: Range<usize>,
    unit: impl Fn(usize) -> usize,
    describe: impl Fn(usize) -> String,
) -> Result<Vec<(usize, usize)>, String> {
    let end = parts
        .iter()
        .map(|p| p.scope.end)
        .chain([required.end])
        .max()
        .unwrap_or(0);
    let mut owner: Vec<Option<(usize, usize)>> = vec![None; end];
    for (p, part) in parts.iter().enumerate() {
        for (j, &game) in part.games.iter().enumerate() {
            if !part.scope.contains(&game) || !part.shard.holds(unit(game)) {
                return Err(format!(
                    "{}: {} does not belong to shard {}",
                    part.name,
                    describe(game),
                    part.shard
                ));
            }
            if let Some((q, _)) = owner[game] {
                let other = &parts[q];
                return Err(if q == p {
                    format!("{}: {} appears twice", part.name, describe(game))
                } else if other.shard == part.shard && other.scope == part.scope {
                    format!(
                        "{}: shard {} is given twice (also {})",
                        part.name, part.shard, other.name
                    )
                } else {
                    format!(
                        "{} and {} both hold {} (shards {} and {})",
                        other.name,
                        part.name,
                        describe(game),
                        other.shard,
                        part.shard
                    )
                });
            }
            owner[game] = Some((p, j));
        }
    }
    // Every part holds its whole slice of its scope (a shard that stopped early is short, even
    // when a complete copy of it is given too). Slice sizes are counted once per distinct scope
    // and shard count: with N shards of one plan, that is once.
    let mut sizes: Vec<((usize, usize, usize), Vec<usize>)> = Vec::new();
    for (p, part) in parts.iter().enumerate() {
        let key = (part.scope.start, part.scope.end, part.shard.count);
        let slot = match sizes.iter().position(|(k, _)| *k == key) {
            Some(slot) => slot,
            None => {
                let mut per_index = vec![0; part.shard.count];
                for game in part.scope.clone() {
                    per_index[unit(game) % part.shard.count] += 1;
                }
                sizes.push((key, per_index));
                sizes.len() - 1
            }
        };
        let size = sizes[slot].1[part.shard.index - 1];
        if part.games.len() < size {
            let first = part
                .scope
                .clone()
                .find(|&g| part.shard.holds(unit(g)) && owner[g].is_none_or(|(q, _)| q != p))
                .expect("a game of the slice is not in the part");
            return Err(format!(
                "{}: shard {} lacks {} of its {size} games (the first: {}): did it stop early? play it again",
                part.name,
                part.shard,
                size - part.games.len(),
                describe(first)
            ));
        }
    }
    // Every game of the required range is there (no shard missing).
    for game in required.clone() {
        if owner[game].is_some() {
            continue;
        }
        let mut counts: Vec<usize> = parts
            .iter()
            .filter(|p| p.scope.contains(&game))
            .map(|p| p.shard.count)
            .collect();
        counts.sort_unstable();
        counts.dedup();
        return Err(match counts.as_slice() {
            [n] => format!(
                "shard {}/{n} is missing: no file holds {}",
                unit(game) % n + 1,
                describe(game)
            ),
            _ => format!("no file holds {}: a shard is missing", describe(game)),
        });
    }
    Ok(owner[required]
        .iter()
        .map(|o| o.expect("checked above"))
        .collect())
}

/// Write a results file (pretty JSON), naming the file in an error.
pub fn write(path: &Path, value: &impl Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    bot::cli::output::write(path, text)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
pub mod hostile;
