//! How long the bot thinks each turn, measured from the moment the turn's first input line
//! arrived (CodinGame starts its clock when it starts sending the turn's input, so ours starts no
//! earlier than the referee's).
//!
//! CodinGame allows Penguins 1000 ms for the first turn and 50 ms for every later one, and judges
//! by the wall clock. What is known of how it measures (the margin's reasons; sources in
//! docs/penguins.md): the timer runs from when the referee starts writing the input until it has
//! read the answer line; its game runner polls the bot's output every millisecond; the programs
//! run in shared virtual machines, where pauses of about 5 ms are common and 20 ms or more were
//! seen at busy times; experienced players keep 10-15 ms of a 50-100 ms turn in reserve. So the
//! CodinGame budget stops the search 10 ms before each later turn's limit (at 40 ms) and 100 ms
//! before the first turn's (at 900 ms); the answer follows within a fraction of a millisecond.

use std::time::Duration;

/// CodinGame's time for the first turn.
pub const CODINGAME_FIRST_TURN: Duration = Duration::from_millis(1000);
/// CodinGame's time for every later turn.
pub const CODINGAME_TURN: Duration = Duration::from_millis(50);
/// Time kept in reserve before the first turn's limit.
pub const FIRST_TURN_MARGIN: Duration = Duration::from_millis(100);
/// Time kept in reserve before a later turn's limit.
pub const TURN_MARGIN: Duration = Duration::from_millis(10);

/// Which time budget the bot plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// CodinGame's limits less the margins above: the default, and the bundle's.
    CodinGame,
    /// For a loaded local machine, where the process can be descheduled for 30 ms at a time:
    /// the search stops at 620 ms on the first turn and 18 ms after (the budget the bot played
    /// with before the CodinGame one; measured at loads of 10-14 on 2 cores).
    Conservative,
}

impl Budget {
    /// Names `parse` knows.
    pub const NAMES: &'static [&'static str] = &["codingame", "conservative"];

    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "codingame" => Ok(Budget::CodinGame),
            "conservative" => Ok(Budget::Conservative),
            other => {
                let shown: String = other.chars().take(40).collect();
                Err(format!(
                    "unknown budget {shown:?} (known: {})",
                    Self::NAMES.join(", ")
                ))
            }
        }
    }

    /// Time from the turn's first input line until the search must stop.
    pub fn search_time(self, first_turn: bool) -> Duration {
        match (self, first_turn) {
            (Budget::CodinGame, true) => CODINGAME_FIRST_TURN - FIRST_TURN_MARGIN,
            (Budget::CodinGame, false) => CODINGAME_TURN - TURN_MARGIN,
            (Budget::Conservative, true) => Duration::from_millis(620),
            (Budget::Conservative, false) => Duration::from_millis(18),
        }
    }

    /// One line for stderr at the first turn.
    pub fn describe(self) -> String {
        let name = match self {
            Budget::CodinGame => "codingame",
            Budget::Conservative => "conservative",
        };
        format!(
            "time budget {name}: search stops {} ms after the first turn's first input line, {} ms after later turns' (CodinGame allows {} / {} ms)",
            self.search_time(true).as_millis(),
            self.search_time(false).as_millis(),
            CODINGAME_FIRST_TURN.as_millis(),
            CODINGAME_TURN.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_codingame_limits_and_parse_by_name() {
        for name in Budget::NAMES {
            let budget = Budget::parse(name).unwrap();
            assert!(budget.search_time(true) < CODINGAME_FIRST_TURN);
            assert!(budget.search_time(false) < CODINGAME_TURN);
            assert!(budget.describe().contains(name));
        }
        assert_eq!(
            Budget::CodinGame.search_time(false),
            Duration::from_millis(40)
        );
        assert!(Budget::Conservative.search_time(false) < Budget::CodinGame.search_time(false));
        assert!(Budget::parse("fast")
            .unwrap_err()
            .contains("codingame, conservative"));
    }
}
