//! The turn loop: init lines, then one answer per turn until the input ends; and the bundle's
//! entry point.

use std::io::{BufRead, Write};
use std::time::Instant;

use super::budget::Budget;
use super::decide::{decide, Decision};
use super::infer::PushWatch;
use super::input::{read_init_lenient, read_turn, Init, LineReader, Turn};
use crate::penguins::policy::{default_policy, Policy};
use crate::penguins::rules::Rules;

/// Play a whole game: init lines, then one answer per turn until the input ends. `rules` is the
/// starting model (pushing is dropped if the game shows it is off); `budget` says how long each
/// turn's search runs (it is named on `errors` at the first turn). `Err` when the input is not a
/// Penguins game at all (nothing, or an unreadable first line) or the output is closed.
pub fn play<R: BufRead, W: Write>(
    input: R,
    output: &mut W,
    errors: &mut dyn Write,
    policy: &mut dyn Policy,
    rules: Rules,
    budget: Budget,
) -> Result<(), String> {
    let mut reader = LineReader::new(input);
    let init = match read_init_lenient(&mut reader) {
        Ok((init, problems)) => {
            for problem in problems {
                let _ = writeln!(errors, "{problem}");
            }
            init
        }
        Err(_) if reader.line_no() == 0 => {
            return Err(match reader.read_error() {
                Some(cause) => format!("cannot read the input: {cause}"),
                None => "no input: expected nbPlayers on line 1".to_string(),
            })
        }
        // Not even the player count: this is not a Penguins game's input.
        Err(e) => return Err(e),
    };
    let mut player = Player::new(init, rules, policy);
    let mut first = true;
    loop {
        reader.wait_for_input();
        let started = Instant::now();
        let turn = match read_turn(&mut reader, &init) {
            Ok(Some(turn)) => turn,
            Ok(None) => return Ok(()),
            Err(e) => {
                let _ = writeln!(errors, "{e}");
                return Ok(());
            }
        };
        if first {
            let _ = writeln!(errors, "{}", budget.describe());
        }
        let deadline = started + budget.search_time(first);
        first = false;
        let decision = player.answer(&turn, deadline);
        for note in &decision.notes {
            let _ = writeln!(errors, "{note}");
        }
        writeln!(output, "{}", decision.output).map_err(|e| format!("cannot write: {e}"))?;
        output.flush().map_err(|e| format!("cannot write: {e}"))?;
    }
}

/// One player's side of a game, turn after turn: the rules model (which may lose pushing) and the
/// policy. `play` feeds it the turns it reads; tests feed it turns directly.
pub struct Player<'a> {
    init: Init,
    rules: Rules,
    watch: PushWatch,
    policy: &'a mut dyn Policy,
}

impl<'a> Player<'a> {
    pub fn new(init: Init, rules: Rules, policy: &'a mut dyn Policy) -> Self {
        Player {
            init,
            rules,
            watch: PushWatch::default(),
            policy,
        }
    }

    /// The rules the player currently believes in.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The answer to one turn (the notes include a change of rules, once).
    pub fn answer(&mut self, turn: &Turn, deadline: Instant) -> Decision {
        let switched = self.watch.check(turn, self.init.me, &mut self.rules);
        let mut decision = decide(&self.init, turn, self.rules, self.policy, deadline);
        if let Some(note) = switched {
            decision.notes.insert(0, note);
        }
        decision
    }
}

/// The bundle's entry point: play on stdin/stdout with the default policy, rules (`league2`,
/// pushing dropped if the game shows it is off) and budget (CodinGame's).
pub fn codingame_main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut policy = default_policy();
    let result = play(
        stdin.lock(),
        &mut stdout.lock(),
        &mut std::io::stderr(),
        policy.as_mut(),
        Rules::LEAGUE2,
        Budget::CodinGame,
    );
    if let Err(e) = result {
        eprintln!("{e}");
    }
}
