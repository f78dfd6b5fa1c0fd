//! An Aho-Corasick automaton over the distinct spellings of the list, laid out for the line DP:
//! nodes in breadth-first order (so a node's parent, failure link and dictionary link all come
//! before it, and the nodes of depth <= d are a prefix of the order), with the entries of each
//! spelling at its end node.

use crate::words::Trie;

/// "No node" for the dictionary link; the root (0) is used instead where a harmless default helps.
pub const NO_NODE: u32 = u32::MAX;

pub struct Automaton {
    /// Parent in the trie (the root is its own parent).
    pub parent: Vec<u32>,
    /// Letter on the edge from the parent, 0..26 (0 for the root).
    pub letter: Vec<u8>,
    pub depth: Vec<u16>,
    /// Longest proper suffix that is also a node.
    pub fail: Vec<u32>,
    /// Nearest proper suffix that ends a spelling, or the root when there is none.
    pub dict: Vec<u32>,
    /// The spelling ending here, or `NO_NODE`.
    pub spelling: Vec<u32>,
    /// Fewest letters from the node to the end of a spelling in its subtree (0 if it ends one).
    pub min_ext: Vec<u16>,
    /// `depth_end[d]`: number of nodes of depth <= d.
    pub depth_end: Vec<u32>,
    /// The nodes of each letter but the root, in breadth-first order (the line DP steps only
    /// these on a cell whose letter is fixed).
    pub by_letter: [Vec<u32>; 26],
    /// The children of a node are contiguous in breadth-first order: their index range.
    child_range: Vec<(u32, u32)>,
    /// Distinct spellings and, for each, the list entries spelled so.
    pub spellings: Vec<Vec<u8>>,
    pub entries: Vec<Vec<u32>>,
    /// End node of each spelling.
    pub node_of: Vec<u32>,
    /// Spelling of each list entry (`NO_NODE` for entries left out).
    pub spelling_of_entry: Vec<u32>,
}

impl Automaton {
    /// Build over the entries for which `keep` is true (e.g. those that fit on the board).
    pub fn new(words: &[Vec<u8>], keep: impl Fn(usize) -> bool) -> Automaton {
        let mut trie = Trie::default();
        for (i, w) in words.iter().enumerate() {
            if keep(i) && !w.is_empty() {
                trie.insert(std::str::from_utf8(w).expect("entries are ASCII letters"));
            }
        }
        // Breadth-first renumbering; children in A-Z order, so siblings are contiguous.
        let mut order = vec![Trie::ROOT];
        let mut new_id = vec![u32::MAX; trie.node_count()];
        new_id[Trie::ROOT as usize] = 0;
        let mut parent = vec![0u32];
        let mut letter = vec![0u8];
        let mut depth = vec![0u16];
        let mut child_range = Vec::with_capacity(trie.node_count());
        let mut head = 0;
        while head < order.len() {
            let old = order[head];
            let first = order.len() as u32;
            for (b, child) in trie.children(old) {
                new_id[child as usize] = order.len() as u32;
                order.push(child);
                parent.push(head as u32);
                letter.push(b - b'A');
                depth.push(depth[head].saturating_add(1));
            }
            child_range.push((first, order.len() as u32));
            head += 1;
        }
        let n = order.len();
        let mut automaton = Automaton {
            parent,
            letter,
            depth,
            fail: vec![0; n],
            dict: vec![0; n],
            spelling: vec![NO_NODE; n],
            min_ext: vec![u16::MAX; n],
            depth_end: Vec::new(),
            by_letter: Default::default(),
            child_range,
            spellings: Vec::new(),
            entries: Vec::new(),
            node_of: Vec::new(),
            spelling_of_entry: vec![NO_NODE; words.len()],
        };
        for u in 1..n {
            let p = automaton.parent[u] as usize;
            let c = automaton.letter[u];
            automaton.fail[u] = if p == 0 {
                0
            } else {
                automaton.goto(automaton.fail[p], c)
            };
        }
        // Spellings, numbered in node order.
        for (i, w) in words.iter().enumerate() {
            if !keep(i) || w.is_empty() {
                continue;
            }
            let node = automaton.walk(w).expect("every kept entry is in the trie") as usize;
            if automaton.spelling[node] == NO_NODE {
                automaton.spelling[node] = automaton.spellings.len() as u32;
                automaton.spellings.push(w.clone());
                automaton.entries.push(Vec::new());
                automaton.node_of.push(node as u32);
            }
            let s = automaton.spelling[node];
            automaton.entries[s as usize].push(i as u32);
            automaton.spelling_of_entry[i] = s;
        }
        for u in 1..n {
            let f = automaton.fail[u] as usize;
            automaton.dict[u] = if automaton.spelling[f] != NO_NODE {
                f as u32
            } else {
                automaton.dict[f]
            };
        }
        for u in (0..n).rev() {
            if automaton.spelling[u] != NO_NODE {
                automaton.min_ext[u] = 0;
            }
            if u > 0 {
                let p = automaton.parent[u] as usize;
                let via = automaton.min_ext[u].saturating_add(1);
                automaton.min_ext[p] = automaton.min_ext[p].min(via);
            }
        }
        let max_depth = automaton.depth.last().copied().unwrap_or(0) as usize;
        automaton.depth_end = (0..=max_depth)
            .map(|d| automaton.depth.partition_point(|&x| x as usize <= d) as u32)
            .collect();
        for u in 1..n {
            automaton.by_letter[automaton.letter[u] as usize].push(u as u32);
        }
        automaton
    }

