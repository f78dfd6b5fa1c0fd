//! The entries by spelling: a trie of the entries that fit on the board, the entries spelled by
//! each end node, and for every entry the shorter entries spelled inside it (ATE and LATE inside
//! PLATE), which the greedy scores with it and inserts before it.

use crate::words::{NodeId, Trie};
use std::collections::HashMap;

/// The entries by spelling, as a trie with the entry indices at each word's end node, and for
/// every entry the other spellings it contains (ATE and LATE inside PLATE).
pub struct Spellings {
    pub trie: Trie,
    entries: HashMap<NodeId, Vec<u32>>,
    /// Sub-word lists, one per spelling (list 0 is empty, for entries that never fit).
    subs: Vec<Vec<Sub>>,
    /// Each entry's sub-word list.
    list_of: Vec<u32>,
}

/// A shorter spelling found inside an entry: its trie node, offset and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sub {
    pub node: NodeId,
    pub offset: u16,
    pub len: u16,
}

/// Most sub-words kept per spelling (shortest first): real words have a handful; a list of
/// AAAA...A words would otherwise have thousands each.
pub const MAX_SUBS: usize = 64;

impl Spellings {
    /// The spellings of the entries of at most `longest` letters (the others never fit).
    pub fn new(words: &[Vec<u8>], longest: usize) -> Spellings {
        let text: Vec<&str> = words
            .iter()
            .map(|w| std::str::from_utf8(w).expect("entries are ASCII letters"))
            .collect();
        let fits = |w: &&str| !w.is_empty() && w.len() <= longest;
        let trie = Trie::from_words(text.iter().copied().filter(fits));
        let mut entries: HashMap<NodeId, Vec<u32>> = HashMap::new();
        let mut node_of = vec![None; words.len()];
        for (i, w) in text.iter().enumerate().filter(|(_, w)| fits(w)) {
            let node = trie.walk(w).expect("every entry is in the trie");
            entries.entry(node).or_default().push(i as u32);
            node_of[i] = Some(node);
        }
        // Sub-words once per spelling, by walking the trie from every offset; shortest first, so
        // nested ones (AT inside ATE inside PLATE) can each be inserted before the next.
        let mut subs = vec![Vec::new()];
        let mut sub_list: HashMap<NodeId, u32> = HashMap::new();
        let list_of = node_of
            .iter()
            .zip(words)
            .map(|(node, w)| {
                let Some(node) = *node else { return 0 };
                *sub_list.entry(node).or_insert_with(|| {
                    subs.push(sub_words(&trie, w));
                    (subs.len() - 1) as u32
                })
            })
            .collect();
        Spellings {
            trie,
            entries,
            subs,
            list_of,
        }
    }

    /// The shorter spellings inside entry `word`, shortest first.
    pub fn subs(&self, word: usize) -> &[Sub] {
        &self.subs[self.list_of[word] as usize]
    }

    /// The entries spelled like the word ending at `node`.
    pub fn entries(&self, node: NodeId) -> &[u32] {
        self.entries.get(&node).map_or(&[], |v| v.as_slice())
    }
}

/// The other spellings inside `w`, shortest first, at most `MAX_SUBS`.
fn sub_words(trie: &Trie, w: &[u8]) -> Vec<Sub> {
    let mut found = Vec::new();
    for offset in 0..w.len() {
        let mut node = Trie::ROOT;
        for (i, &b) in w[offset..].iter().enumerate() {
            let Some(next) = trie.child(node, b) else {
                break;
            };
            node = next;
            let len = i + 1;
            if trie.is_terminal(node) && len < w.len() && w.len() < u16::MAX as usize {
                found.push(Sub {
                    node,
                    offset: offset as u16,
                    len: len as u16,
                });
            }
        }
    }
    found.sort_by_key(|s| (s.len, s.offset));
    found.truncate(MAX_SUBS);
    found
}
