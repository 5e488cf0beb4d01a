"""The four Socrates games: five-in-a-row windows (宇宙遊泳) and race progress (the others)."""

from __future__ import annotations

from typing import Any

from engines.ai.evaluation import Evaluation
from engines.core import State
from engines.socrates.board import (
    CELLS,
    COLS,
    MARKED,
    MOVE,
    OWN,
    ROWS,
    SocratesState,
    cell,
    col_of,
    row_of,
)

# --- 宇宙遊泳: lines of five ----------------------------------------------------------------------


def _windows() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    for c in range(CELLS):
        col, row = col_of(c), row_of(c)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            end_col, end_row = col + 4 * dc, row + 4 * dr
            if 0 <= end_col < COLS and 1 <= end_row <= ROWS:
                out.append(tuple(cell(col + i * dc, row + i * dr) for i in range(5)))
    return tuple(out)


WINDOWS = _windows()
"""Every run of five cells in a row, column or diagonal."""
WINDOW_VALUE = (0, 1, 6, 40, 300, 0)
"""A window holding n pieces of one player and none of the other's."""
UCHU_HAND = 3
"""A piece in hand (placeable anywhere)."""


def evaluate_uchu(state: State[Any], seat: int) -> float:
    assert isinstance(state, SocratesState)
    b = state.board
    score = 0
    for w in WINDOWS:
        black = white = 0
        for c in w:
            ch = b[c]
            if ch == "P" or ch == "M":
                black += 1
            elif ch != ".":
                white += 1
        if black and not white:
            score += WINDOW_VALUE[black]
        elif white and not black:
            score -= WINDOW_VALUE[white]
    hands: tuple[int, ...] = getattr(state, "hands", (0, 0, 0, 0))
    score += UCHU_HAND * (hands[0] + hands[1] - hands[2] - hands[3])
    return float(score if seat == 0 else -score)


# --- the races ------------------------------------------------------------------------------------


def _progress(seat: int, c: int) -> int:
    """Rows advanced from the seat's own back row (0–8)."""
    return row_of(c) - 1 if seat == 0 else ROWS - row_of(c)


PROGRESS = tuple(tuple(_progress(s, c) for c in range(CELLS)) for s in (0, 1))

SHINKEN_PIECE = 100
SHINKEN_ADVANCE = (0, 3, 6, 10, 15, 22, 32, 60, 100)
"""真剣勝負: a piece's worth by rows advanced (the goal row wins when the piece survives)."""
SHINKEN_MARKED = 12


def evaluate_shinken(state: State[Any], seat: int) -> float:
    assert isinstance(state, SocratesState)
    score = [0.0, 0.0]
    for c, ch in enumerate(state.board):
        if ch == ".":
            continue
        s = 0 if ch in OWN[0] else 1
        score[s] += SHINKEN_PIECE + SHINKEN_ADVANCE[PROGRESS[s][c]]
        if ch in MARKED:
            score[s] += SHINKEN_MARKED
    return score[seat] - score[1 - seat]


KOKUTAN_GOALS = (
    frozenset(cell(col, 8) for col in (1, 3, 5, 7)),
    frozenset(cell(col, 2) for col in (1, 3, 5, 7)),
)
KOKUTAN_ADVANCE = 10
KOKUTAN_GOAL = 60


def evaluate_kokutan(state: State[Any], seat: int) -> float:
    """黒壇の馬: advance, and the enemy's back ground row held."""
    assert isinstance(state, SocratesState)
    score = [0.0, 0.0]
    for c, ch in enumerate(state.board):
        if ch == ".":
            continue
        s = 0 if ch in OWN[0] else 1
        score[s] += KOKUTAN_ADVANCE * PROGRESS[s][c]
        if c in KOKUTAN_GOALS[s]:
            score[s] += KOKUTAN_GOAL
    return score[seat] - score[1 - seat]


TWOTHREE_GOALS = (
    frozenset(cell(col, row) for row in (6, 7, 8) for col in (4, 5)),
    frozenset(cell(col, row) for row in (2, 3, 4) for col in (4, 5)),
)
TWOTHREE_ADVANCE = 10
TWOTHREE_GOAL = 25


def evaluate_twothree(state: State[Any], seat: int) -> float:
    """ツースリー (below level 8, which plays from the solved table): advance and goal cells."""
    assert isinstance(state, SocratesState)
    score = [0.0, 0.0]
    for c, ch in enumerate(state.board):
        if ch == ".":
            continue
        s = 0 if ch in OWN[0] else 1
        score[s] += TWOTHREE_ADVANCE * PROGRESS[s][c]
        if c in TWOTHREE_GOALS[s]:
            score[s] += TWOTHREE_GOAL
    return score[seat] - score[1 - seat]


def priority(state: State[Any], move: Any) -> int:
    """A move onto an enemy piece (真剣勝負's capture) first."""
    assert isinstance(state, SocratesState)
    if move.kind == MOVE:
        target = state.board[move.to]
        if target != "." and target not in OWN[state.turn]:
            return 100
    return 0


EVALUATIONS = {
    "socrates-uchu": Evaluation(evaluate_uchu, None),
    "socrates-shinken": Evaluation(evaluate_shinken, priority),
    "socrates-kokutan": Evaluation(evaluate_kokutan, None),
    "socrates-twothree": Evaluation(evaluate_twothree, None),
}