    pub fn nodes(&self) -> usize {
        self.parent.len()
    }

    pub fn max_depth(&self) -> usize {
        self.depth_end.len() - 1
    }

    /// The trie children of `u`: a range of node ids (breadth-first order keeps them together).
    #[inline]
    pub fn children(&self, u: u32) -> std::ops::Range<u32> {
        let (a, b) = self.child_range[u as usize];
        a..b
    }

    /// The trie child of `u` along letter index `c`, if any.
    #[inline]
    pub fn child(&self, u: u32, c: u8) -> Option<u32> {
        let (a, b) = self.child_range[u as usize];
        let kids = &self.letter[a as usize..b as usize];
        kids.binary_search(&c).ok().map(|k| a + k as u32)
    }

    /// The automaton's transition: the longest suffix of (text of `u`) + letter `c` that is a node.
    pub fn goto(&self, mut u: u32, c: u8) -> u32 {
        loop {
            if let Some(v) = self.child(u, c) {
                return v;
            }
            if u == 0 {
                return 0;
            }
            u = self.fail[u as usize];
        }
    }

    /// The node spelled by upper-case `word` from the root.
    pub fn walk(&self, word: &[u8]) -> Option<u32> {
        word.iter()
            .try_fold(0u32, |u, &b| self.child(u, b.wrapping_sub(b'A')))
    }

    /// Spellings ending at node `u` (itself if terminal, then its dictionary links), longest first.
    pub fn outputs(&self, u: u32) -> impl Iterator<Item = u32> + '_ {
        let first = if self.spelling[u as usize] != NO_NODE {
            u
        } else {
            self.dict[u as usize]
        };
        std::iter::successors(Some(first), move |&v| {
            let d = self.dict[v as usize];
            (d != 0).then_some(d)
        })
        .filter(|&v| v != 0)
        .map(move |v| self.spelling[v as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<Vec<u8>> {
        list.iter().map(|w| w.as_bytes().to_vec()).collect()
    }

    /// Every spelling occurrence in `text` by brute force, as (end index, spelling text).
    fn brute(text: &[u8], spellings: &[Vec<u8>]) -> Vec<(usize, Vec<u8>)> {
        let mut out = Vec::new();
        for end in 0..text.len() {
            for s in spellings {
                if s.len() <= end + 1 && &text[end + 1 - s.len()..=end] == s.as_slice() {
                    out.push((end, s.clone()));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn scanning_finds_every_occurrence() {
        let list = words(&["AB", "ABA", "CAB", "XA", "BAB", "A", "ABAB", "AB"]);
        let a = Automaton::new(&list, |_| true);
        assert_eq!(a.spellings.len(), 7);
        assert_eq!(a.entries[a.spelling_of_entry[0] as usize], vec![0, 7]);
        for u in 1..a.nodes() {
            assert!(a.parent[u] < u as u32 && a.fail[u] < u as u32);
            assert!(a.depth[a.fail[u] as usize] < a.depth[u]);
        }
        let mut rng = 12345u64;
        for _ in 0..200 {
            let len = (rng % 12) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    b"ABCX"[(rng >> 33) as usize % 4]
                })
                .collect();
            let mut found = Vec::new();
            let mut u = 0;
            for (i, &b) in text.iter().enumerate() {
                u = a.goto(u, b - b'A');
                for s in a.outputs(u) {
                    found.push((i, a.spellings[s as usize].clone()));
                }
            }
            found.sort();
            assert_eq!(found, brute(&text, &a.spellings), "{:?}", text);
        }
    }

    #[test]
    fn left_out_entries_are_not_spelled() {
        let list = words(&["CAT", "DOG"]);
        let a = Automaton::new(&list, |i| i == 1);
        assert_eq!(a.spellings, words(&["DOG"]));
        assert_eq!(a.spelling_of_entry, vec![NO_NODE, 0]);
        assert!(a.walk(b"CAT").is_none());
    }
}
