#!/usr/bin/env bash
# The one test command: formatting, lints, every crate's tests (they read ../shared), end-to-end checks.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d ../shared ]; then echo "error: ../shared (challenge data and specs) must sit beside this checkout" >&2; exit 1; fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
# CodinGame bundle: build it, compile it alone with rustc, referee it against the greedy baseline.
bash bundler/ci.sh
