#!/usr/bin/env python3
"""Reference optimum of a small Scruffle case with HiGHS (an outside yardstick, not the product).

    pip install highspy   (1.16 was used)
    python3 scripts/scruffle-mip.py BOARD WORDS [--plan OURS] [--seconds 120] [--out PLAN]

The model: one binary per placement that fits the board (in bounds, no obstacle, score > 0) and
one per (cell, letter); a cell holds at most one letter, each entry is placed at most once, and a
placement needs the letter it spells on each of its cells. Those linking rows are cliques: the
placements of one direction that put letter l on cell c and pairwise clash (the same cells, or a
disagreeing letter where they overlap) share one row `sum x_p <= x_(c,l)`. With one row per
placement instead, HiGHS proved 1 of 4 small cases in 150 s; with the cliques, all 4.

The play-order rule (every placement fills a new cell) is added lazily: a chosen set can be
ordered exactly when repeatedly taking out a placement with a cell no other remaining placement
covers empties it; a set that gets stuck is cut off (at most |stuck| - 1 of it). `--plan` gives a
starting solution (the solver's plan). The best plan is written in a valid order to `--out`, to be
checked by `tester scruffle score`. HiGHS runs on one thread.
Prints one line: `ours N best B bound U proven yes|no seconds S cuts C`.
"""

import argparse
import sys
import time

import highspy
import numpy as np

VALUE = {c: v for v, cs in [(1, "AEILNORSTU"), (2, "DG"), (3, "BCMP"), (4, "FHVWY"),
                            (5, "K"), (8, "JX"), (10, "QZ")] for c in cs}


def read_case(board_path, words_path):
    with open(board_path) as f:
        board = [line.strip() for line in f if line.strip()]
    with open(words_path) as f:
        words = [line.strip().upper() for line in f if line.strip()]
    return board, words


def placements(board, words):
    """Every (index, dir, x, y, cells, letters, score) that fits and scores above 0."""
    height, width = len(board), len(board[0])
    out = []
    for idx, word in enumerate(words):
        n = len(word)
        for d, (dx, dy) in (("H", (1, 0)), ("V", (0, 1))):
            for y in range(height - dy * (n - 1)):
                for x in range(width - dx * (n - 1)):
                    cells, letter_sum, mult = [], 0, 1
                    for k in range(n):
                        cx, cy = x + dx * k, y + dy * k
                        m = board[cy][cx]
                        if m == "#":
                            break
                        cells.append(cy * width + cx)
                        if m == "D":
                            letter_sum, mult = letter_sum + VALUE[word[k]], mult * 2
                        elif m == "T":
                            letter_sum, mult = letter_sum + VALUE[word[k]], mult * 3
                        else:
                            letter_sum += VALUE[word[k]] * int(m)
                    else:
                        if letter_sum * mult > 0:
                            out.append((idx, d, x, y, tuple(cells), word, letter_sum * mult))
    return out


