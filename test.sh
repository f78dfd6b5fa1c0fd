#!/usr/bin/env bash
# The one test command: formatting, lints, every crate's tests (they read ../shared), end-to-end
# checks. Each stage is named as it starts and ends; the last line is the verdict, in the plain
# "N passed, N failed" form (N counts stages).
set -uo pipefail
cd "$(dirname "$0")"
if [ ! -d ../shared ]; then echo "error: ../shared (challenge data and specs) must sit beside this checkout" >&2; exit 1; fi

passed=0
started=$SECONDS
# stage NAME COMMAND...: run one stage; on failure print the verdict and stop.
stage() {
  local name=$1 t=$SECONDS
  shift
  echo "== test.sh: $name: $*"
  if "$@"; then
    passed=$((passed + 1))
    echo "== test.sh: $name: ok ($((SECONDS - t)) s)"
  else
    echo "== test.sh: $name: FAILED (exit $?, after $((SECONDS - t)) s)"
    echo "test.sh: $passed passed, 1 failed"
    exit 1
  fi
}

stage format cargo fmt --all -- --check
stage lints cargo clippy --workspace --all-targets --release -- -D warnings
# The page tests open every page the project writes in headless Chromium: installed here when
# missing (as root, with apt-get), else this stage fails saying how.
stage browser bash scripts/chromium.sh
stage tests cargo test --workspace --release
# CodinGame bundle: build it, compile it alone with rustc, referee it against the greedy baseline.
stage bundle bash bundler/ci.sh
echo "== test.sh: every stage ok in $((SECONDS - started)) s"
echo "test.sh: $passed passed, 0 failed"
