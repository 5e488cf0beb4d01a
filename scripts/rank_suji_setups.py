"""Rank 数字将棋's 720 secret arrangements, solve each level's mix, write engines/ai/suji_setups.py.

    .venv/bin/python scripts/rank_suji_setups.py [--depth D] [--workers N] [--matrix FILE]

Every Black arrangement meets every White one (720 x 720 revealed positions; a position and
its mirror image, files 3 and 1 swapped, count once: the rules are left-right symmetric). Each
position is valued for Black by a ``--depth``-ply search with the level-8 evaluation (captures
followed past the depth, as in play). An arrangement's score is its mean over every enemy
arrangement (``uniform``), and again over the enemy's 72 best by that mean (``strong``: what a
strong opponent plays); the table ranks by the sum of the two. The matrix is kept in
``--matrix`` (a pickle), so a changed ranking rule need not search again (``--rank-only``).

Each level draws its arrangement from a mix: the solution of the setup game (a zero-sum game
of the matrix's expected scores) for a player who may give no arrangement more than
``1/Level.setup_spread`` of the draws, against an enemy who knows the mix and picks any one
arrangement against it (:func:`capped_maximin`). Its value, the least expected score the mix
gets against any one enemy arrangement, is what reading the table is worth to the enemy.

Only the default rules (directions=default, promotion=on) are ranked: other options keep the
sampled choice of engines.ai.setup.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ai.levels import LEVELS
from engines.ai.registry import evaluation_for
from engines.ai.search import PROVEN, Searcher
from engines.registry import get_game
from engines.suji_shogi import ALL_SETUPS

OUT = Path(__file__).resolve().parents[1] / "engines" / "ai" / "suji_setups.py"
SCALE = 150.0
"""Evaluation points per unit of the logistic that turns a value into an expected score (a
piece is about 100): so a proven win counts as one win, not as a million points."""
STRONG = 72
"""The enemy arrangements the ``strong`` score meets: the best tenth by the uniform mean."""

INDEX = {s.pieces: i for i, s in enumerate(ALL_SETUPS)}


def mirror(i: int) -> int:
    """The arrangement with files 3 and 1 swapped (each rank's triple reversed)."""
    p = ALL_SETUPS[i].pieces
    return INDEX[p[2::-1] + p[:2:-1]]


def _row(args: tuple[int, int]) -> tuple[int, list[float], int]:
    """Black's arrangement ``b`` against every White one: values for Black, and nodes."""
    b, depth = args
    game = get_game("suji-shogi")
    ev = evaluation_for("suji-shogi").at_level(8)
    fresh = game.new_game(2, {})
    after_b = fresh.apply(ALL_SETUPS[b], 0)
    out: list[float] = []
    nodes = 0
    for w in range(len(ALL_SETUPS)):
        st = after_b.apply(ALL_SETUPS[w], 1)
        searcher = Searcher(0, ev)
        out.append(searcher.value(st, depth, -PROVEN * 2, PROVEN * 2, 0))
        nodes += searcher.nodes
    return b, out, nodes


def matrix(depth: int, workers: int) -> list[list[float]]:
    """``m[b][w]``: the value for Black of Black's ``b`` against White's ``w``."""
    n = len(ALL_SETUPS)
    rows = sorted({min(b, mirror(b)) for b in range(n)})
    m: list[list[float]] = [[] for _ in range(n)]
    t0 = time.perf_counter()
    total = 0
    with multiprocessing.Pool(workers) as pool:
        for k, (b, row, nodes) in enumerate(
            pool.imap_unordered(_row, [(b, depth) for b in rows]), start=1
        ):
            m[b] = row
            total += nodes
            if k % 20 == 0:
                el = time.perf_counter() - t0
                print(f"  {k}/{len(rows)} rows, {el:.0f} s, {total / el:.0f} nodes/s", flush=True)
    for b in range(n):
        if not m[b]:
            mb = mirror(b)
            m[b] = [m[mb][mirror(w)] for w in range(n)]
    return m


def expected(value: float) -> float:
    """A search value as an expected score for Black (a proven win 1, a loss 0)."""
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -value / SCALE))))


def expected_scores(m: list[list[float]], seat: int) -> list[list[float]]:
    """``v[a][e]``: the expected score for ``seat`` of its arrangement ``a`` against the
    enemy's arrangement ``e``."""
    n = len(m)
    if seat == 0:
        return [[expected(x) for x in row] for row in m]
    return [[1.0 - expected(m[e][a]) for e in range(n)] for a in range(n)]


def scores(m: list[list[float]], seat: int) -> list[float]:
    """Each arrangement of ``seat``: its mean expected score against every enemy arrangement
    plus its mean against the enemy's :data:`STRONG` best by that first mean."""
    mine, theirs = expected_scores(m, seat), expected_scores(m, 1 - seat)
    uniform = [sum(row) / len(row) for row in mine]
    enemy = [sum(row) / len(row) for row in theirs]
    best = sorted(range(len(enemy)), key=lambda e: -enemy[e])[:STRONG]
    strong = [sum(row[e] for e in best) / STRONG for row in mine]
    return [u + s for u, s in zip(uniform, strong, strict=True)]


