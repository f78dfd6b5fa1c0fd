#!/bin/bash
# Re-runs the hostile-input reproductions against the release build: for each case, the exit code,
# wall time, peak memory and the first line that says what happened. Every case should end within
# seconds with a one-line error (or a quiet success), never a hang, a panic, a leftover process or
# a silently wrong answer. Cases are grouped by the defect they reproduce; the inputs are built here.
# Usage: scripts/hostile-repro.sh   (after cargo build --release; needs GNU time at /usr/bin/time
# and python3)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/target/release/bot; T=$ROOT/target/release/tester
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT; cd "$D"
MAX=18446744073709551615
# run NAME COMMAND...: time the command (120 s at most) and print one line about it.
run() { local name="$1"; shift
  /usr/bin/time -o t.txt -f "%e s, %M KB" timeout 120 "$@" > out.txt 2> err.txt; local rc=$?
  printf '%-52s exit %3s  %-18s | %s\n' "$name" "$rc" "$(tail -1 t.txt)" \
    "$( (grep -h -m1 -E 'error|seat 0:|panicked|interrupted' err.txt out.txt ||
         grep -hv -e '^\s*$' -e '^warning: load average' err.txt out.txt | head -1) | cut -c1-150)"
}
# note NAME TEXT: a line for a check made by hand (no single command to time).
note() { printf '%-52s %s\n' "$1" "$2"; }
section() { echo; echo "== $1"; }

section "earlier cases: flooding bots, absurd durations, huge inputs, closed pipes"
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

section "1 Splitter clock on custom boards (first answer at --game-ms 220, 10 ms a move)"
python3 -c "print('20 20 22'); [print(' '.join(['1']*20)) for _ in range(20)]; print('1 2')" > b20.txt
python3 -c "print('64 64 22'); [print(' '.join(['1']*64)) for _ in range(64)]; print('1 2')" > b64.txt
python3 -c "print('8 8 3'); [print(' '.join(['1']*8)) for _ in range(8)]; print('1 2')" > b883.txt
run "splitter --game-ms 220: 20x20, every cell fillable" bash -c "$B splitter --game-ms 220 < b20.txt"
run "splitter --game-ms 220: 64x64, every cell fillable" bash -c "$B splitter --game-ms 220 < b64.txt"
run "splitter --game-ms 220: 8x8 board, header '8 8 3'" bash -c "$B splitter --game-ms 220 < b883.txt"

section "2 Scruffle --seconds on a large board"
python3 -c "[print('1'*1000) for _ in range(1000)]" > big.board
python3 -c "[print('A'*(2 + i % 150)) for i in range(10000)]" > aa.words
run "scruffle 1000x1000, 10,000 words of A's, --seconds 2" $B scruffle --seconds 2 --board big.board --words aa.words

section "3 Scruffle totals on an all-T board"
python3 -c "[print('T'*100) for _ in range(100)]" > t.board
python3 -c "[print('Z'*(60 + i % 40)) for i in range(300)]" > zz.words
run "scruffle all-T 100x100, long words: solve" bash -c "$B scruffle --seconds 2 --board t.board --words zz.words > t.plays"
run "scruffle all-T: checker on the solver's plan" $T scruffle score --board t.board --words zz.words --placements t.plays

