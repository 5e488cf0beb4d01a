"""ツースリー, solved: every position's value from a table built by retrograde analysis.

Pieces never leave their column, so each of columns e and f always holds three Black pieces,
three White pieces and one empty cell: 140 contents per column, 140 × 140 × 2 = 39,200
positions in all. ``scripts/solve_twothree.py`` solves them (both ``retreat`` rules) and writes
:mod:`engines.ai.twothree_table`: for each position, 0 for a draw, +d when the side to move
wins in d plies, -d when it loses in d plies (as signed 16-bit numbers, zlib-compressed and
base64-encoded in a string literal: engines do no file I/O).
"""

from __future__ import annotations

import array
import base64
import itertools
import random
import zlib
from functools import cache
from typing import Any

from engines.ai.evaluation import SearchResult, Turn
from engines.core import State
from engines.socrates.board import PASS, SocratesState, cell

E_CELLS = tuple(cell(4, row) for row in range(2, 9))
F_CELLS = tuple(cell(5, row) for row in range(2, 9))
COLUMNS: tuple[str, ...] = tuple(sorted({"".join(p) for p in itertools.permutations("PPPppp.")}))
"""Every content of one column (rows 2–8): three of each colour and one empty cell."""
COLUMN_INDEX = {c: i for i, c in enumerate(COLUMNS)}
SIZE = len(COLUMNS) * len(COLUMNS) * 2


def index(board: str, turn: int) -> int | None:
    """The table index of a position, or None when it is not a position of the table."""
    e = COLUMN_INDEX.get("".join(board[c] for c in E_CELLS))
    f = COLUMN_INDEX.get("".join(board[c] for c in F_CELLS))
    if e is None or f is None:
        return None
    return (e * len(COLUMNS) + f) * 2 + turn


def encode(values: list[int]) -> str:
    return base64.b64encode(zlib.compress(array.array("h", values).tobytes(), 9)).decode("ascii")


def decode(text: str) -> array.array[int]:
    out = array.array("h")
    out.frombytes(zlib.decompress(base64.b64decode(text)))
    return out


@cache
def table(retreat: str) -> array.array[int] | None:
    """The solved values for the ``retreat`` rule (None if the table module has none)."""
    from engines.ai import twothree_table

    text = twothree_table.TABLES.get(retreat)
    return None if text is None else decode(text)


def value(state: State[Any]) -> int | None:
    """The solved value for the side to move (see the module text), or None if unknown."""
    assert isinstance(state, SocratesState)
    t = table(state.option("retreat") or "all")
    i = index(state.board, state.turn)
    if t is None or i is None:
        return None
    return t[i]


def _rank(v: int) -> int:
    """Order the values for the side to move: faster wins first, slower losses before faster."""
    if v > 0:
        return 100_000 - v
    if v < 0:
        return -100_000 - v
    return 0


def perfect_move(state: State[Any], rng: random.Random) -> Any | None:
    """A move of perfect play (the fastest win, else a draw, else the slowest loss), drawn at
    random among equals; None when the position is not in the table."""
    assert isinstance(state, SocratesState)
    moves = state.legal_moves()
    if moves == (PASS,):
        return PASS
    scored: list[tuple[int, Any]] = []
    for m in moves:
        child = state.apply(m)
        outcome = child.outcome()
        if outcome is not None:
            r = outcome.returns()[state.turn]
            scored.append((_rank(1 if r > 0 else -1 if r < 0 else 0), m))
            continue
        v = value(child)  # for the child's side to move, one ply further
        if v is None:
            return None
        mine = -v + (1 if v < 0 else -1 if v > 0 else 0)
        scored.append((_rank(mine), m))
    best = max(r for r, _ in scored)
    return rng.choice([m for r, m in scored if r == best])


def perfect_play(turn: Turn) -> SearchResult | None:
    """Level 8's choice (``Evaluation.decide``): :func:`perfect_move`, or ``None`` (search) for
    a position outside the table."""
    move = perfect_move(turn.view, turn.rng)
    return None if move is None else SearchResult(move, 0.0, 0, 0, (move,))
