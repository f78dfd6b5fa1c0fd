//! A plain array trie over A-Z: fast to build (one pass), fast to walk letter by letter.

use super::letter_index;

pub type NodeId = u32;

const NONE: NodeId = 0; // the root is never a child, so 0 can mean "no edge"

#[derive(Clone, Debug)]
struct Node {
    children: [NodeId; 26],
    terminal: bool,
}

const EMPTY: Node = Node {
    children: [NONE; 26],
    terminal: false,
};

#[derive(Clone, Debug)]
pub struct Trie {
    nodes: Vec<Node>,
    words: usize,
}

impl Default for Trie {
    fn default() -> Self {
        Trie {
            nodes: vec![EMPTY],
            words: 0,
        }
    }
}

impl Trie {
    pub const ROOT: NodeId = 0;

    /// Build from upper-case A-Z words (duplicates are counted once).
    pub fn from_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Trie {
        let mut trie = Trie::default();
        for w in words {
            trie.insert(w);
        }
        trie
    }

    pub fn insert(&mut self, word: &str) {
        let mut node = Self::ROOT;
        for b in word.bytes() {
            let i = letter_index(b);
            let next = self.nodes[node as usize].children[i];
            node = if next == NONE {
                let id = self.nodes.len() as NodeId;
                self.nodes.push(EMPTY);
                self.nodes[node as usize].children[i] = id;
                id
            } else {
                next
            };
        }
        let n = &mut self.nodes[node as usize];
        if !n.terminal {
            n.terminal = true;
            self.words += 1;
        }
    }

    /// The child of `node` along upper-case `letter`, if any.
    #[inline]
    pub fn child(&self, node: NodeId, letter: u8) -> Option<NodeId> {
        match self.nodes[node as usize].children[letter_index(letter)] {
            NONE => None,
            id => Some(id),
        }
    }

    /// Does a word end at `node`?
    #[inline]
    pub fn is_terminal(&self, node: NodeId) -> bool {
        self.nodes[node as usize].terminal
    }

    /// The node reached by spelling `prefix` from the root.
    pub fn walk(&self, prefix: &str) -> Option<NodeId> {
        prefix
            .bytes()
            .try_fold(Self::ROOT, |node, b| self.child(node, b))
    }

    pub fn contains(&self, word: &str) -> bool {
        self.walk(word).is_some_and(|n| self.is_terminal(n))
    }

    /// Letters with an edge out of `node`, as (letter, child) pairs in A-Z order.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = (u8, NodeId)> + '_ {
        self.nodes[node as usize]
            .children
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != NONE)
            .map(|(i, &c)| (b'A' + i as u8, c))
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.words
    }

    pub fn is_empty(&self) -> bool {
        self.words == 0
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Enumerate every word by DFS: the trie must hold exactly the inserted set.
    fn all_words(trie: &Trie) -> BTreeSet<String> {
        fn dfs(t: &Trie, n: NodeId, prefix: &mut String, out: &mut BTreeSet<String>) {
            if t.is_terminal(n) {
                out.insert(prefix.clone());
            }
            for (l, c) in t.children(n) {
                prefix.push(l as char);
                dfs(t, c, prefix, out);
                prefix.pop();
            }
        }
        let mut out = BTreeSet::new();
        dfs(trie, Trie::ROOT, &mut String::new(), &mut out);
        out
    }

    #[test]
    fn holds_exactly_the_inserted_words() {
        let words = ["MAKE", "MAKER", "MAKERS", "MA", "TREE", "TREE", "ZOO"];
        let trie = Trie::from_words(words);
        let expected: BTreeSet<String> = words.iter().map(|w| w.to_string()).collect();
        assert_eq!(all_words(&trie), expected);
        assert_eq!(trie.len(), 6);
        assert!(trie.contains("MAKER") && !trie.contains("MAK") && !trie.contains("TREES"));
        assert!(trie.walk("MAK").is_some() && trie.walk("MAX").is_none());
    }

    #[test]
    fn embedded_list_round_trips() {
        let list = crate::words::english();
        let trie = Trie::from_words(list.words.iter().map(|s| s.as_str()));
        assert_eq!(trie.len(), list.len());
        let back: Vec<String> = all_words(&trie).into_iter().collect();
        assert_eq!(back, list.words);
    }
}
