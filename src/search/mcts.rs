//! Monte-Carlo tree search (UCT) with a value vector per player, so 3-4 players each steer their
//! own choices by their own value (max-n flavour) instead of a paranoid coalition.
//!
//! The tree lives in an arena: one `Vec` of nodes reused from search to search (cleared, capacity
//! kept), children of a node allocated as one contiguous range and addressed by `u32` index. That
//! gives bumpalo's benefits (no per-node allocation, one reset per turn) with `std` alone, which the
//! CodinGame bundle requires.

use super::rng::SplitMix64;
use super::time::{Clock, SearchLimit};
use super::{Game, Values, MAX_PLAYERS};

/// How a game finishes or estimates a position reached by the tree.
pub trait Playout<G: Game> {
    /// Values in [0, 1] per player for `game` (which may be played on freely): a rollout to the end,
    /// an evaluation, or both.
    fn playout(&mut self, game: &mut G, rng: &mut SplitMix64) -> Values;

    /// Reorders `moves` best-first: unvisited children are tried in this order.
    fn order(&mut self, _game: &G, _moves: &mut [G::Move]) {}
}

#[derive(Clone, Debug)]
struct Node<M> {
    /// The move leading here (`None` at the root).
    mv: Option<M>,
    /// The player who made `mv`: the node's value is read from that player's view.
    mover: u8,
    expanded: bool,
    first_child: u32,
    child_count: u32,
    visits: u32,
    value_sum: Values,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: usize) -> Self {
        Node {
            mv,
            mover: mover as u8,
            expanded: false,
            first_child: 0,
            child_count: 0,
            visits: 0,
            value_sum: [0.0; MAX_PLAYERS],
        }
    }
}

/// Statistics of one root move.
#[derive(Clone, Debug)]
pub struct RootChild<M> {
    pub mv: M,
    pub visits: u32,
    /// Mean value for the player to move at the root.
    pub mean: f32,
}

#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    pub best: Option<M>,
    pub playouts: u64,
    pub nodes: usize,
    pub children: Vec<RootChild<M>>,
}

pub struct Mcts<G: Game> {
    nodes: Vec<Node<G::Move>>,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    /// UCT exploration constant (values are in [0, 1]).
    pub exploration: f32,
    /// A leaf is expanded once it has been visited this many times (1 = on first revisit).
    pub expand_after: u32,
    /// Clock polls (playouts) between reads of the wall clock.
    pub clock_batch: u32,
}

impl<G: Game> Default for Mcts<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Mcts<G> {
    pub fn new() -> Self {
        Mcts {
            nodes: Vec::new(),
            moves: Vec::new(),
            path: Vec::new(),
            exploration: 0.7,
            expand_after: 1,
            clock_batch: 1,
        }
    }

    /// Runs playouts from `game` until `limit` (its node count = playouts) stops them; the answer
    /// is the most visited root move. The same seed and playout limit give the same answer.
    pub fn search<P: Playout<G>>(
        &mut self,
        game: &G,
        playout: &mut P,
        limit: SearchLimit,
        seed: u64,
    ) -> MctsResult<G::Move> {
        let mut rng = SplitMix64::new(seed);
        let mut clock = Clock::new(limit, self.clock_batch);
        self.nodes.clear();
        self.nodes.push(Node::new(None, game.to_move()));
        self.expand(0, game, playout);
        if self.nodes[0].child_count > 1 {
            while !clock.tick() {
                self.iterate(game, playout, &mut rng);
            }
        }
        self.result(clock.nodes)
    }

