//! Dictionaries shared by the word puzzles (Honey, Crossword, Scruffle): loading and normalising
//! word lists, a trie for prefix walks, and letter-value tables.

mod list;
mod trie;
mod values;

pub use list::{
    english, parse_words, read_words, read_words_strict, Rejected, StrictWordsError, WordList,
    WordsError, ENGLISH_TEXT,
};
pub use trie::{NodeId, Trie};
pub use values::LetterValues;

/// Index 0..26 of an upper-case ASCII letter.
#[inline]
pub fn letter_index(b: u8) -> usize {
    debug_assert!(b.is_ascii_uppercase());
    (b - b'A') as usize
}
