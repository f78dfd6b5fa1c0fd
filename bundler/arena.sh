#!/usr/bin/env bash
# Strength check of the CodinGame bundle: the bundle is the same engine code as
# `bot penguins`, so on the same seeds it must play at the same strength (within noise).
#   1. bundle vs native `bot penguins`, head to head (expect about 50%);
#   2. bundle vs greedy and native vs greedy on the same seed list (expect the same win rates).
# Usage: bundler/arena.sh [GAMES per player count, default 100]
# PENGUINS_TURN_MS sets the referee's turn limit (default 50, CodinGame's). The engine's own budget
# is fixed (40 ms), so a wider limit on a loaded machine measures strength without losses to
# scheduling delays; timeouts are counted in the tables either way.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
turn_ms=${PENGUINS_TURN_MS:-50}
cargo build --release --quiet -p bot -p tester -p bundler
./target/release/bundler -o target/codingame/penguins.rs --check \
  --binary target/codingame/penguins
bundle=target/codingame/penguins
native="./target/release/bot penguins"
greedy="./target/release/bot penguins --policy greedy"
echo "== 1. bundle vs native, head to head, 2 and 4 players, $games games each, seeds from 1000, $turn_ms ms turns"
./target/release/tester arena --quiet --bot "bundle=$bundle" --bot "native=$native" \
  --players 2,4 --games "$games" --seed 1000 --turn-ms "$turn_ms"
for bot in bundle native; do
  cmd=$bundle
  [ "$bot" = native ] && cmd=$native
  echo "== 2. $bot vs greedy, 2 and 4 players, $games games each, seeds from 2000, $turn_ms ms turns"
  ./target/release/tester arena --quiet --bot "$bot=$cmd" --bot "greedy=$greedy" \
    --players 2,4 --games "$games" --seed 2000 --turn-ms "$turn_ms"
done