    /// One selection - expansion - playout - backup pass.
    fn iterate<P: Playout<G>>(&mut self, game: &G, playout: &mut P, rng: &mut SplitMix64) {
        let mut state = game.clone();
        self.path.clear();
        self.path.push(0);
        let mut index = 0usize;
        loop {
            let node = &self.nodes[index];
            if !node.expanded {
                if node.visits < self.expand_after {
                    break;
                }
                self.expand(index, &state, playout);
            }
            let node = &self.nodes[index];
            if node.child_count == 0 {
                break;
            }
            let child = self.select(index);
            state.play(self.nodes[child].mv.expect("child has a move"));
            self.path.push(child as u32);
            index = child;
            if self.nodes[child].visits == 0 {
                break;
            }
        }
        let values = playout.playout(&mut state, rng);
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            for (sum, v) in node.value_sum.iter_mut().zip(values) {
                *sum += v;
            }
        }
    }

    /// Allocates the children of `index` as one contiguous range of the arena.
    fn expand<P: Playout<G>>(&mut self, index: usize, state: &G, playout: &mut P) {
        self.moves.clear();
        state.moves(&mut self.moves);
        playout.order(state, &mut self.moves);
        let first = self.nodes.len() as u32;
        let mover = state.to_move();
        for &mv in &self.moves {
            self.nodes.push(Node::new(Some(mv), mover));
        }
        let node = &mut self.nodes[index];
        node.expanded = true;
        node.first_child = first;
        node.child_count = self.moves.len() as u32;
    }

    /// UCT: the first unvisited child in order, else the best mean (for the mover) plus bonus.
    fn select(&self, index: usize) -> usize {
        let node = &self.nodes[index];
        let range = node.first_child as usize..(node.first_child + node.child_count) as usize;
        let log_parent = (node.visits.max(1) as f32).ln();
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        for i in range {
            let child = &self.nodes[i];
            if child.visits == 0 {
                return i;
            }
            let n = child.visits as f32;
            let mean = child.value_sum[child.mover as usize] / n;
            let score = mean + self.exploration * (log_parent / n).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    fn result(&self, playouts: u64) -> MctsResult<G::Move> {
        let root = &self.nodes[0];
        let range = root.first_child as usize..(root.first_child + root.child_count) as usize;
        let children: Vec<RootChild<G::Move>> = self.nodes[range]
            .iter()
            .map(|c| RootChild {
                mv: c.mv.expect("child has a move"),
                visits: c.visits,
                mean: c.value_sum[c.mover as usize] / c.visits.max(1) as f32,
            })
            .collect();
        // Most visited; ties go to the better mean, then to the earlier move.
        let best = children
            .iter()
            .enumerate()
            .max_by(|(ia, a), (ib, b)| {
                (a.visits, a.mean)
                    .partial_cmp(&(b.visits, b.mean))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(ib.cmp(ia))
            })
            .map(|(_, c)| c.mv);
        MctsResult {
            best,
            playouts,
            nodes: self.nodes.len(),
            children,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::naive;
    use super::super::toy::{RandomPlayout, TakeEnds, TakeEndsEval};
    use super::*;

    fn outcome_sign(game: &TakeEnds, root: usize) -> i32 {
        naive::paranoid(game, u32::MAX, root, &mut TakeEndsEval).signum()
    }

    #[test]
    fn two_player_choice_keeps_the_exact_outcome() {
        let mut rng = SplitMix64::new(21);
        let mut mcts = Mcts::new();
        for i in 0..120 {
            let game = TakeEnds::random_in(&mut rng, (2, 2), (3, 10));
            let root = game.to_move();
            let best = outcome_sign(&game, root);
            let result = mcts.search(&game, &mut RandomPlayout, SearchLimit::nodes(4000), i);
            let mut child = game.clone();
            child.play(result.best.unwrap());
            assert_eq!(outcome_sign(&child, root), best, "game {i}: {game:?}");
        }
    }

    #[test]
    fn multi_player_choice_finds_a_dominant_move() {
        let mut rng = SplitMix64::new(22);
        let mut mcts = Mcts::new();
        let mut checked = 0;
        for i in 0..300 {
            let game = TakeEnds::random_in(&mut rng, (3, 4), (3, 7));
            let me = game.to_move();
            let mut moves = Vec::new();
            game.moves(&mut moves);
            let bounds: Vec<(f32, f32)> = moves
                .iter()
                .map(|&mv| {
                    let mut child = game.clone();
                    child.play(mv);
                    naive::rank_bounds(&child, me)
                })
                .collect();
            // A move is clearly best when its sure value beats every other move's hope.
            let dominant = (0..moves.len())
                .find(|&i| (0..moves.len()).all(|j| j == i || bounds[i].0 > bounds[j].1));
            let Some(dominant) = dominant else {
                continue;
            };
            checked += 1;
            let result = mcts.search(&game, &mut RandomPlayout, SearchLimit::nodes(3000), i);
            assert_eq!(
                result.best,
                Some(moves[dominant]),
                "game {i}: {game:?} bounds {bounds:?}"
            );
        }
        assert!(
            checked >= 20,
            "only {checked} positions had a dominant move"
        );
    }

    #[test]
    fn same_seed_and_playouts_same_answer() {
        let mut rng = SplitMix64::new(23);
        for i in 0..20 {
            let game = TakeEnds::random_in(&mut rng, (2, 4), (12, 12));
            let a = Mcts::new().search(&game, &mut RandomPlayout, SearchLimit::nodes(500), i);
            let b = Mcts::new().search(&game, &mut RandomPlayout, SearchLimit::nodes(500), i);
            assert_eq!(a.best, b.best);
            assert_eq!(a.nodes, b.nodes);
            let visits =
                |r: &MctsResult<_>| r.children.iter().map(|c| c.visits).collect::<Vec<_>>();
            assert_eq!(visits(&a), visits(&b));
            assert_eq!(a.playouts, 500);
        }
    }

    #[test]
    fn arena_is_reused_between_searches() {
        let mut rng = SplitMix64::new(24);
        let game = TakeEnds::random(&mut rng, 2, 14);
        let mut mcts = Mcts::new();
        let first = mcts.search(&game, &mut RandomPlayout, SearchLimit::nodes(300), 1);
        let capacity = mcts.nodes.capacity();
        let second = mcts.search(&game, &mut RandomPlayout, SearchLimit::nodes(300), 1);
        assert_eq!(first.nodes, second.nodes);
        assert_eq!(mcts.nodes.capacity(), capacity);
        // Every playout added at most one node (plus the root's children at the start).
        assert!(first.nodes <= 300 * 2 + 3);
    }
}
