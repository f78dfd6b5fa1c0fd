//! Evaluating `#[cfg(...)]` predicates the way rustc would for the bundle's configuration.
//!
//! The bundle is compiled by a plain `rustc -O` with no `--cfg` flags, so every predicate must be
//! decided here: items whose predicate is false are removed, and the `cfg` attribute of items whose
//! predicate is true is removed too (otherwise `feature = "x"` would turn false under plain rustc).

use std::collections::BTreeSet;

use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Meta, Token};

/// The configuration the bundle is built for.
#[derive(Clone, Debug, Default)]
pub struct CfgSet {
    /// `cfg(test)`: false for a bundle, settable for experiments.
    pub test: bool,
    /// `cfg(debug_assertions)`: false by default, as under `rustc -O`.
    pub debug_assertions: bool,
    /// Enabled Cargo features; every other `feature = "..."` is false.
    pub features: BTreeSet<String>,
    /// Extra names or `key=value` pairs declared true with `--cfg`.
    pub extra: BTreeSet<String>,
}

/// Target facts of CodinGame's machine (64-bit Linux on x86_64).
const TARGET: &[(&str, &str)] = &[
    ("target_os", "linux"),
    ("target_family", "unix"),
    ("target_arch", "x86_64"),
    ("target_pointer_width", "64"),
    ("target_endian", "little"),
    ("target_env", "gnu"),
    ("target_vendor", "unknown"),
    ("panic", "unwind"),
];

impl CfgSet {
    /// Evaluate one predicate such as `all(not(test), feature = "x")`.
    pub fn eval(&self, meta: &Meta) -> Result<bool, String> {
        match meta {
            Meta::Path(path) => {
                let name = path_name(path)?;
                self.eval_name(&name)
            }
            Meta::NameValue(nv) => {
                let key = path_name(&nv.path)?;
                let value = match &nv.value {
                    Expr::Lit(lit) => match &lit.lit {
                        Lit::Str(s) => s.value(),
                        _ => return Err(format!("cfg value of `{key}` is not a string")),
                    },
                    _ => return Err(format!("cfg value of `{key}` is not a string")),
                };
                self.eval_pair(&key, &value)
            }
            Meta::List(list) => {
                let name = path_name(&list.path)?;
                let args = list
                    .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                    .map_err(|e| format!("malformed cfg predicate `{name}(...)`: {e}"))?;
                let values = args
                    .iter()
                    .map(|m| self.eval(m))
                    .collect::<Result<Vec<bool>, String>>()?;
                match name.as_str() {
                    "all" => Ok(values.iter().all(|&v| v)),
                    "any" => Ok(values.iter().any(|&v| v)),
                    "not" if values.len() == 1 => Ok(!values[0]),
                    "not" => Err(format!("`not` takes one predicate, got {}", values.len())),
                    _ => Err(format!("unknown cfg operator `{name}`")),
                }
            }
        }
    }

    fn eval_name(&self, name: &str) -> Result<bool, String> {
        if self.extra.contains(name) {
            return Ok(true);
        }
        match name {
            "test" => Ok(self.test),
            "debug_assertions" => Ok(self.debug_assertions),
            "unix" => Ok(true),
            "windows" | "miri" | "doc" | "doctest" | "fuzzing" => Ok(false),
            _ => Err(format!(
                "unknown cfg name `{name}` (declare it with --cfg {name} if it should be true)"
            )),
        }
    }

    fn eval_pair(&self, key: &str, value: &str) -> Result<bool, String> {
        if key == "feature" {
            return Ok(self.features.contains(value));
        }
        if self.extra.contains(&format!("{key}={value}")) {
            return Ok(true);
        }
        match TARGET.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => Ok(*v == value),
            None if self.extra.iter().any(|e| e.starts_with(&format!("{key}="))) => Ok(false),
            None => Err(format!(
                "unknown cfg key `{key} = \"{value}\"` (declare it with --cfg {key}={value} if it should be true)"
            )),
        }
    }
}

