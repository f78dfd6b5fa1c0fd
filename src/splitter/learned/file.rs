//! The weight file: a short text header, then the tables as little-endian f32.
//!
//! ```text
//! splitter-value 1
//! layout 0 0 1 1 1 1 0 0/0 1 1 1 1 1 1 0/...
//! features groups-v1 16186
//! trained seed 1 games 1000000 alpha 1
//! tc yes
//! data
//! <weights> [<tc sums of errors> <tc sums of absolute errors>]
//! ```
//! Everything in the header is checked when the file is read (format version, layout, feature set
//! and size, data length), so a file trained for another board or feature set is refused with a
//! one-line error. With `tc yes` the temporal-coherence sums follow the weights, so training can
//! resume from the file exactly where it stopped.

use super::super::layout::{join_row, Layout};
use crate::source_error::SourceError;

pub const MAGIC: &str = "splitter-value";
pub const VERSION: u32 = 1;

/// Temporal-coherence learning state: per entry, the sum of the errors and of their sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct Coherence {
    pub errors: Vec<f32>,
    pub sizes: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WeightFile {
    /// The layout's rows as codes (`0 0 1 1/...`).
    pub layout: String,
    pub features: String,
    pub seed: u64,
    pub games: u64,
    /// The step-size scale it was trained with (informative; `--alpha`).
    pub alpha: f32,
    /// The network's step size (`--net-rate`), when the feature set has a network.
    pub net_rate: Option<f32>,
    pub weights: Vec<f32>,
    pub coherence: Option<Coherence>,
}

/// The layout as the header writes it.
pub fn layout_text(layout: &Layout) -> String {
    layout
        .rows()
        .iter()
        .map(|r| join_row(r))
        .collect::<Vec<_>>()
        .join("/")
}