section "4 Ctrl-C / SIGTERM while bots wait (bots left running afterwards?)"
# interrupt NAME SIGNAL ARGS...: start the tester, send SIGNAL after the bots started, then count
# the bots still alive and say what became of --json.
interrupt() { local name=$1 sig=$2; shift 2
  : > pids; echo "the previous run's results" > prev.json
  # A script's background job starts with SIGINT ignored (and the tester leaves it so): undo that.
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$T" "$@" > out.txt 2> err.txt & local pid=$!
  for _ in $(seq 100); do [ -s pids ] && break; sleep 0.05; done; sleep 0.3
  local t0=$(date +%s.%N); kill -"$sig" $pid; wait $pid; local rc=$?
  local took=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f} s')")
  sleep 0.3; local alive=0
  for p in $(cat pids); do kill -0 "$p" 2>/dev/null && { alive=$((alive + 1)); kill -9 "$p"; }; done
  local json="absent"; [ -e prev.json ] && json="$(head -c 40 prev.json)"
  printf '%-52s exit %3s  %-18s | bots left running: %d; --json: %s; %s\n' "$name" "$rc" "$took after signal" \
    "$alive" "$json" "$(grep -h -m1 interrupted err.txt | cut -c1-90)"
}
W="echo \$\$ >> pids; exec sleep 120"
interrupt "tester penguins + SIGINT" INT penguins --bot "$W" --bot "$W" --first-ms 60000 --replay prev.json
interrupt "tester arena + SIGTERM" TERM arena --games 4 --bot "a=$W" --bot "b=$W" --first-ms 60000 --json prev.json
interrupt "tester splitter + SIGINT" INT splitter --games 4 --jobs 2 --seed x --timeout-ms 60000 --json prev.json --command "$W"

section "5 replay viewer: a hand-edited replay"
$T penguins --seed 5 --bot "$B penguins --policy greedy" --bot "$B penguins --policy greedy" --replay game.json > /dev/null 2>&1
python3 - <<'EOF'
import json
r = json.load(open("game.json"))
r["end_reason"] = "<img src=x onerror=alert(1)>"
json.dump(r, open("edited.json", "w"))
EOF
run "penguins --check: end_reason <img onerror>" $T penguins --check edited.json
run "penguins --view: end_reason <img onerror>" $T penguins --view edited.json --html edited.html

section "6 seed arithmetic"
printf '3\n3\n?.?\n?..\n?..\n0 0 4\n0 2 0\n1 0 3\n2 0 3\n' > l.cwg; printf 'LEA\nID\nEI\nAD\n' > l.words
run "crossword fill --seed $MAX" $B crossword fill l.cwg --words l.words --seconds 5 --seed $MAX
run "crossword fill --seed MAX-2 --runs 5" $B crossword fill l.cwg --words l.words --seconds 5 --seed 18446744073709551613 --runs 5
run "tester honey check --seed MAX-2 --count 5" $T honey check --seed 18446744073709551613 --count 5 --size 5

section "7 uncapped bench counts"
run "bench honey --size 100000" $B bench honey --size 100000
run "bench honey --size 4294967296" $B bench honey --size 4294967296
run "bench honey --vocab 100000000" $B bench honey --vocab 100000000
# Under a 4 GB address-space limit: an uncapped run must not take the machine's memory.
run "scruffle bench --seeds 600 x 0-999999" bash -c "ulimit -v 4000000; exec $T scruffle bench --seeds $(python3 -c "print(','.join(['0-999999']*600))")"
run "scruffle bench --u4-sweeps $MAX" $T scruffle bench --seeds 1 --u4-sweeps $MAX

section "8 file reads capped at 256 MiB"
run "tester penguins --check /dev/zero" $T penguins --check /dev/zero
run "bot bench splitter --paired-with /dev/zero" bash -c "ulimit -v 4000000; exec $B bench splitter --paired-with /dev/zero --games 2"

section "9 merges of edited shards"
$T splitter --games 4 --seed s9 --shard 1/1 --json sp.json --command "$B splitter --policy greedy" > /dev/null 2>&1
python3 - <<'EOF'
import json
f = json.load(open("sp.json"))
game = f["main"][0]
game["score"] = 999
game["moves"] = [[game["moves"][0][0], 0, 0]] * len(game["moves"])
json.dump(f, open("sp-edited.json", "w"))
EOF
run "splitter merge: a game edited to score 999" $T splitter merge sp-edited.json
$T arena --quiet --games 4 --bot "random=$B penguins --policy random --seed {seed}" --bot "greedy=$B penguins --policy greedy" --shard 1/1 --json ar.json > /dev/null 2>&1
python3 - <<'EOF'
import json
f = json.load(open("ar.json"))
g = f["games"][0]
seat = g["seats"].index(0)
g["final_scores"][seat] = 99999
json.dump(f, open("ar-edited.json", "w"))
EOF
run "arena merge: random bot edited to 99999 points" $T arena merge ar-edited.json

