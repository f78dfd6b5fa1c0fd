//! search (see the issue that builds it).
