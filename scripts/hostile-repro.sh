#!/bin/bash
# Re-runs the hostile-input reproductions of the hardening issue against the release build:
# for each, the exit code, wall time, peak memory and the first line of stderr. Every line should
# end within a few seconds with a one-line error (or a quiet success), never a hang or a panic.
# Usage: scripts/hostile-repro.sh   (after cargo build --release; needs GNU time at /usr/bin/time)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/target/release/bot; T=$ROOT/target/release/tester
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT; cd "$D"
run() { local name="$1"; shift
  /usr/bin/time -o t.txt -f "%e s, %M KB" timeout 120 "$@" > out.txt 2> err.txt; local rc=$?
  printf '%-48s exit %3s  %-18s | %s\n' "$name" "$rc" "$(tail -1 t.txt)" \
    "$( (grep -h -m1 -E 'error|seat 0:' err.txt out.txt || grep -v '^\s*$' err.txt | head -1) | cut -c1-140)"
}
run "splitter bot: yes hello" $T splitter --games 1 --seed x --timeout-ms 2000 --silent --command "yes hello"
run "splitter bot: yes 'p 1 0,0'" $T splitter --games 1 --seed x --timeout-ms 2000 --silent --command "yes 'p 1 0,0'"
run "splitter bot: cat /dev/zero" $T splitter --games 1 --seed x --timeout-ms 2000 --silent --command "cat /dev/zero"
run "crossword generate --seconds nan" $B crossword generate --seconds nan
run "crossword fill --seconds inf" $B crossword fill --seconds inf x
run "scruffle --seconds 1e30" $B scruffle --seconds 1e30
run "scruffle bench --seconds 1e30" $T scruffle bench --seconds 1e30
python3 -c "print('A'*100000); print('cat'); print('zebra')" > long.words
python3 -c "print('1D23T45678\n'*10, end='')" > b.board
run "scruffle: 100,000-letter word, --seconds 2" $B scruffle --seconds 2 --board b.board --words long.words
run "honey gen --size 100000" $T honey gen --seed 1 --size 100000
run "honey gen --id ../evil" $T honey gen --seed 1 --id ../evil
run "arena --alpha 2" $T arena --alpha 2 --bot "a=true" --bot "b=true" --sprt a,b
run "penguins referee: missing command" $T penguins -p1 /nonexistent/x -p2 "$B penguins"
run "bot penguins --policy bogus" $B penguins --policy bogus
run "crossword generate -o missing/dir/x.cwg" $B crossword generate -o missing/dir/x.cwg
run "arena | head -1 (broken pipe)" bash -c "$T arena --quiet --games 2 --bot 'a=$B penguins --policy greedy' --bot 'b=$B penguins --policy greedy' | head -1"
head -c 100000 /dev/urandom > bin.txt
run "bot penguins < 100 KB of random bytes" bash -c "$B penguins < bin.txt"
run "bot splitter < one 1 MB line" bash -c "python3 -c \"print('x'*1000000)\" | $B splitter"
