#!/usr/bin/env bash
# An arena SPRT across machines, round by round: each round's games are played as N shards (GNU
# parallel here or on SSH hosts, or a Slurm job array), then every round so far is merged and the
# SPRT decides on the merged games: H0 or H1 (exit 0), --max-games reached (exit 0), or the next
# round. The verdict is the one `tester arena --sprt` gives on one machine: the test is checked
# after every round of --round-games games, in plan order.
#
#   scripts/sprt-rounds.sh -n N -o DIR [--runner parallel|slurm] [-S HOSTS] [-j JOBS]
#                          -- arena --sprt A,B --round-games G [--max-games M] --bot ... --bot ...
#
# Round R's shards are DIR/round-R-K-of-N.json; the merged report is DIR/sprt-report.txt (and
# DIR/sprt-merged.json). The build runs once, before round 1. Starting again with the same DIR
# resumes after the last round whose N files are all there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=shard-common.sh
. "$here/shard-common.sh"
repo=$(cd "$here/.." && pwd)

n='' out='' runner=parallel hosts=() jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --runner) runner=$2; shift 2 ;;
    -S) hosts=(-S "$2"); shift 2 ;;
    -j) jobs=(-j "$2"); shift 2 ;;
    --) shift; break ;;
    *) die "unknown option '$1' (see the comment at the top of this script)" ;;
  esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n N: the number of shards per round (1 or more)"
[ -n "$out" ] || die "-o DIR: where the results files go"
[ "${1:-}" = arena ] || die "the tester command must be an arena SPRT: arena --sprt A,B ..."
shift
case " $* " in *" --sprt "*) ;; *) die "the arena command needs --sprt A,B" ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
tester=${TESTER:-$repo/target/release/tester}

build=()
round=1
while true; do
  mapfile -t files < <(shard_files "$out" "round-$round" "$n")
  done_already=1
  for f in "${files[@]}"; do [ -s "$f" ] || done_already=0; done
  if [ "$done_already" = 1 ]; then
    echo "== round $round: already played ($out/round-$round-*-of-$n.json)"
  else
    echo "== round $round: $n shards"
    case "$runner" in
      parallel) "$here/parallel-shards.sh" -n "$n" -o "$out" --name "round-$round" --no-merge \
        "${build[@]}" "${hosts[@]}" "${jobs[@]}" -- arena --round "$round" "$@" ;;
      slurm) "$here/slurm-shards.sh" -n "$n" -o "$out" --name "round-$round" --no-merge --wait \
        "${build[@]}" -- arena --round "$round" "$@" ;;
      *) die "--runner parallel or slurm" ;;
    esac
  fi
  build=(--no-build)
  # Every round so far, merged: the verdict on all their games, in plan order.
  all=()
  for ((r = 1; r <= round; r++)); do
    mapfile -t -O "${#all[@]}" all < <(shard_files "$out" "round-$r" "$n")
  done
  status=0
  "$tester" arena merge --quiet "${all[@]}" --json "$out/sprt-merged.json" >"$out/sprt-report.txt" || status=$?
  case "$status" in
    0) cat "$out/sprt-report.txt"; exit 0 ;;
    3) grep '^SPRT' "$out/sprt-report.txt" || true; round=$((round + 1)) ;;
    *) cat "$out/sprt-report.txt"; die "the merge after round $round failed (status $status)" ;;
  esac
done
