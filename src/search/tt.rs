//! Transposition table: a fixed power-of-two array indexed by hash, always-replace on a deeper or
//! equal search (or a different position), holding a value bound and the best move found.

/// How a stored value relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub depth: u32,
    pub value: i32,
    pub bound: Bound,
    pub best: Option<M>,
}

pub struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
}

impl<M: Copy> Table<M> {
    /// A table with `2^bits` slots.
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits;
        Table {
            slots: vec![None; size],
            mask: size - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[key as usize & self.mask]
            .as_ref()
            .filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry<M>) {
        let slot = &mut self.slots[entry.key as usize & self.mask];
        let replace = match slot {
            Some(old) => old.key != entry.key || entry.depth >= old.depth,
            None => true,
        };
        if replace {
            *slot = Some(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_keeps_deeper_entry() {
        let mut t: Table<u8> = Table::new(4);
        let e = |key, depth, value| Entry {
            key,
            depth,
            value,
            bound: Bound::Exact,
            best: Some(1),
        };
        t.store(e(33, 5, 10));
        t.store(e(33, 2, 99)); // shallower: ignored
        assert_eq!(t.probe(33).map(|x| x.value), Some(10));
        assert!(t.probe(17).is_none()); // same slot, other key
        t.store(e(17, 1, 4)); // other key: replaces
        assert!(t.probe(33).is_none());
        assert_eq!(t.probe(17).map(|x| x.value), Some(4));
        t.clear();
        assert!(t.probe(17).is_none());
    }
}