def simplex(
    gain: list[float], rows: list[list[float]], bounds: list[float], upper: list[float]
) -> list[float]:
    """The ``x`` that maximises ``gain . x`` where ``rows x <= bounds`` (each bound >= 0, so
    ``x = 0`` is feasible) and ``0 <= x <= upper`` (``math.inf``: no upper bound): the primal
    simplex on a dense tableau, upper bounds kept by flipping a variable between its bounds
    rather than by rows; Bland's rule after a run of degenerate steps, so it cannot cycle."""
    m, n = len(rows), len(gain)
    tableau = [row[:] + [1.0 if k == i else 0.0 for k in range(m)] for i, row in enumerate(rows)]
    top = upper[:] + [math.inf] * m
    reduced = gain[:] + [0.0] * m
    basis = [n + i for i in range(m)]
    value = bounds[:]
    at_top = [False] * (n + m)
    stalled = 0
    while True:
        in_basis = set(basis)
        bland = stalled > 50
        enter, best = -1, 1e-9
        for k in range(n + m):
            if k in in_basis:
                continue
            gain_k = -reduced[k] if at_top[k] else reduced[k]
            if gain_k > best:
                enter, best = k, gain_k
                if bland:
                    break
        if enter < 0:
            break
        sign = -1.0 if at_top[enter] else 1.0
        step, leave, leaves_at_top = top[enter], -1, False
        for i in range(m):
            rate = sign * tableau[i][enter]
            if rate > 1e-11:
                t = value[i] / rate
                tie = bland and leave >= 0 and t <= step and basis[i] < basis[leave]
                if t < step - 1e-15 or tie:
                    step, leave, leaves_at_top = t, i, False
            elif rate < -1e-11 and top[basis[i]] < math.inf:
                t = (top[basis[i]] - value[i]) / -rate
                if t < step - 1e-15:
                    step, leave, leaves_at_top = t, i, True
        if step == math.inf:
            raise ValueError("unbounded")
        stalled = stalled + 1 if step < 1e-12 else 0
        for i in range(m):
            value[i] -= sign * step * tableau[i][enter]
        if leave < 0:  # the entering variable reached its other bound first
            at_top[enter] = not at_top[enter]
            continue
        entered = (top[enter] if at_top[enter] else 0.0) + sign * step
        pivot_row = [v / tableau[leave][enter] for v in tableau[leave]]
        tableau[leave] = pivot_row
        for i in range(m):
            f = tableau[i][enter]
            if i != leave and f != 0.0:
                tableau[i] = [a - f * b for a, b in zip(tableau[i], pivot_row, strict=True)]
        f = reduced[enter]
        reduced = [a - f * b for a, b in zip(reduced, pivot_row, strict=True)]
        at_top[basis[leave]] = leaves_at_top
        basis[leave] = enter
        value[leave] = entered
        at_top[enter] = False
    x = [top[k] if at_top[k] else 0.0 for k in range(n + m)]
    for i, k in enumerate(basis):
        x[k] = value[i]
    return x[:n]


def capped_maximin(payoff: list[list[float]], cap: float) -> tuple[list[float], float]:
    """The mix ``x`` over the rows (no row above ``cap``) whose least payoff against any one
    column, ``min_c sum_r x[r] payoff[r][c]``, is greatest; and that least payoff. Payoffs are
    positive. Columns are brought in as they bite: the linear programme is solved against a
    few of them, and the columns the mix does worst against are added until none does worse
    than its value."""
    rows, cols = len(payoff), len(payoff[0])
    active: list[int] = []
    x, v = [min(cap, 1.0 / rows)] * rows, math.inf
    while True:
        against = [sum(x[r] * payoff[r][c] for r in range(rows) if x[r]) for c in range(cols)]
        worst = sorted(range(cols), key=lambda c: (against[c], c))
        if against[worst[0]] >= v - 1e-9:
            return x, against[worst[0]]
        active += [c for c in worst[:10] if c not in active]
        # variables: x (rows), v; v - x . payoff[:, c] <= 0 for each active c; sum x <= 1
        lp = [[-payoff[r][c] for r in range(rows)] + [1.0] for c in active]
        lp.append([1.0] * rows + [0.0])
        solved = simplex(
            [0.0] * rows + [1.0], lp, [0.0] * len(active) + [1.0], [cap] * rows + [math.inf]
        )
        x, v = solved[:rows], solved[rows]


WEIGHT = 1000
"""A mix's weights are integers, ``WEIGHT`` for an arrangement drawn as often as its level
allows (``1/setup_spread``), summing to ``setup_spread * WEIGHT``."""


