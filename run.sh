#!/usr/bin/env bash
# The main job: build, then play 20 seeded Splitter games on each layout through the tester and print the summary.
# The official Tester's four lines go to stdout; mean / sd / 95% CI and move times follow on stderr.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --workspace
for layout in 1 2; do
  echo "== Splitter, layout $layout, 20 games, seed ${SEED:-bot}"
  ./target/release/tester splitter --games 20 --silent --seed "${SEED:-bot}" --layout "$layout" --command "./target/release/bot splitter"
done
