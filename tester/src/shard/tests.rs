//! Tests of the shard helpers.
