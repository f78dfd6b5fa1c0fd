//! Reading the rules from the game itself. The bot starts from `league2` (pushing on, the rules of
//! every league where ranking happens) and drops pushing once the input shows it is off: our
//! last answer was a slide that stopped right before a penguin at the sea's edge, and that penguin
//! is still listed on the next turn. Only our own slides are used: between two of our turns every
//! other player may have moved, so their slides cannot be told apart as surely.

use super::input::Turn;
use crate::penguins::board::cell_name;
use crate::penguins::rules::Rules;

/// Remembers the penguin our last answer should have pushed into the sea.
#[derive(Clone, Copy, Debug, Default)]
pub struct PushWatch {
    expected: Option<u32>,
}

impl PushWatch {
    /// Call with each decision's `expected_push` (the CodinGame id our answer pushes, if any).
    pub fn expect(&mut self, victim: Option<u32>) {
        self.expected = victim;
    }

    /// Call with each new turn before deciding it: if the penguin our last answer should have
    /// pushed is still listed, pushing is off; `rules` loses it and the one-time note is returned.
    pub fn check(&mut self, turn: &Turn, rules: &mut Rules) -> Option<String> {
        let id = self.expected.take()?;
        if !rules.push {
            return None;
        }
        let still = turn.penguins.iter().find(|p| p.id == id)?;
        rules.push = false;
        Some(format!(
            "penguin {id} is still on {} after our slide stopped next to it at the sea's edge: \
             pushing is off in this game, playing without it from now on (rules {})",
            cell_name(still.cell),
            rules.describe()
        ))
    }
}