section "10 outputs"
run "arena --json into a folder that takes no file" $T arena --games 2 --bot "a=sleep 5" --bot "b=sleep 5" --json /proc/x.json
run "brutaltester form -l /nonexistent/x.json" $T penguins -p1 "sleep 5" -p2 "sleep 5" -l /nonexistent/x.json
run "penguins --replay F --html F" $T penguins --bot "sleep 5" --bot "sleep 5" --replay same.out --html same.out
run "splitter --json F --html F" $T splitter --games 1 --seed x --json same.out --html same.out --command "sleep 5"

section "11 Honey hand of 400 A's, a word needing 261"
python3 - <<'EOF'
rows = lambda cells: "".join(" ".join(r) + "\n" for r in cells)
letters = [["-"] * 200 for _ in range(2)]; letters[1][61] = "A"
bonuses = [["-"] * 200 for _ in range(2)]; bonuses[0][199] = "pr"; bonuses[1][0] = "pl"
open("h_letters.txt", "w").write(rows(letters)); open("h_bonuses.txt", "w").write(rows(bonuses))
open("h_hand.txt", "w").write("A" * 400 + "\n"); open("h_words.txt", "w").write("A" * 262 + "\n")
EOF
run "honey: 400 A's in hand, 262-letter word" $B honey --dir . --id h
note "" "answer: $(cut -c255-290 out.txt | head -1)"

section "12 Penguins init with playerId 5 in a 2-player game (one listed answer?)"
python3 - <<'EOF'
turn = ["8"] + ["11111110" if r % 2 == 0 else "11111111" for r in range(8)] + ["0", "0", "0", "2", "MOVE 0 B1", "MOVE 0 C1"]
open("pid5.txt", "w").write("\n".join(["2", "5", "4"] + turn) + "\n")
EOF
run "bot penguins, playerId 5, one turn" bash -c "$B penguins < pid5.txt"
note "" "answers for 1 turn (listed: MOVE 0 B1, MOVE 0 C1): $(wc -l < out.txt): $(tr '\n' '|' < out.txt)"

section "13 generating into the input folder"
mkdir -p grids; printf '5\n5\n.....\n.....\n.....\n.....\n.....\n' > grids/g.cwg; cp grids/g.cwg before.cwg
run "crossword generate grids --out-dir grids" $B crossword generate grids --out-dir grids --seconds 2 --first
note "" "input grids/g.cwg $(cmp -s grids/g.cwg before.cwg && echo unchanged || echo OVERWRITTEN)"

section "14 small-sample statistics"
run "tester splitter --games 2: interval" $T splitter --games 2 --seed s14 --silent --command "$B splitter --policy greedy"
note "" "$(grep -h -m1 '95% CI' err.txt | cut -c1-120)"
run "tester splitter --games 1: interval" $T splitter --games 1 --seed s14 --silent --command "$B splitter --policy greedy"
note "" "$(grep -h -m1 '95% CI' err.txt | cut -c1-120)"

