//! splitter (see the issue that builds it).