def mix(m: list[list[float]], seat: int, spread: int) -> tuple[list[int], float]:
    """``seat``'s mix for a level of ``setup_spread`` ``spread``: a weight per arrangement
    (:data:`WEIGHT`) and its value (the least expected score against any one enemy arrangement).

    Mirror images are one choice: the game is solved over pairs (each pair's payoff against
    an enemy arrangement the mean of its two), which gives an optimal mix that weights both
    of a pair alike, and the pair's weight is split between them."""
    payoff = expected_scores(m, seat)
    pairs = sorted({min(a, mirror(a)) for a in range(len(payoff))})
    halves = [
        [(payoff[a][e] + payoff[mirror(a)][e]) / 2 for e in range(len(payoff))] for a in pairs
    ]
    shares, value = capped_maximin(halves, 2.0 / spread)
    # Whole weights that sum to spread * WEIGHT: each half share rounded down, the units left
    # handed out a pair at a time by largest remainder (so a pair keeps equal weights and
    # none passes WEIGHT).
    exact = [max(0.0, min(s * spread * WEIGHT / 2, float(WEIGHT))) for s in shares]
    whole = [math.floor(q + 1e-9) for q in exact]
    left = (spread * WEIGHT - 2 * sum(whole)) // 2
    for p in sorted(range(len(pairs)), key=lambda p: (whole[p] - exact[p], p))[:left]:
        whole[p] += 1
    weights = [0] * len(payoff)
    for p, a in enumerate(pairs):
        weights[a] = weights[mirror(a)] = whole[p]
    assert sum(weights) == spread * WEIGHT and max(weights) <= WEIGHT
    return weights, value


def write(
    ranked: list[list[float]], mixes: list[dict[int, tuple[list[int], float]]], depth: int
) -> None:
    """The table module: a row for each of a seat's arrangements, best first by
    ``ranked[seat]`` (its score), with its weight in each level's mix (``mixes[seat][spread]``:
    weights and value)."""
    spreads = sorted({LEVELS[n].setup_spread for n in LEVELS}, reverse=True)
    lines = [
        '"""Generated by scripts/rank_suji_setups.py: do not edit. See engines.ai.setup."""',
        "",
        f"DEPTH = {depth}",
        '"""The search depth each revealed position was valued by."""',
        f"SPREADS = {tuple(spreads)!r}",
        '"""The ``Level.setup_spread`` each of a row\'s weights is for."""',
        f"WEIGHT = {WEIGHT}",
        '"""The weight of an arrangement drawn as often as its level allows (1/setup_spread)."""',
        "",
        "# fmt: off",
        "TABLE: tuple[tuple[tuple[str, float, tuple[int, ...]], ...], ...] = (",
    ]
    for seat, scores in enumerate(ranked):
        lines.append("    (  # " + ("Black", "White")[seat])
        for a in sorted(range(len(scores)), key=lambda a: (-scores[a], a)):
            weights = ", ".join(str(mixes[seat][spread][0][a]) for spread in spreads)
            lines.append(f'        ("{ALL_SETUPS[a].text()}", {scores[a]:.4f}, ({weights})),')
        lines.append("    ),")
    lines += [
        ")",
        '"""Each seat\'s 720 arrangements (Black, then White: default rules), best first by their',
        "score (the mean expected score against every enemy arrangement plus the mean against the",
        "enemy's 72 best by that first mean), with their weights in the mix of each of ``SPREADS``",
        '(an arrangement drawn in a mix as often as it allows: ``WEIGHT``)."""',
        "VALUES: tuple[dict[int, float], dict[int, float]] = (",
    ]
    for seat in (0, 1):
        values = ", ".join(f"{sp}: {mixes[seat][sp][1]:.4f}" for sp in spreads)
        lines.append(f"    {{{values}}},")
    lines += [
        ")",
        "# fmt: on",
        '"""Each mix\'s value: its least expected score against any one enemy arrangement."""',
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--matrix", default="/tmp/suji_matrix.pickle")
    ap.add_argument("--rank-only", action="store_true")
    a = ap.parse_args()
    path = Path(a.matrix)
    if a.rank_only:
        m: Any = pickle.loads(path.read_bytes())
    else:
        m = matrix(a.depth, a.workers)
        path.write_bytes(pickle.dumps(m))
    ranked = [scores(m, seat) for seat in (0, 1)]
    spreads = sorted({LEVELS[n].setup_spread for n in LEVELS})
    mixes = [{spread: mix(m, seat, spread) for spread in spreads} for seat in (0, 1)]
    write(ranked, mixes, a.depth)
    for seat, sc in enumerate(ranked):
        order = sorted(range(len(sc)), key=lambda i: -sc[i])
        top = ", ".join(f"{ALL_SETUPS[i].text()} {sc[i]:.3f}" for i in order[:5])
        print(f"seat {seat}: best {top}; worst {sc[order[-1]]:.3f}")
        for spread in spreads:
            weights, value = mixes[seat][spread]
            used = sum(1 for w in weights if w)
            print(f"  spread {spread}: {used} arrangements, value {value:.4f}")


if __name__ == "__main__":
    main()