impl WeightFile {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC} {VERSION}\nlayout {}\nfeatures {} {}\ntrained seed {} games {} alpha {}{}\ntc {}\ndata\n",
            self.layout,
            self.features,
            self.weights.len(),
            self.seed,
            self.games,
            self.alpha,
            self.net_rate
                .map_or(String::new(), |r| format!(" net-rate {r}")),
            if self.coherence.is_some() { "yes" } else { "no" }
        )
        .into_bytes();
        let mut put = |xs: &[f32]| {
            for x in xs {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        put(&self.weights);
        if let Some(c) = &self.coherence {
            put(&c.errors);
            put(&c.sizes);
        }
        out
    }

    /// The feature-set name in a file's header (its third line), if it has one.
    pub fn peek_features(bytes: &[u8]) -> Option<String> {
        let head = &bytes[..bytes.len().min(4096)];
        let text = String::from_utf8_lossy(head);
        let line = text.lines().nth(2)?.strip_prefix("features ")?;
        Some(line.split(' ').next()?.to_string())
    }

    /// Parse a file's bytes; `source` names it in errors. Checks the header against `layout` and
    /// the expected feature set and table size.
    pub fn parse(
        bytes: &[u8],
        source: &str,
        layout: &Layout,
        features: &str,
        len: usize,
    ) -> Result<WeightFile, SourceError> {
        let err = |line: usize, problem: String| SourceError::new(source, line, problem);
        let mut rest = bytes;
        let mut lines = Vec::new();
        loop {
            if lines.len() >= 8 {
                return Err(err(0, "no `data` line in the header".into()));
            }
            let Some(end) = rest.iter().take(4096).position(|&c| c == b'\n') else {
                return Err(err(
                    lines.len() + 1,
                    "header line missing or too long".into(),
                ));
            };
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| err(lines.len() + 1, "header is not text".into()))?
                .trim_end_matches('\r')
                .to_string();
            rest = &rest[end + 1..];
            if line == "data" {
                break;
            }
            lines.push(line);
        }
        let field = |n: usize, key: &str| -> Result<&str, SourceError> {
            lines
                .get(n)
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix(' '))
                .ok_or_else(|| err(n + 1, format!("expected `{key} ...`")))
        };
        let short = |s: &str| {
            s.chars()
                .take(40)
                .collect::<String>()
                .escape_debug()
                .to_string()
        };
        let version = field(0, MAGIC)?;
        if version != VERSION.to_string() {
            return Err(err(
                1,
                format!("format version '{}', expected {VERSION}", short(version)),
            ));
        }
        let file_layout = field(1, "layout")?.to_string();
        let want = layout_text(layout);
        if file_layout != want {
            return Err(err(
                2,
                format!("trained for layout '{}', not this one", short(&file_layout)),
            ));
        }
        let feat = field(2, "features")?;
        let (name, size) = feat.split_once(' ').unwrap_or((feat, ""));
        if name != features || size.parse::<usize>().ok() != Some(len) {
            return Err(err(
                3,
                format!("feature set '{}', expected '{features} {len}'", short(feat)),
            ));
        }
        let trained: Vec<&str> = field(3, "trained")?.split(' ').collect();
        let (seed, games, alpha, net_rate) = match trained.as_slice() {
            ["seed", s, "games", g, "alpha", a] => {
                (s.parse().ok(), g.parse().ok(), a.parse().ok(), Some(None))
            }
            ["seed", s, "games", g, "alpha", a, "net-rate", r] => (
                s.parse().ok(),
                g.parse().ok(),
                a.parse().ok(),
                r.parse::<f32>().ok().filter(|r| r.is_finite()).map(Some),
            ),
            _ => (None, None, None, None),
        };
        let (Some(seed), Some(games), Some(alpha), Some(net_rate)) = (seed, games, alpha, net_rate)
        else {
            return Err(err(
                4,
                "expected `trained seed S games N alpha A [net-rate R]`".into(),
            ));
        };
        let tc = match field(4, "tc")? {
            "yes" => true,
            "no" => false,
            other => return Err(err(5, format!("tc '{}', expected yes or no", short(other)))),
        };
        let tables = if tc { 3 } else { 1 };
        if rest.len() != tables * len * 4 {
            return Err(err(
                0,
                format!(
                    "{} bytes of data, expected {}",
                    rest.len(),
                    tables * len * 4
                ),
            ));
        }
        let mut floats = rest
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = || -> Vec<f32> { floats.by_ref().take(len).collect() };
        let weights = take();
        let coherence = tc.then(|| Coherence {
            errors: take(),
            sizes: take(),
        });
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(err(0, "a weight is not a finite number".into()));
        }
        Ok(WeightFile {
            layout: file_layout,
            features: name.to_string(),
            seed,
            games,
            alpha,
            net_rate,
            weights,
            coherence,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::layout::official;
    use super::*;

    fn sample(tc: bool) -> WeightFile {
        WeightFile {
            layout: layout_text(&official(1)),
            features: "f1".into(),
            seed: 7,
            games: 123,
            alpha: 0.5,
            net_rate: tc.then_some(0.001),
            weights: vec![1.5, -2.0, 0.25],
            coherence: tc.then(|| Coherence {
                errors: vec![0.1, 0.2, 0.3],
                sizes: vec![1.0, 2.0, 3.0],
            }),
        }
    }

    #[test]
    fn round_trip_with_and_without_tc_state() {
        for tc in [false, true] {
            let f = sample(tc);
            let back = WeightFile::parse(&f.to_bytes(), "w", &official(1), "f1", 3).unwrap();
            assert_eq!(back, f);
        }
    }

    /// Every header problem is refused with the line it is on.
    #[test]
    fn bad_files_are_refused_with_the_line() {
        let good = sample(true).to_bytes();
        let text_end = good.windows(5).position(|w| w == b"data\n").unwrap();
        let header = std::str::from_utf8(&good[..text_end]).unwrap().to_string();
        let data = &good[text_end..];
        let with = |from: &str, to: &str| {
            let mut b = header.replacen(from, to, 1).into_bytes();
            b.extend_from_slice(data);
            b
        };
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                with("splitter-value 1", "splitter-value 2"),
                "w:1: format version",
            ),
            (with("splitter-value", "other"), "w:1: expected"),
            (
                with("layout 0 0 1", "layout 1 0 1"),
                "w:2: trained for layout",
            ),
            (with("features f1 3", "features f2 3"), "w:3: feature set"),
            (with("features f1 3", "features f1 4"), "w:3: feature set"),
            (with("games 123", "games x"), "w:4: expected"),
            (with("net-rate 0.001", "net-rate inf"), "w:4: expected"),
            (with("net-rate 0.001", "net-rate"), "w:4: expected"),
            (with("tc yes", "tc maybe"), "w:5: tc"),
            (good[..good.len() - 1].to_vec(), "w: 35 bytes of data"),
            (b"splitter-value 1\n".to_vec(), "w:2: header line"),
            (vec![0xff; 10], "w:1: header line"),
        ];
        for (bytes, want) in cases {
            let e = WeightFile::parse(&bytes, "w", &official(1), "f1", 3).unwrap_err();
            assert!(e.to_string().starts_with(want), "{want}: {e}");
        }
        let e = WeightFile::parse(&good, "w", &official(2), "f1", 3).unwrap_err();
        assert!(e.to_string().contains("trained for layout"), "{e}");
        let mut nan = sample(false);
        nan.weights[1] = f32::NAN;
        let e = WeightFile::parse(&nan.to_bytes(), "w", &official(1), "f1", 3).unwrap_err();
        assert!(e.to_string().contains("finite"), "{e}");
    }
}
