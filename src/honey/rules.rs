//! The open rule points (each a switch with the spec's default) and the answer's word directions.

use super::level::Dir6;
use std::fmt;

/// How hex rows are laid out on the rectangular grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Layout {
    /// Odd rows shifted half a cell right (the statement's picture).
    #[default]
    #[value(name = "odd-r")]
    OddR,
    /// Even rows shifted half a cell right.
    #[value(name = "even-r")]
    EvenR,
    /// Rhombus: up_right is (x+1, y-1), down_right is (x, y+1).
    #[value(name = "axial")]
    Axial,
}

/// What the cells a new word shares with existing letters may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Link {
    /// One contiguous run: a single letter or an entire existing word on the same line.
    #[default]
    Extend,
    /// Exactly one shared cell.
    Single,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Rules {
    pub layout: Layout,
    pub link: Link,
    /// Do letter/word bonuses and mines apply to the link (already placed) letters too?
    pub bonus_on_existing: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            layout: Layout::OddR,
            link: Link::Extend,
            bonus_on_existing: true,
        }
    }
}

impl Rules {
    /// All 12 switch combinations, the default first.
    pub fn all() -> Vec<Rules> {
        let mut out = Vec::new();
        for layout in [Layout::OddR, Layout::EvenR, Layout::Axial] {
            for link in [Link::Extend, Link::Single] {
                for bonus_on_existing in [true, false] {
                    out.push(Rules {
                        layout,
                        link,
                        bonus_on_existing,
                    });
                }
            }
        }
        out
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let layout = match self.layout {
            Layout::OddR => "odd-r",
            Layout::EvenR => "even-r",
            Layout::Axial => "axial",
        };
        let link = match self.link {
            Link::Extend => "extend",
            Link::Single => "single",
        };
        let bonus = if self.bonus_on_existing { "on" } else { "off" };
        write!(
            f,
            "--layout {layout} --link {link} --bonus-on-existing {bonus}"
        )
    }
}

/// The three directions a word may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum WordDir {
    #[serde(rename = "right")]
    Right,
    #[serde(rename = "up_right")]
    UpRight,
    #[serde(rename = "down_right")]
    DownRight,
}

impl WordDir {
    pub const ALL: [WordDir; 3] = [WordDir::Right, WordDir::UpRight, WordDir::DownRight];

    pub fn name(self) -> &'static str {
        match self {
            WordDir::Right => "right",
            WordDir::UpRight => "up_right",
            WordDir::DownRight => "down_right",
        }
    }

    /// Tie order among equal words and cells: down_right first, then right, then up_right.
    pub fn tie_rank(self) -> u8 {
        match self {
            WordDir::DownRight => 0,
            WordDir::Right => 1,
            WordDir::UpRight => 2,
        }
    }

    pub fn dir6(self) -> Dir6 {
        match self {
            WordDir::Right => Dir6::Right,
            WordDir::UpRight => Dir6::UpRight,
            WordDir::DownRight => Dir6::DownRight,
        }
    }
}