def peel(chosen, places):
    """A valid play order of `chosen`, or the stuck rest when none exists."""
    rest = list(chosen)
    order = []
    while rest:
        cover = {}
        for p in rest:
            for c in places[p][4]:
                cover[c] = cover.get(c, 0) + 1
        free = [p for p in rest if any(cover[c] == 1 for c in places[p][4])]
        if not free:
            return None, rest
        order.extend(free[:1])
        rest.remove(free[0])
    order.reverse()
    return order, []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("words")
    ap.add_argument("--plan")
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--out")
    args = ap.parse_args()
    start = time.time()
    board, words = read_case(args.board, args.words)
    width = len(board[0])
    places = placements(board, words)
    n = len(places)
    key = {(p[0], p[1], p[2], p[3]): i for i, p in enumerate(places)}
    cells = sorted({c for p in places for c in p[4]})
    letter_var = {}
    for c in cells:
        for letter in sorted({p[5][p[4].index(c)] for p in places if c in p[4]}):
            letter_var[(c, letter)] = n + len(letter_var)

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("mip_rel_gap", 0.0)
    total = n + len(letter_var)
    h.addVars(total, np.zeros(total), np.ones(total))
    h.changeColsIntegrality(total, np.arange(total, dtype=np.int32),
                            np.full(total, highspy.HighsVarType.kInteger))
    costs = np.zeros(total)
    costs[:n] = [p[6] for p in places]
    h.changeColsCost(total, np.arange(total, dtype=np.int32), costs)
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)

    rows = []  # (indices, values, upper)
    by_cell = {}
    for (c, _), v in letter_var.items():
        by_cell.setdefault(c, []).append(v)
    for vs in by_cell.values():
        rows.append((vs, [1.0] * len(vs), 1.0))
    # Linking rows, strengthened into cliques: the placements of one direction that cover cell c
    # with letter l and pairwise clash (same cells, or a disagreeing letter on their overlap)
    # share one row `sum x_p <= x_(c,l)`, instead of one row each.
    groups = {}
    for i, p in enumerate(places):
        for k, c in enumerate(p[4]):
            groups.setdefault((c, p[1], p[5][k]), []).append(i)
    letters_at = [dict(zip(p[4], p[5])) for p in places]

    def clash(a, b):
        if places[a][4] == places[b][4]:
            return True
        la, lb = letters_at[a], letters_at[b]
        return any(lb.get(c, ch) != ch for c, ch in la.items())

    sizes = []
    for (c, _, letter), members in groups.items():
        members.sort(key=lambda i: -places[i][6])
        cliques = []
        for i in members:
            for q in cliques:
                if all(clash(i, j) for j in q):
                    q.append(i)
                    break
            else:
                cliques.append([i])
        for q in cliques:
            sizes.append(len(q))
            rows.append((q + [letter_var[(c, letter)]], [1.0] * len(q) + [-1.0], 0.0))
    print(f"linking rows {len(sizes)}, mean clique {sum(sizes) / max(1, len(sizes)):.2f}",
          file=sys.stderr)
    by_entry = {}
    for i, p in enumerate(places):
        by_entry.setdefault(p[0], []).append(i)
    for vs in by_entry.values():
        rows.append((vs, [1.0] * len(vs), 1.0))
    same_spot = {}
    for i, p in enumerate(places):
        same_spot.setdefault((p[1], p[2], p[3], p[5]), []).append(i)
    for vs in same_spot.values():
        if len(vs) > 1:
            rows.append((vs, [1.0] * len(vs), 1.0))

    def add_rows(batch):
        starts, idx, val = [], [], []
        for vs, coefs, _ in batch:
            starts.append(len(idx))
            idx.extend(vs)
            val.extend(coefs)
        h.addRows(len(batch), np.full(len(batch), -highspy.kHighsInf),
                  np.array([b[2] for b in batch]), len(idx), np.array(starts, dtype=np.int32),
                  np.array(idx, dtype=np.int32), np.array(val))

    add_rows(rows)

    ours = 0
    start_solution = None
    if args.plan:
        with open(args.plan) as f:
            chosen = []
            for line in f:
                d, idx, x, y = line.split()
                chosen.append(key[(int(idx), d, int(x), int(y))] if places else None)
        ours = sum(places[i][6] for i in chosen)
        start_solution = np.zeros(total)
        for i in chosen:
            start_solution[i] = 1.0
            for k, c in enumerate(places[i][4]):
                start_solution[letter_var[(c, places[i][5][k])]] = 1.0

    cuts, best_plan, best, bound = 0, [], 0, float("inf")
    while True:
        left = args.seconds - (time.time() - start)
        if left <= 0:
            break
        h.setOptionValue("time_limit", left)
        if start_solution is not None:
            sol = highspy.HighsSolution()
            sol.col_value = list(start_solution)
            sol.value_valid = True
            h.setSolution(sol)
        h.run()
        status = h.getModelStatus()
        info = h.getInfo()
        bound = min(bound, info.mip_dual_bound)
        values = h.getSolution().col_value
        chosen = [i for i in range(n) if values[i] > 0.5]
        order, stuck = peel(chosen, places)
        if order is None:
            add_rows([(stuck, [1.0] * len(stuck), float(len(stuck) - 1))])
            cuts += 1
            continue
        score = sum(places[i][6] for i in order)
        if score > best:
            best, best_plan = score, order
        if status == highspy.HighsModelStatus.kOptimal:
            bound = score
        break
    if best < ours:  # the time ran out before HiGHS improved on the start
        best = ours
    proven = best >= bound
    if args.out and best_plan:
        with open(args.out, "w") as f:
            for i in best_plan:
                p = places[i]
                f.write(f"{p[1]} {p[0]} {p[2]} {p[3]}\n")
    print(f"ours {ours} best {best} bound {int(bound) if bound != float('inf') else 'inf'} "
          f"proven {'yes' if proven else 'no'} seconds {time.time() - start:.1f} cuts {cuts} "
          f"placements {n} width {width}")


if __name__ == "__main__":
    sys.exit(main())
