//! honey (see the issue that builds it).
