//! Engine tests on real penguins positions: the optimised searches against plain exhaustive
//! minimax on small endgames, reproducibility, and legality of what the policies answer.

use std::time::{Duration, Instant};

use super::bits::dilate;
use super::eval::Weights;
use super::heuristics::Heuristics;
use super::policy::{AlphaBetaPolicy, MctsPolicy};
use crate::penguins::board::{cells_of, CELLS, VALID};
use crate::penguins::generate_board;
use crate::penguins::policy::Policy;
use crate::penguins::rules::Rules;
use crate::penguins::state::{MoveList, State};
use crate::search::alphabeta::AlphaBeta;
use crate::search::mcts::Mcts;
use crate::search::naive;
use crate::search::rng::SplitMix64;
use crate::search::time::SearchLimit;
use crate::search::Game;

/// A small random endgame: a blob of `tiles` ice cells, `players` players with `per` penguins.
fn small_endgame(
    rng: &mut SplitMix64,
    tiles: usize,
    players: usize,
    per: usize,
    rules: Rules,
) -> State {
    loop {
        let start = rng.below(CELLS) as u8;
        if VALID >> start & 1 == 0 {
            continue;
        }
        let mut ice = 1u64 << start;
        while (ice.count_ones() as usize) < tiles {
            let border: Vec<u8> = cells_of(dilate(ice) & !ice).collect();
            ice |= 1 << border[rng.below(border.len())];
            // Now and then a second blob, so that some regions are isolated.
            if rng.below(8) == 0 {
                let far: Vec<u8> = cells_of(VALID & !ice & !dilate(ice)).collect();
                ice |= 1 << far[rng.below(far.len())];
            }
        }
        let mut grid = [0u8; CELLS];
        for c in cells_of(ice) {
            grid[c as usize] = 1 + rng.below(3) as u8;
        }
        let cells: Vec<u8> = cells_of(ice).collect();
        let mut taken = Vec::new();
        let mut penguins = Vec::new();
        for owner in 0..players {
            for _ in 0..per {
                let mut c = cells[rng.below(cells.len())];
                while taken.contains(&c) {
                    c = cells[rng.below(cells.len())];
                }
                taken.push(c);
                penguins.push((owner, c));
            }
        }
        let to_move = rng.below(players);
        let state = State::from_position(rules, players, per, &grid, &penguins, &[0; 4], to_move);
        if let Ok(state) = state {
            if !state.is_over() {
                return state;
            }
        }
    }
}

/// The rule sets the endgame tests run under: exact margins hold without the early end (with and
/// without pushing); with it (league 2 as played) only the outcome's sign is exact, because the
/// early end cuts the lone leader's score but never changes a rank.
fn endgame_rules(case: usize) -> (Rules, bool) {
    match case % 3 {
        0 => (Rules::parse("league1,no-early-end").unwrap(), true),
        1 => (Rules::parse("league2,no-early-end").unwrap(), true),
        _ => (Rules::LEAGUE2, false),
    }
}

fn assert_value(got: i32, expected: i32, margins_exact: bool, what: &str) {
    if margins_exact {
        assert_eq!(got, expected, "{what}");
    } else {
        assert_eq!(
            got.signum(),
            expected.signum(),
            "{what}: {got} vs {expected}"
        );
    }
}

#[test]
fn alpha_beta_solves_small_endgames_like_plain_minimax() {
    let mut rng = SplitMix64::new(41);
    let mut heuristics = Heuristics::new(Weights::default());
    for case in 0..90 {
        let (rules, margins_exact) = endgame_rules(case);
        let players = 2 + rng.below(2);
        let per = if players == 2 { 1 + rng.below(2) } else { 1 };
        let tiles = 7 + rng.below(3);
        let state = small_endgame(&mut rng, tiles, players, per, rules);
        let root = state.to_move();
        let exact = naive::paranoid(&state, u32::MAX, root, &mut heuristics);
        heuristics.new_turn(&state, 100_000, None);
        let mut ab = AlphaBeta::new(12);
        let result = ab.search(&state, &mut heuristics, SearchLimit::default());
        assert!(result.solved, "case {case}");
        let what = format!("case {case}: {state:?}");
        assert_value(result.value, exact, margins_exact, &what);
        let mut child = state.clone();
        child.apply(result.best.unwrap());
        let after = naive::paranoid(&child, u32::MAX, root, &mut heuristics);
        assert_value(after, exact, margins_exact, &what);
    }
}

