//! penguins (see the issue that builds it).
