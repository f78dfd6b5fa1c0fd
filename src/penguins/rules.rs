//! Rule variants. The real referee is not public; every inferred rule is a switch, and
//! `Rules::default()` is the spec's default.

/// Where a penguin may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Placement {
    /// Any free ice block (the CodinGame statement; default).
    #[default]
    AnyTile,
    /// Only free one-fish tiles (the physical game).
    OneFishOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    pub placement: Placement,
    /// Higher-league push: a penguin may move onto an adjacent enemy penguin whose cell has a
    /// hole, missing cell or the edge right behind it (in the same direction); the enemy penguin
    /// is removed from the game. Off by default.
    pub push: bool,
    /// Tiles under penguins at the end score for their owner (the physical game). Off by default.
    pub score_tiles_under_penguins: bool,
    /// End the game as soon as only one player can move and it strictly leads. Off by default
    /// (the game then runs until nobody can move; the winner is the same either way).
    pub end_when_leader_alone: bool,
}

impl Rules {
    /// Parse a comma-separated list of switches: `one-fish`, `push`, `score-under`,
    /// `early-end` (empty or `default` = defaults).
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut rules = Rules::default();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "default" => {}
                "one-fish" => rules.placement = Placement::OneFishOnly,
                "push" => rules.push = true,
                "score-under" => rules.score_tiles_under_penguins = true,
                "early-end" => rules.end_when_leader_alone = true,
                other => {
                    return Err(format!(
                    "unknown rule switch {other:?} (known: one-fish, push, score-under, early-end)"
                ))
                }
            }
        }
        Ok(rules)
    }

    /// The switches that are on, in `parse` syntax (`default` when none).
    pub fn describe(&self) -> String {
        let mut words = Vec::new();
        if self.placement == Placement::OneFishOnly {
            words.push("one-fish");
        }
        if self.push {
            words.push("push");
        }
        if self.score_tiles_under_penguins {
            words.push("score-under");
        }
        if self.end_when_leader_alone {
            words.push("early-end");
        }
        if words.is_empty() {
            "default".to_string()
        } else {
            words.join(",")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_round_trip_and_unknown_words_fail() {
        assert_eq!(Rules::parse("").unwrap(), Rules::default());
        let all = Rules::parse("one-fish, push,score-under,early-end").unwrap();
        assert_eq!(Rules::parse(&all.describe()).unwrap(), all);
        assert_eq!(Rules::default().describe(), "default");
        assert!(Rules::parse("pusj").unwrap_err().contains("pusj"));
    }
}
