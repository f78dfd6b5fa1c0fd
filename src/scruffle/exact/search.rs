//! Branch and bound over the candidates of a `Model`, best score first: each is taken (when its
//! letters agree with those already laid, its spelling has an entry left and the chosen set can
//! still be ordered) or left, and a subtree is cut when the Lagrangian bound over the candidates
//! still open cannot beat the best set found. A set that cannot be ordered has no orderable
//! superset (the subset that blocks the peeling stays blocked), so it is cut at once.

use super::bound::Lagrange;
use super::model::{play_order, Model};
use std::time::Instant;

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Found {
    /// The best set found, in a valid play order (candidate indices).
    pub order: Vec<u32>,
    pub score: u64,
    /// Search nodes visited.
    pub nodes: u64,
    /// The whole tree was searched: `score` is the optimum of the model (or no set beats
    /// `floor`).
    pub complete: bool,
}

/// A node of the search: the candidates from index `from` on are still open, with the letters
/// laid, the entries left per spelling and the candidates banned.
pub struct Node<'a> {
    pub from: usize,
    pub letters: &'a [u8],
    pub left: &'a [u32],
    pub banned: &'a [bool],
}

/// An upper bound on what the open candidates of a node can still add; `need` is what they must
/// add for the node to matter (a bound below it cuts the node).
pub trait OpenBound {
    fn open(&mut self, model: &Model, node: &Node, need: f64) -> f64;
}

impl OpenBound for Lagrange {
    fn open(&mut self, model: &Model, node: &Node, _need: f64) -> f64 {
        self.value(model, node.from, node.letters, node.left, node.banned, None)
    }
}

struct Search<'m, B> {
    model: &'m Model,
    lag: B,
    letters: Vec<u8>,
    cover: Vec<u32>,
    left: Vec<u32>,
    banned: Vec<bool>,
    chosen: Vec<u32>,
    score: u64,
    best: u64,
    best_set: Option<Vec<u32>>,
    nodes: u64,
    node_limit: u64,
    deadline: Instant,
    stopped: bool,
}

/// Search `model` for a set worth more than `floor` (a score already reached some other way),
/// with the prices of `lag`, until `deadline` or `node_limit` nodes.
pub fn search<B: OpenBound>(
    model: &Model,
    lag: B,
    floor: u64,
    deadline: Instant,
    node_limit: u64,
) -> Found {
    let mut s = Search {
        model,
        lag,
        letters: model.fixed.clone(),
        cover: vec![0; model.free.len()],
        left: model
            .spellings
            .iter()
            .map(|s| s.entries.len() as u32)
            .collect(),
        banned: vec![false; model.cands.len()],
        chosen: Vec::new(),
        score: 0,
        best: floor,
        best_set: None,
        nodes: 0,
        node_limit,
        deadline,
        stopped: false,
    };
    s.dfs(0);
    let (order, score) = match s.best_set {
        Some(set) => {
            let order = play_order(model, &set).expect("only orderable sets are kept");
            (order, s.best)
        }
        None => (Vec::new(), 0),
    };
    Found {
        order,
        score,
        nodes: s.nodes,
        complete: !s.stopped,
    }
}

impl<B: OpenBound> Search<'_, B> {
    fn agrees(&self, k: usize) -> bool {
        self.model
            .cells_of(k)
            .iter()
            .all(|&(c, l)| self.letters[c as usize] == 0 || self.letters[c as usize] == l)
    }

    fn take(&mut self, k: usize) {
        for &(c, l) in self.model.cells_of(k) {
            self.cover[c as usize] += 1;
            self.letters[c as usize] = l;
        }
        self.left[self.model.cands[k].spelling as usize] -= 1;
        self.score += self.model.cands[k].score;
        self.chosen.push(k as u32);
    }

    fn untake(&mut self, k: usize) {
        for &(c, _) in self.model.cells_of(k) {
            self.cover[c as usize] -= 1;
            if self.cover[c as usize] == 0 {
                self.letters[c as usize] = self.model.fixed[c as usize];
            }
        }
        self.left[self.model.cands[k].spelling as usize] += 1;
        self.score -= self.model.cands[k].score;
        self.chosen.pop();
    }

    fn dfs(&mut self, from: usize) {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(64) && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        if self.score > self.best {
            self.best = self.score;
            self.best_set = Some(self.chosen.clone());
        }
        // Scores are whole numbers: a subtree whose bound is below best + 1 holds nothing better.
        let need = (self.best + 1) as f64 - self.score as f64;
        let node = Node {
            from,
            letters: &self.letters,
            left: &self.left,
            banned: &self.banned,
        };
        if self.lag.open(self.model, &node, need) < need - 1e-6 {
            return;
        }
        let next =
            (self.model.open_from(from, &self.left, &self.banned)).find(|&(k, _)| self.agrees(k));
        let Some((k, _)) = next else {
            return;
        };
        self.chosen.push(k as u32);
        let orderable = play_order(self.model, &self.chosen).is_some();
        self.chosen.pop();
        if orderable {
            self.take(k);
            self.dfs(k + 1);
            self.untake(k);
        }
        self.dfs(k + 1);
    }
}
