#!/usr/bin/env bash
# Public Penguins engines as opponents for `tester arena`: builds our adapters (the code under
# scripts/opponents/) against a local checkout of each engine, and prints the bot command to give
# the arena. Nothing of the engines is copied here; CI does not need them. See docs/penguins.md.
#
#   scripts/opponents.sh build htmf PATH        # PATH: a checkout of github.com/jthemphill/htmf
#   scripts/opponents.sh build gameframe PATH   # PATH: github.com/tpepels/mcts_gameframe at f404332
#   scripts/opponents.sh command htmf|gameframe MS   # the bot command, MS ms of search per move
#   scripts/opponents.sh fixed htmf|gameframe N      # the bot command, N playouts per move
#
# Builds go to $OPPONENTS_DIR (default target/opponents). htmf needs cargo (its crates are
# fetched from crates.io the first time); gameframe needs a JDK (javac 17 or later).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OPPONENTS_DIR:-$root/target/opponents}

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

build_htmf() {
  local src
  src=$(cd "$1" && pwd)
  [ -f "$src/bots/src/mctsbot.rs" ] || { echo "error: $src has no bots/src/mctsbot.rs (not an htmf checkout?)" >&2; exit 1; }
  mkdir -p "$out/htmf-adapter"
  cat >"$out/htmf-adapter/Cargo.toml" <<EOF
[package]
name = "htmf-adapter"
version = "0.1.0"
edition = "2021"

[[bin]]
name = "htmf-adapter"
path = "$root/scripts/opponents/htmf-adapter.rs"

[dependencies]
htmf = { path = "$src/engine" }
htmf-bots = { path = "$src/bots" }

[workspace]
EOF
  # The engine's own lock file, so its crates resolve to the versions it was tested with.
  [ -f "$out/htmf-adapter/Cargo.lock" ] || cp "$src/Cargo.lock" "$out/htmf-adapter/Cargo.lock"
  cargo build --release --manifest-path "$out/htmf-adapter/Cargo.toml" --target-dir "$out/htmf-target"
  cp "$out/htmf-target/release/htmf-adapter" "$out/htmf-adapter-bin"
  echo "built $out/htmf-adapter-bin (htmf at $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?'))"
}

build_gameframe() {
  local src commit
  src=$(cd "$1" && pwd)
  [ -f "$src/penguin/src/penguin/game/Board.java" ] || { echo "error: $src has no penguin/src/penguin/game/Board.java (not an mcts_gameframe checkout?)" >&2; exit 1; }
  commit=$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo '?')
  if [ "$commit" != f404332 ]; then
    echo "warning: mcts_gameframe is at $commit; its Penguin MCTS works at f404332 (git -C $src checkout f404332)" >&2
  fi
  rm -rf "$out/gameframe-classes"
  mkdir -p "$out/gameframe-classes"
  # -sourcepath compiles only the classes the adapter reaches.
  javac -nowarn -encoding UTF-8 -d "$out/gameframe-classes" \
    -sourcepath "$src/players/src:$src/penguin/src" "$root/scripts/opponents/GameframeAdapter.java"
  echo "built $out/gameframe-classes (mcts_gameframe at $commit)"
}

# built ENGINE PATH: fail in one line unless the adapter PATH exists (a command for an adapter
# never built would only lose every arena game).
built() {
  [ -e "$2" ] || { echo "error: $2 does not exist: build the $1 adapter first (scripts/opponents.sh build $1 PATH)" >&2; exit 1; }
}

command_for() {
  local engine=$1 limit=$2
  case "$engine" in
    htmf)
      built htmf "$out/htmf-adapter-bin"
      echo "$out/htmf-adapter-bin $limit" ;;
    gameframe)
      built gameframe "$out/gameframe-classes/GameframeAdapter.class"
      echo "java -Xss16m -cp $out/gameframe-classes GameframeAdapter $limit --seed {seed}" ;;
    *) usage ;;
  esac
}

case "${1:-}" in
  build)
    [ $# -eq 3 ] || usage
    case "$2" in
      htmf) build_htmf "$3" ;;
      gameframe) build_gameframe "$3" ;;
      *) usage ;;
    esac
    ;;
  command | fixed)
    [ $# -eq 3 ] || usage
    [[ "$3" =~ ^[0-9]+$ ]] || { echo "error: expected a whole number, got '$3'" >&2; exit 2; }
    if [ "$1" = command ]; then
      command_for "$2" "--ms $3"
    elif [ "$2" = htmf ]; then
      command_for "$2" "--playouts $3"
    else
      command_for "$2" "--simulations $3"
    fi
    ;;
  *) usage ;;
esac