# ---------------------------------------------------------------------------------------------
# Scruffle: claims about the optimum, the bench's clocks, the checker's files.
# ---------------------------------------------------------------------------------------------
section "Scruffle: no false optimal or best bound (lists whose entries repeat and nest)"
# uniform SIDE CELL: a SIDE x SIDE board of CELL, and the words A, AA, ... (SIDE letters), SIDE
# times each. On the 4x4 and 6x6 boards every entry fits at its best, so the optimum is the sum
# of the entries' best scores: 200 and 630.
uniform() { python3 -c "
n, c = $1, '$2'
open('u.board', 'w').write((c * n + '\n') * n)
open('u.words', 'w').write(''.join(('A' * l + '\n') * n for l in range(1, n + 1)))"; }
# claim NAME SECONDS: bot's claim at SECONDS, beside the best plan of a longer run (checked).
claim() { local name=$1 s=$2 long=$3
  run "$name, --seconds $s" $B scruffle --seconds "$s" --board u.board --words u.words
  local said; said=$(grep -h -E '^(optimal|best bound):' err.txt | tr '\n' ' ')
  $B scruffle --seconds "$long" --board u.board --words u.words > long.plays 2> /dev/null
  note "" "claims: ${said:-none}; a $long s plan: $($T scruffle score --board u.board --words u.words --placements long.plays 2>&1 | cut -c1-60)"
}
uniform 4 5;  claim "4x4 of 5, A..AAAA x4" 0.001 1
uniform 6 5;  claim "6x6 of 5, A..A(6) x6" 0.02 1
uniform 16 T; claim "16x16 of T, A..A(16) x16" 0.2 2
uniform 16 5; claim "16x16 of 5, A..A(16) x16" 0.2 2

section "Scruffle bench: every phase on a clock"
run "bench 100x100, 10,000 words, --seconds 1" $T scruffle bench --seeds 1 --width 100 --height 100 --words 10000 --seconds 1
note "" "$(grep -h -m1 -E "clock ran out" out.txt | cut -c1-110)"
run "bench 40x40, --u4-sweeps 100000 --phase-seconds 1" $T scruffle bench --seeds 1 --width 40 --height 40 --words 2000 --seconds 0.5 --phase-seconds 1 --u4-sweeps 100000
run "bench 1000x1000, 100,000 words, --phase-seconds 1" $T scruffle bench --seeds 1 --width 1000 --height 1000 --words 100000 --seconds 1 --phase-seconds 1
run "bench --exact-nodes 1: nothing proven" $T scruffle bench --seeds 1 --width 12 --height 12 --words 40 --work 0 --exact-nodes 1 --u4-sweeps 0
note "" "$(grep -h -m1 '^score/(optimum' out.txt)"

section "Scruffle checker: files"
printf '1111\n' > c.board; printf 'cat\n' > c.words; printf '\xef\xbb\xbfH 0 0 0\n' > bom.plays
run "score: placements starting with a BOM" $T scruffle score --board c.board --words c.words --placements bom.plays
: > empty.words
run "score: an empty word list" $T scruffle score --board c.board --words empty.words --placements bom.plays
run "bot scruffle: the same empty word list" $B scruffle --seconds 1 --board c.board --words empty.words

# ---------------------------------------------------------------------------------------------
# Runs that could not run, outputs checked before the work and written whole, exact answers.
# ---------------------------------------------------------------------------------------------
section "a bot that never ran, a referee out of file descriptors, an adapter never built"
G="$B penguins --policy greedy"
run "arena --sprt greedy,typo: typo=/nonexistent/bot" $T arena --quiet --workers 1 --bot typo=/nonexistent/bot --bot "greedy=$G" --sprt greedy,typo
note "" "verdict line: $(grep -h -m1 SPRT out.txt | cut -c1-100)"
run "arena under ulimit -n 12" bash -c "ulimit -n 12; exec $T arena --quiet --workers 1 --games 4 --bot 'a=$G' --bot 'b=$G'"
note "" "$(grep -h -m1 '^not played' err.txt | cut -c1-150)"
run "tester penguins --bot /nonexistent/bot" $T penguins --bot /nonexistent/bot --bot "$G"
run "opponents.sh command htmf 40 (never built)" env OPPONENTS_DIR="$D/no-opponents" "$ROOT/scripts/opponents.sh" command htmf 40

section "outputs into a folder that takes no file (/proc), with a long run behind them"
run "bot train splitter -o /proc/v.bin" $B train splitter --layout 1 --games 100000000 -o /proc/v.bin
run "bot bench splitter --save-scores /proc/s.txt" $B bench splitter --games 100000 --save-scores /proc/s.txt
printf '15\n15\n%s' "$(for _ in $(seq 15); do printf '...............\n'; done)" > empty15.cwg
run "crossword generate -o /proc/x.cwg --seconds 60" $B crossword generate empty15.cwg -o /proc/x.cwg --seconds 60
echo "the previous run's results" > ok.json
run "arena --replays /proc --json ok.json" $T arena --games 4 --bot "a=sleep 5" --bot "b=sleep 5" --replays /proc --json ok.json
note "" "ok.json: $(head -c 40 ok.json)"

section "a write that fails midway (file-size limit of 1 KiB, as a full disk)"
# limited NAME COMMAND...: run under `ulimit -f 1` (1 KiB in bash) with SIGXFSZ ignored, so file
# writes fail with EFBIG; its stdout and stderr go through a pipe, which the limit does not touch.
limited() { local name=$1; shift
  run "$name" bash -c 'set -o pipefail; trap "" XFSZ; (ulimit -f 1; exec "$@") 2>&1 | cat' _ "$@"; }
echo "the previous run's results" > prev.json
limited "tester splitter --json prev.json" $T splitter --games 2 --seed x --silent --json prev.json --command "$B splitter --policy greedy"
note "" "prev.json: $( [ -e prev.json ] && echo "$(wc -c < prev.json) bytes: $(head -c 30 prev.json)" || echo absent); stray files: $(ls -A | grep -c '\.tmp$')"
echo "the previous run's results" > prev.json
limited "tester arena --json prev.json" $T arena --quiet --games 2 --workers 1 --bot "a=$G" --bot "b=$G" --json prev.json
note "" "$(grep -h -m1 '^error' out.txt | cut -c1-120)"
note "" "prev.json: $( [ -e prev.json ] && echo "$(wc -c < prev.json) bytes" || echo absent); stray files: $(ls -A | grep -c '\.tmp$')"
echo "the previous grid" > prev.cwg
python3 -c "print('25\n25'); [print('.' * 25) for _ in range(25)]" > empty25.cwg
limited "crossword generate -o prev.cwg (previous kept)" $B crossword generate empty25.cwg -o prev.cwg --seconds 10 --first
note "" "prev.cwg: $(head -c 30 prev.cwg); stray files: $(ls -A | grep -c '\.tmp$')"
run "bot splitter > /dev/full (stdout cannot be written)" bash -c 'printf "8 7 22\n0 0 1 1 1 1 0 0\n0 1 1 1 1 1 1 0\n1 1 1 1 1 1 1 1\n2 1 1 1 1 1 1 2\n1 1 1 1 1 1 1 1\n0 1 1 1 1 1 1 0\n0 0 1 1 1 1 0 0\n3 5\n" | "$0" splitter --policy greedy > /dev/full' $B
run "tester honey gen > /dev/full" bash -c '"$0" honey gen --seed 1 > /dev/full' $T

section "exact answers and named causes"
python3 - <<'PY'
n = 64
rows = lambda cells: "".join(" ".join(r) + "\n" for r in cells)
letters = [["-"] * n for _ in range(n)]; letters[0][0] = "A"
open("tw_letters.txt", "w").write(rows(letters)); open("tw_bonuses.txt", "w").write(rows([["tw"] * n] * n))
open("tw_hand.txt", "w").write("A" * 200 + "\n"); open("tw_words.txt", "w").write("".join("A" * k + "\n" for k in range(2, n + 1)))
PY
run "honey: 64x64 of tw, 200 A's, top 3" $B honey --dir . --id tw --top 3
note "" "$(tr '\n' ' ' < out.txt | sed 's/AAAA*/A^k/g' | cut -c1-150)"
printf '3\n3\n?.?\n?\xc3\x84.\n?..\n' > umlaut.cwg
run "crossword rate: a row with Ä" $B crossword rate umlaut.cwg
printf '3\n3\n?.?\n?..\n?..\n0 0 4\n0 2 0\n1 0 3\n' > broken.cwg
run "crossword fill: a question field without question" $B crossword fill broken.cwg --seconds 2
run "bench penguins --positions 0" $B bench penguins --positions 0
