# Shared by the shard scripts (sourced, not run): the tester command line split into the tool's
# words and the rest, and the merge command of that tool.
#
# split_tool ARGS...: sets `tool` (arena | splitter | scruffle bench: the words after `tester`),
# `merge` (the merge subcommand's words) and `rest` (the other arguments). The shard options go
# right after the tool's words, before `--command` (splitter's --command takes every word after it).
split_tool() {
  case "${1:-}" in
    arena | splitter) tool=("$1") merge=("$1" merge); shift ;;
    scruffle)
      [ "${2:-}" = bench ] || die "only \`scruffle bench\` runs in shards"
      tool=(scruffle bench) merge=(scruffle merge); shift 2 ;;
    *) die "the tester command must start with arena, splitter or scruffle bench (got '${1:-}')" ;;
  esac
  rest=("$@")
}

die() {
  echo "error: $(basename "$0"): $*" >&2
  exit 1
}

# shard_files DIR NAME N: the N results files of one run, in shard order.
shard_files() {
  local k
  for ((k = 1; k <= $3; k++)); do printf '%s\n' "$1/$2-$k-of-$3.json"; done
}
