#!/usr/bin/env bash
# Run a tester plan as N shards with GNU parallel, here or on SSH hosts, then merge them.
#
#   scripts/parallel-shards.sh -n N -o DIR [-S HOSTS] [-j JOBS] [--name NAME] [--no-merge]
#                              [--no-build] -- TESTER_ARGS...
#
# TESTER_ARGS is what follows `tester` in the unsharded command, e.g.
#   arena --bot "a=./target/release/bot penguins --policy engine" --bot "b=..." --games 400
#   splitter --games 400 --seed s1 --layout both --command ./target/release/bot splitter --vs ...
#   scruffle bench --seeds 1-100 --seconds 10
# Shard K runs `tester TOOL --shard K/N --json DIR/NAME-K-of-N.json REST` (its report goes to
# DIR/NAME-K-of-N.log); then `tester TOOL merge` of the N files prints the whole plan's report,
# also saved as DIR/NAME-merged.txt (stdout), .err (stderr: Splitter's means and CIs) and .json. The exit status is the merge's
# (3: an SPRT that needs another round).
#
# -S HOSTS: GNU parallel's --sshloginfile (one host a line, e.g. `1/user@node7`; the number is how
# many shards that host plays at once; `:` is this machine). The committed HEAD (`git archive`) is
# copied to every host, unpacked in ~/.cache/bot-shards/COMMIT and built there with
# `cargo build --release -p bot -p tester` (nothing else is built); the shards run in that
# folder, so a bot given as ./target/release/bot is the one built from the same commit, and the
# results come back with --return. Uncommitted changes are not sent (a warning says so).
# Without -S everything runs here, after the same build (skipped with --no-build, or when TESTER
# names a tester binary).
# -j JOBS: shards at once per host without a number in HOSTS (default 1: the arena and the
# splitter use the host's cores themselves, with --workers / --jobs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=shard-common.sh
. "$here/shard-common.sh"
repo=$(cd "$here/.." && pwd)

n='' out='' hosts='' jobs=1 name=shard do_merge=1 build=1
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -S) hosts=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --no-merge) do_merge=0; shift ;;
    --no-build) build=0; shift ;;
    --) shift; break ;;
    *) die "unknown option '$1' (see the comment at the top of this script)" ;;
  esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n N: the number of shards (1 or more)"
[ -n "$out" ] || die "-o DIR: where the results files go"
[[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || die "--name: letters, digits, '.', '_' and '-' only"
command -v parallel >/dev/null || die "GNU parallel is not installed (Debian: apt-get install parallel)"
split_tool "$@"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The command line of shard {shard} (GNU parallel's K, left unquoted for parallel to find),
# quoted for the shell that runs it; JSON is shell text naming the results file.
shard_line() { # shard_line TESTER JSON
  printf '%q ' "$1" "${tool[@]}"
  printf -- '--shard {shard}/%s --json %s ' "$n" "$2"
  if [ ${#rest[@]} -gt 0 ]; then printf '%q ' "${rest[@]}"; fi
}

tester=${TESTER:-$repo/target/release/tester}
if [ -z "${TESTER:-}" ] && [ "$build" = 1 ]; then
  (cd "$repo" && cargo build --release --quiet -p bot -p tester)
fi

status=0
if [ -z "$hosts" ]; then
  prefix=$(printf %q "$out/$name")
  parallel --will-cite -j "$jobs" -I '{shard}' \
    "$(shard_line "$tester" "$prefix-{shard}-of-$n.json") > $prefix-{shard}-of-$n.log" \
    ::: $(seq 1 "$n") || status=$?
else
  [ -r "$hosts" ] || die "-S $hosts: cannot read the hosts file"
  hosts=$(cd "$(dirname "$hosts")" && pwd)/$(basename "$hosts")
  commit=$(cd "$repo" && git rev-parse HEAD)
  git -C "$repo" diff --quiet HEAD || echo "warning: uncommitted changes are not sent to the hosts (they build $commit)" >&2
  # Expanded by each host's shell (`:` in HOSTS, this machine, works the same way).
  remote='"$HOME"/.cache/bot-shards/'$commit
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  archive=bot-src-$commit.tar.gz
  git -C "$repo" archive --format=tar.gz -o "$stage/$archive" HEAD
  if [ "$build" = 1 ]; then
    # Once per host: unpack and build the release binaries (BOT_COMMIT names the build). The
    # archive lands in the login folder (here: in the stage folder, where this runs).
    (cd "$stage" && parallel --will-cite --nonall --sshloginfile "$hosts" --basefile "$archive" \
      ". \"\$HOME\"/.cargo/env 2>/dev/null; mkdir -p $remote && tar -xzf $archive -C $remote && rm -f $archive && cd $remote && BOT_COMMIT=$commit cargo build --release --quiet -p bot -p tester")
  fi
  # Each shard prints its results file on stdout (its report goes to stderr), which --results
  # saves here as NAME-K-of-N.out (and .out.err): nothing to copy back by hand.
  run_command="cd $remote && f=\$(mktemp) && $(shard_line ./target/release/tester '"$f"') >&2; s=\$?; cat \"\$f\"; rm -f \"\$f\"; exit \$s"
  parallel --will-cite -j "$jobs" --sshloginfile "$hosts" -I '{shard}' \
    --results "$out/$name-{shard}-of-$n.out" "$run_command" ::: $(seq 1 "$n") >/dev/null || status=$?
  for ((k = 1; k <= n; k++)); do
    base=$out/$name-$k-of-$n
    # A shard that failed printed nothing: no results file (the merge names it missing).
    if [ -s "$base.out" ]; then mv "$base.out" "$base.json"; else rm -f "$base.out"; fi
    if [ -e "$base.out.err" ]; then mv "$base.out.err" "$base.log"; fi
    rm -f "$base.out.seq"
  done
fi
if [ "$status" != 0 ]; then
  echo "$(basename "$0"): $status shard(s) failed (see $out/$name-K-of-$n.log); merging shows what is missing" >&2
fi
[ "$do_merge" = 1 ] || exit "$status"

mapfile -t files < <(shard_files "$out" "$name" "$n")
merge_status=0
"$tester" "${merge[@]}" "${files[@]}" --json "$out/$name-merged.json" \
  >"$out/$name-merged.txt" 2>"$out/$name-merged.err" || merge_status=$?
cat "$out/$name-merged.txt"
cat "$out/$name-merged.err" >&2
exit "$merge_status"
