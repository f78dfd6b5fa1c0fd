//! The plain, obviously-correct searches every optimised engine is tested against (tests only).

use super::alphabeta::Evaluator;
use super::{paranoid_utility, rank_values, Game, Values};

/// Fixed-depth paranoid minimax without pruning, tables or ordering.
pub fn paranoid<G: Game, E: Evaluator<G>>(game: &G, depth: u32, root: usize, eval: &mut E) -> i32 {
    let mut moves = Vec::new();
    game.moves(&mut moves);
    if moves.is_empty() {
        return paranoid_utility(&game.scores(), game.players(), root);
    }
    if depth == 0 {
        return eval.evaluate(game, root);
    }
    let values = moves.iter().map(|&mv| {
        let mut child = game.clone();
        child.play(mv);
        paranoid(&child, depth - 1, root, eval)
    });
    if game.to_move() == root {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Exact max-n value: every player maximises its own rank value at the end (first best move wins
/// ties). Returns the value vector of the line played.
pub fn max_n<G: Game>(game: &G) -> Values {
    let mut moves = Vec::new();
    game.moves(&mut moves);
    if moves.is_empty() {
        return rank_values(&game.scores(), game.players());
    }
    let me = game.to_move();
    let mut best: Option<Values> = None;
    for mv in moves {
        let mut child = game.clone();
        child.play(mv);
        let v = max_n(&child);
        if best.is_none_or(|b| v[me] > b[me]) {
            best = Some(v);
        }
    }
    best.unwrap()
}

/// The rank value `root` is sure of (every opponent plays against it) and the most it can hope
/// for (every opponent plays for it): a move whose sure value beats another's hope is better
/// under any sensible opponent model.
pub fn rank_bounds<G: Game>(game: &G, root: usize) -> (f32, f32) {
    let mut moves = Vec::new();
    game.moves(&mut moves);
    if moves.is_empty() {
        let v = rank_values(&game.scores(), game.players())[root];
        return (v, v);
    }
    let children = moves.iter().map(|&mv| {
        let mut child = game.clone();
        child.play(mv);
        rank_bounds(&child, root)
    });
    let (mut sure, mut hope) = (f32::MAX, f32::MIN);
    let mine = game.to_move() == root;
    if mine {
        sure = f32::MIN;
    }
    for (s, h) in children {
        sure = if mine { sure.max(s) } else { sure.min(s) };
        hope = hope.max(h);
    }
    (sure, hope)
}
