//! crossword (see the issue that builds it).
