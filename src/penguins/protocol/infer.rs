//! Reading the rules from the game itself. The bot starts from `league2` (pushing on, the rules of
//! every league where ranking happens) and drops pushing once the input shows it is off: between
//! two turns a penguin slid up to another one that stood at the sea's edge in line with it, and
//! that one is still there.
//!
//! Why two snapshots are enough, whoever moved in between: a penguin never comes back to a cell it
//! left (the tile goes), so the same penguin on the same cell in both snapshots stood there all
//! along; sea never turns back into ice, so sea behind it in the first snapshot was sea when the
//! other penguin arrived; and the slider's last slide ended where it is now, in line with where it
//! was (if it slid twice, both slides ran along that line, since it could not pass the penguin
//! it stopped next to). Under the push rule that penguin would have fallen. Our own slide is
//! known better still: it was played on the first snapshot itself, so the penguin it stopped
//! next to only has to be still listed, wherever it went since.

use super::input::{PenguinLine, Turn};
use crate::penguins::board::{cell_name, Cell, LINE_DIRECTION, NEIGHBOUR, NO_CELL, NO_DIRECTION};
use crate::penguins::rules::Rules;

/// The previous clean turn's board and penguins.
#[derive(Clone, Debug, Default)]
pub struct PushWatch {
    previous: Option<(Vec<u8>, Vec<PenguinLine>)>,
}

impl PushWatch {
    /// Call with each new turn before deciding it: if it shows that pushing is off, `rules` loses
    /// it and the one-time note is returned. Turns with malformed lines are not used (a broken
    /// row would look like sea).
    pub fn check(&mut self, turn: &Turn, me: usize, rules: &mut Rules) -> Option<String> {
        let clean = turn.problems.is_empty();
        let previous = std::mem::replace(
            &mut self.previous,
            clean.then(|| (turn.fish.clone(), turn.penguins.clone())),
        );
        if !rules.push || !clean {
            return None;
        }
        let (fish, before) = previous?;
        let (slider, stayer) = unpushed(&fish, &before, &turn.penguins, me)?;
        rules.push = false;
        Some(format!(
            "penguin {} slid to {} next to penguin {stayer} at the sea's edge in line, and \
             penguin {stayer} is still on the board: pushing is off in this game, playing \
             without it from now on (rules {})",
            slider.id,
            cell_name(slider.cell),
            rules.describe()
        ))
    }
}

/// A penguin that slid between the two snapshots and stopped right before another one with sea
/// behind it, which was not pushed: (the slider now, the id of the penguin that stayed).
fn unpushed<'a>(
    fish_before: &[u8],
    before: &[PenguinLine],
    now: &'a [PenguinLine],
    me: usize,
) -> Option<(&'a PenguinLine, u32)> {
    let at = |list: &[PenguinLine], id: u32| list.iter().find(|p| p.id == id).map(|p| p.cell);
    let is_sea = |cell: Cell| cell == NO_CELL || fish_before[cell as usize] == 0;
    now.iter().find_map(|slider| {
        let from = at(before, slider.id)?;
        let dir = LINE_DIRECTION[from as usize][slider.cell as usize];
        if dir == NO_DIRECTION {
            return None;
        }
        let next = NEIGHBOUR[slider.cell as usize][dir as usize];
        if next == NO_CELL {
            return None;
        }
        if !is_sea(NEIGHBOUR[next as usize][dir as usize]) {
            return None;
        }
        let stayer = if slider.owner == me {
            // Our slide was played on the first snapshot: whoever stood there then.
            let there = before.iter().find(|p| p.cell == next)?;
            at(now, there.id).map(|_| there.id)
        } else {
            let here = now.iter().find(|p| p.cell == next)?;
            (at(before, here.id) == Some(next)).then_some(here.id)
        };
        stayer.map(|id| (slider, id))
    })
}