#[test]
fn exact_estimate_matches_plain_search_on_isolated_endgames() {
    let mut rng = SplitMix64::new(42);
    let mut heuristics = Heuristics::new(Weights::default());
    let mut checked = [0; 3];
    for case in 0..600 {
        let (rules, margins_exact) = endgame_rules(case);
        // Two penguins each now and then: a player alone can push its own.
        let per = 1 + (case % 4 == 3) as usize;
        let state = small_endgame(&mut rng, 8, 2, per, rules);
        let Some(points) = heuristics.eval.exact_scores(&state, u64::MAX) else {
            continue;
        };
        checked[case % 3] += 1;
        // Both players maximising their own total is what the exact value assumes; with no
        // interaction, paranoid minimax for either root finds the same difference.
        let value = naive::paranoid(&state, u32::MAX, 0, &mut heuristics);
        assert_value(
            value,
            points[0] - points[1],
            margins_exact,
            &format!("{state:?}"),
        );
    }
    assert!(
        checked.iter().all(|&c| c >= 10),
        "isolated positions {checked:?}"
    );
}

#[test]
fn same_limits_same_moves_on_a_full_board() {
    let mut rng = SplitMix64::new(43);
    for players in 2..=4 {
        let grid = generate_board(rng.next_u64());
        let mut state = State::new(&grid, players, Rules::default()).unwrap();
        let mut moves = MoveList::new();
        // Finish the placement phase at random, then search the first movement position.
        while state.in_placement() {
            state.legal_moves(&mut moves);
            state.apply(moves[rng.below(moves.len())]);
        }
        let ab = |s: &State| {
            let mut h = Heuristics::new(Weights::default());
            AlphaBeta::new(14).search(s, &mut h, SearchLimit::nodes(3000))
        };
        let (a, b) = (ab(&state), ab(&state));
        assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
        let mcts = |s: &State| {
            let mut h = Heuristics::new(Weights::default());
            Mcts::new().search(s, &mut h, SearchLimit::nodes(400), 7)
        };
        let (a, b) = (mcts(&state), mcts(&state));
        assert_eq!((a.best, a.nodes), (b.best, b.nodes));
    }
}

#[test]
fn policies_answer_listed_moves_within_the_deadline() {
    let mut rng = SplitMix64::new(44);
    for players in [2, 4] {
        let grid = generate_board(rng.next_u64());
        let mut state = State::new(&grid, players, Rules::default()).unwrap();
        let mut policies: Vec<Box<dyn Policy>> = vec![
            Box::new(AlphaBetaPolicy::new()),
            Box::new(MctsPolicy::new(5)),
        ];
        let mut moves = MoveList::new();
        let mut turn = 0;
        while !state.is_over() && turn < 40 {
            state.legal_moves(&mut moves);
            // Offer only a subset now and then: the policy must keep to the list.
            let legal: Vec<_> = if turn % 3 == 0 && moves.len() > 2 {
                moves[moves.len() / 2..].to_vec()
            } else {
                moves.to_vec()
            };
            let policy = &mut policies[turn % 2];
            let deadline = Instant::now() + Duration::from_millis(15);
            let mv = policy.choose(&state, &legal, deadline);
            assert!(
                legal.contains(&mv),
                "{} chose an unlisted move",
                policy.name()
            );
            state.play(mv);
            turn += 1;
        }
    }
}

#[test]
fn engine_policy_names_and_settings_are_checked() {
    use super::policy::make_engine_policy;
    assert!(make_engine_policy("greedy", 0).is_none());
    for good in [
        "engine",
        "ab",
        "mcts",
        "mcts:playouts=500",
        "mcts:playouts=500,first=9000",
        "mcts:first=9000,playouts=500",
        "ab:nodes=1000",
    ] {
        assert!(matches!(make_engine_policy(good, 0), Some(Ok(_))), "{good}");
    }
    for bad in [
        "mcts:bogus=1",
        "mcts:rollout=0",
        "mcts:playouts",
        "mcts:playouts=x",
        "engine:playouts=1",
        "mcts:playouts=nan",
        "mcts:playouts=500,threat=200",
        "ab:playouts=10",
        "ab:nodes=-3",
        "mcts:first=9000",
        "mcts:playouts=5,playouts=6",
        "mcts:playouts=500,",
        "mcts:playouts=500,reuse=1",
        "ab:nodes=10,first=100",
    ] {
        let err = make_engine_policy(bad, 0).unwrap().err().unwrap();
        assert!(err.starts_with(bad), "{bad}: {err}");
    }
}

/// A fixed-compute MCTS with `first=M` spends M playouts on its first turn (as the clock gives
/// the first turn more time) and `playouts=N` on every later one.
#[test]
fn the_first_turn_gets_its_own_fixed_count() {
    let grid = generate_board(7);
    let mut state = State::new(&grid, 2, Rules::default()).unwrap();
    let mut policy = MctsPolicy::new(3);
    policy.verbose = false;
    policy.playouts = Some(200);
    policy.first_playouts = Some(1500);
    let far = Instant::now() + Duration::from_secs(3600);
    let mut spent = Vec::new();
    let mut legal = MoveList::new();
    for _ in 0..3 {
        state.legal_moves(&mut legal);
        let mv = policy.choose(&state, &legal, far);
        spent.push(policy.last_playouts);
        state.apply(mv);
    }
    assert_eq!(spent, [1500, 200, 200]);
}
