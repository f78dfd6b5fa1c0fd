//! Rule sets and variant switches. CodinGame's package has two rule levels (`league1`, `league2`);
//! every rule the statements leave open is a switch, and `Rules::default()` is `league2`, the rules
//! of every league where ranking happens.

/// Where a penguin may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Placement {
    /// Any free ice block (the CodinGame statement; default).
    #[default]
    AnyTile,
    /// Only free one-fish tiles (the physical game).
    OneFishOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub placement: Placement,
    /// Level 2: a slide in direction d that stops on the cell right before a penguin P (any
    /// owner) whose next cell in d is a hole, a missing cell or off the board pushes P into the
    /// sea; P leaves the game, its tile stays. Automatic: every such slide pushes.
    pub push: bool,
    /// Tiles under penguins at the end score for their owner (the physical game). Off in both
    /// rule sets.
    pub score_tiles_under_penguins: bool,
    /// End the game as soon as exactly one player can still move and it is strictly ahead of
    /// every other player still in the game (on a tie the game plays on).
    pub end_when_leader_alone: bool,
}

/// The words `Rules::parse` knows, for error messages and help texts.
pub const RULE_WORDS: &str = "league1, league2 (= default), push, no-push, early-end, \
                              no-early-end, one-fish, score-under";

impl Rules {
    /// Statement level 1: no push; the early end of the statement.
    pub const LEAGUE1: Rules = Rules {
        placement: Placement::AnyTile,
        push: false,
        score_tiles_under_penguins: false,
        end_when_leader_alone: true,
    };

    /// Statement level 2 (every league above the first): level 1 plus pushing.
    pub const LEAGUE2: Rules = Rules {
        push: true,
        ..Rules::LEAGUE1
    };

    /// Parse a comma-separated list of words applied left to right, starting from `league2`:
    /// `league1` / `league2` (= `default`) reset to a rule set, the others switch one rule, so
    /// `league1,push` is `league2` and `league2,no-early-end,score-under` composes.
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut rules = Rules::LEAGUE2;
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "default" | "league2" => rules = Rules::LEAGUE2,
                "league1" => rules = Rules::LEAGUE1,
                "push" => rules.push = true,
                "no-push" => rules.push = false,
                "early-end" => rules.end_when_leader_alone = true,
                "no-early-end" => rules.end_when_leader_alone = false,
                "one-fish" => rules.placement = Placement::OneFishOnly,
                "score-under" => rules.score_tiles_under_penguins = true,
                other => {
                    let shown: String = other.chars().take(40).collect();
                    return Err(format!("unknown rule word {shown:?} (known: {RULE_WORDS})"));
                }
            }
        }
        Ok(rules)
    }

    /// The shortest `parse` text for these rules: the nearest rule set, then the differences.
    pub fn describe(&self) -> String {
        let mut words = vec![if self.push { "league2" } else { "league1" }];
        if !self.end_when_leader_alone {
            words.push("no-early-end");
        }
        if self.placement == Placement::OneFishOnly {
            words.push("one-fish");
        }
        if self.score_tiles_under_penguins {
            words.push("score-under");
        }
        words.join(",")
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::LEAGUE2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_sets_switches_compose_and_round_trip() {
        assert_eq!(Rules::parse("").unwrap(), Rules::LEAGUE2);
        assert_eq!(Rules::default(), Rules::LEAGUE2);
        assert_eq!(Rules::parse("default").unwrap(), Rules::LEAGUE2);
        assert_eq!(Rules::parse("league1,push").unwrap(), Rules::LEAGUE2);
        assert_eq!(Rules::parse("league2, no-push").unwrap(), Rules::LEAGUE1);
        let (l1, l2) = (
            Rules::parse("league1").unwrap(),
            Rules::parse("league2").unwrap(),
        );
        assert!(!l1.push && l1.end_when_leader_alone);
        assert!(l2.push && l2.end_when_leader_alone);
        // Every combination of the four switches survives describe -> parse.
        for bits in 0..16 {
            let rules = Rules {
                placement: if bits & 1 == 1 {
                    Placement::OneFishOnly
                } else {
                    Placement::AnyTile
                },
                push: bits & 2 != 0,
                score_tiles_under_penguins: bits & 4 != 0,
                end_when_leader_alone: bits & 8 != 0,
            };
            assert_eq!(Rules::parse(&rules.describe()).unwrap(), rules, "{bits}");
        }
        assert_eq!(Rules::LEAGUE1.describe(), "league1");
        assert_eq!(Rules::LEAGUE2.describe(), "league2");
        assert!(Rules::parse("pusj").unwrap_err().contains("\"pusj\""));
    }
}
