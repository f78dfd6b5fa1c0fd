#!/usr/bin/env bash
# Run a tester plan as a Slurm job array of N shards, then merge them: three jobs, each waiting
# for the one before (run from the checkout, on the cluster's shared file system):
#   1. build: `cargo build --release -p bot -p tester` (nothing else is built on the nodes);
#   2. the array: task K plays shard K/N (scripts/slurm-shard.sbatch);
#   3. merge: `tester TOOL merge` of the N files -> OUT/NAME-merged.txt and OUT/NAME-merged.json.
#
#   scripts/slurm-shards.sh -n N -o OUT [--name NAME] [--no-build] [--no-merge] [--wait]
#                           -- TESTER_ARGS...
#
# TESTER_ARGS: what follows `tester` in the unsharded command (see scripts/parallel-shards.sh).
# SBATCH_ARGS (environment): extra sbatch options for every job, e.g. "--partition=cpu
# --account=me". --wait: return when the last job has ended, with its exit status (the SPRT loop
# uses it with --no-merge). Prints the job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=shard-common.sh
. "$here/shard-common.sh"

n='' out='' name=shard build=1 do_merge=1 wait=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-merge) do_merge=0; shift ;;
    --wait) wait=(--wait); shift ;;
    --) shift; break ;;
    *) die "unknown option '$1' (see the comment at the top of this script)" ;;
  esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || die "-n N: the number of shards (1 or more)"
[ -n "$out" ] || die "-o OUT: where the results files go"
[[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || die "--name: letters, digits, '.', '_' and '-' only"
split_tool "$@"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Jobs are submitted from the checkout: the tasks run there (SLURM_SUBMIT_DIR).
cd "$here/.."
read -r -a extra <<<"${SBATCH_ARGS:-}"

after=()
if [ "$build" = 1 ]; then
  build_job=$(sbatch --parsable "${extra[@]}" --job-name=bot-build --output="$out/build.log" \
    --wrap "cargo build --release --quiet -p bot -p tester")
  echo "build job $build_job"
  after=(--dependency=afterok:"$build_job")
fi
last=()
[ "$do_merge" = 1 ] || last=("${wait[@]}")
array_job=$(sbatch --parsable "${extra[@]}" "${after[@]}" "${last[@]}" --array=1-"$n" \
  --output="$out/$name-%a-of-$n.log" scripts/slurm-shard.sbatch "$out" "$name" "$n" "$@")
echo "shard array $array_job"
[ "$do_merge" = 1 ] || exit 0

mapfile -t files < <(shard_files "$out" "$name" "$n")
merge_command=$(printf '%q ' "${TESTER:-./target/release/tester}" "${merge[@]}" "${files[@]}" --json "$out/$name-merged.json")
merge_job=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency=afterok:"$array_job" \
  --job-name=bot-merge --output="$out/$name-merged.txt" --wrap "$merge_command")
echo "merge job $merge_job (report in $out/$name-merged.txt)"