fn path_name(path: &syn::Path) -> Result<String, String> {
    path.get_ident()
        .map(|i| i.to_string())
        .ok_or_else(|| "cfg predicate names must be single identifiers".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(cfg: &CfgSet, text: &str) -> Result<bool, String> {
        let meta: Meta = syn::parse_str(text).unwrap();
        cfg.eval(&meta)
    }

    /// A slow, obviously-correct twin: evaluate by recursive string rewriting on a tiny grammar.
    fn reference(cfg: &CfgSet, text: &str) -> bool {
        let text = text.trim();
        let inner = |prefix: &str| text.strip_prefix(prefix).and_then(|r| r.strip_suffix(')'));
        let split = |s: &str| -> Vec<String> {
            let (mut depth, mut parts, mut cur) = (0, vec![], String::new());
            for c in s.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(std::mem::take(&mut cur));
                        continue;
                    }
                    _ => {}
                }
                cur.push(c);
            }
            if !cur.trim().is_empty() {
                parts.push(cur);
            }
            parts
        };
        if let Some(rest) = inner("all(") {
            split(rest).iter().all(|p| reference(cfg, p))
        } else if let Some(rest) = inner("any(") {
            split(rest).iter().any(|p| reference(cfg, p))
        } else if let Some(rest) = inner("not(") {
            !reference(cfg, rest)
        } else if let Some(f) = text.strip_prefix("feature = \"") {
            cfg.features.contains(f.trim_end_matches('"'))
        } else {
            match text {
                "test" => cfg.test,
                "debug_assertions" => cfg.debug_assertions,
                _ => panic!("reference does not know {text}"),
            }
        }
    }

    #[test]
    fn random_predicates_match_the_reference_evaluator() {
        // Deterministic LCG: the tests may not depend on rand, and the seed is fixed.
        let mut state: u64 = 0x5eed_0001;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        fn gen(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> String {
            let leaf = [
                "test",
                "debug_assertions",
                "feature = \"a\"",
                "feature = \"b\"",
            ];
            if depth == 0 || next(3) == 0 {
                return leaf[next(4) as usize].to_string();
            }
            match next(3) {
                0 => format!("not({})", gen(next, depth - 1)),
                op => {
                    let n = next(4);
                    let parts: Vec<String> = (0..n).map(|_| gen(next, depth - 1)).collect();
                    let name = if op == 1 { "all" } else { "any" };
                    format!("{name}({})", parts.join(", "))
                }
            }
        }
        for case in 0..2000 {
            let text = gen(&mut next, 4);
            let cfg = CfgSet {
                test: case % 2 == 0,
                debug_assertions: case % 3 == 0,
                features: ["a", "b"]
                    .iter()
                    .filter(|_| next(2) == 0)
                    .map(|s| s.to_string())
                    .collect(),
                extra: BTreeSet::new(),
            };
            assert_eq!(
                eval(&cfg, &text).unwrap(),
                reference(&cfg, &text),
                "predicate {text} with {cfg:?}"
            );
        }
    }

    #[test]
    fn target_facts_and_errors() {
        let cfg = CfgSet::default();
        assert!(eval(&cfg, "target_os = \"linux\"").unwrap());
        assert!(!eval(&cfg, "target_os = \"windows\"").unwrap());
        assert!(eval(&cfg, "unix").unwrap());
        assert!(eval(&cfg, "not(test)").unwrap());
        assert!(eval(&cfg, "made_up").unwrap_err().contains("made_up"));
        assert!(eval(&cfg, "xor(test)").unwrap_err().contains("xor"));
        assert!(eval(&cfg, "not(test, test)").is_err());
        let extra = CfgSet {
            extra: ["made_up".to_string()].into_iter().collect(),
            ..CfgSet::default()
        };
        assert!(eval(&extra, "made_up").unwrap());
    }
}
