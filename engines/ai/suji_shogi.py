"""数字将棋: material by number, and the numbers that would complete a sum of 7 in hand.

The secret arrangement is drawn by :func:`engines.ai.setup.choose_setup` from a level's mix,
solved offline for the default rules (engines.ai.suji_setups, by scripts/rank_suji_setups.py:
every arrangement against every enemy one, then the setup game between them), and chosen by
sampling the enemy's arrangement under other options; it never reads the real one. This module
scores positions, orders moves and gives those mixes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.ai.evaluation import Evaluation
from engines.ai.suji_setups import SPREADS, TABLE
from engines.core import State
from engines.suji_shogi import FACE_DOWN, PROMOTED, WINNING_HANDS, Move, Setup, SujiState, front

BOARD_VALUE = (0, 60, 70, 90, 100, 120, 130, 0, 170)
"""A piece on the board by the face it shows (index 8: promoted)."""
HAND_VALUE = (0, 80, 85, 95, 105, 115, 125)
"""A piece in hand by number."""
THREAT = 60
"""An enemy piece on the board whose number would complete my sum of 7 if I took it."""


@cache
def winning_numbers(hand: tuple[int, ...]) -> frozenset[int]:
    """The numbers whose capture would make ``hand`` hold a sum of 7."""
    out = set()
    for n in range(1, 7):
        grown = tuple(c + (i == n - 1) for i, c in enumerate(hand))
        if grown in WINNING_HANDS:
            out.add(n)
    return frozenset(out)


def evaluate(state: State[Any], seat: int) -> float:
    assert isinstance(state, SujiState)
    score = [0.0, 0.0]
    wins = (winning_numbers(state.hands[0]), winning_numbers(state.hands[1]))
    for code in state.board:
        if not code:
            continue
        owner = 0 if code > 0 else 1
        a = abs(code)
        if a == FACE_DOWN:
            score[owner] += 100
            continue
        score[owner] += BOARD_VALUE[PROMOTED if a > PROMOTED else a]
        if front(code) in wins[1 - owner]:
            score[1 - owner] += THREAT
    for s in (0, 1):
        for n, count in enumerate(state.hands[s], start=1):
            score[s] += HAND_VALUE[n] * count
    return score[seat] - score[1 - seat]


def priority(state: State[Any], move: Any) -> int:
    """A capture that completes 7 first, then captures by value, then promotions."""
    assert isinstance(state, SujiState)
    if not isinstance(move, Move) or move.frm < 0:
        return 0
    target = state.board[move.to]
    if target:
        n = front(target)
        if n in winning_numbers(state.hands[state.to_move]):
            return 10_000
        return 100 + HAND_VALUE[n]
    return 50 if move.promote else 0


def capture(state: State[Any], move: Any) -> bool:
    """A move that takes a piece (followed past the depth by the quiescence search)."""
    assert isinstance(state, SujiState)
    return isinstance(move, Move) and move.frm >= 0 and state.board[move.to] != 0


@cache
def _mix(seat: int, spread: int) -> tuple[tuple[Setup, int], ...]:
    column = SPREADS.index(spread)
    return tuple(
        (Setup(tuple(int(c) for c in text if c != "/")), weights[column])
        for text, _, weights in TABLE[seat]
        if weights[column]
    )


def setup_mix(state: State[Any], seat: int, spread: int) -> tuple[tuple[Setup, int], ...] | None:
    """``seat``'s mix for a level's ``setup_spread`` (arrangement, weight: no arrangement above
    one draw in ``spread``), for the rules the table was solved under (the default directions,
    with promotion); ``None`` under other options. A spread the table was not solved for is a
    ``ValueError``: run scripts/rank_suji_setups.py after changing the levels."""
    assert isinstance(state, SujiState)
    if state.rules.directions != "default" or not state.rules.promotion:
        return None
    return _mix(seat, spread)


EVALUATIONS = {"suji-shogi": Evaluation(evaluate, priority, tactical=capture, setups=setup_mix)}
