"""三国志三人将棋 (and its 2-player variant): material, check, and the centre E5.

A general that reaches E5 and is not captured before its owner's next turn wins. Search sees
that only a few plies deep, so the evaluation scores the threat itself: a general on E5, or next
to an E5 that no other player attacks, is nearly a won game for its owner.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.ai.evaluation import Evaluation
from engines.ai.levels import LEVELS
from engines.core import State
from engines.sangokushi import (
    ARCHER,
    CAVALRY,
    CELLS,
    CENTRE,
    GENERAL,
    HAND_KINDS,
    PAWN,
    SPEAR,
    TOKIN,
    Move,
    SangokushiState,
    is_attacked,
)

PIECE_VALUE = {GENERAL: 0, CAVALRY: 900, SPEAR: 450, ARCHER: 500, PAWN: 150, TOKIN: 550}
"""On the board, by kind (the general's worth is the game itself)."""
HAND_VALUE = {GENERAL: 0, CAVALRY: 800, SPEAR: 420, ARCHER: 480, PAWN: 140}
"""In hand (a drop can go anywhere, but spends a turn)."""
CODE_VALUE = tuple(PIECE_VALUE.get(code & 7, 0) for code in range(32))
CODE_KIND = tuple(code & 7 for code in range(32))

ON_CENTRE = 40_000
"""A general standing on E5: its owner wins when their turn comes (unless it is taken)."""
NEXT_TO_CENTRE = 6_000
"""A general next to an E5 that no other player attacks: one step from the centre win."""
TWO_FROM_CENTRE = 300
CHECKED = 250
"""A general in check (in 三国志 it also hands the turn to its owner)."""


def _distance(a: int, b: int) -> int:
    (q1, r1), (q2, r2) = CELLS[a], CELLS[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


CENTRE_DISTANCE = tuple(_distance(c, CENTRE) for c in range(len(CELLS)))


def _seat_scores(state: SangokushiState) -> list[float]:
    n = state.players
    score = [0.0] * n
    for code in state.board:
        if code:
            score[code >> 3] += CODE_VALUE[code]
    for s in range(n):
        for kind, count in zip(HAND_KINDS, state.hands[s], strict=False):
            score[s] += HAND_VALUE[kind] * count
    checked = state.in_check
    for s in range(n):
        if s in checked:
            score[s] -= CHECKED
    if n == 3:
        t = state.tables
        for s in range(n):
            g = state.general_cell(s)
            if g < 0:
                continue
            d = CENTRE_DISTANCE[g]
            if d == 0:
                score[s] += ON_CENTRE if s not in checked else ON_CENTRE // 4
            elif d == 1 and state.board[CENTRE] == 0 and not is_attacked(state.board, CENTRE, s, t):
                score[s] += NEXT_TO_CENTRE if state.to_move == s else NEXT_TO_CENTRE // 3
            elif d == 2:
                score[s] += TWO_FROM_CENTRE
    return score


def evaluate(state: State[Any], seat: int) -> float:
    """Own score less the strongest opponent's and the opponents' mean (paranoid, but a
    runaway leader is everyone's problem)."""
    assert isinstance(state, SangokushiState)
    score = _seat_scores(state)
    others = [v for s, v in enumerate(score) if s != seat]
    return score[seat] - (max(others) + sum(others) / len(others)) / 2


def priority(state: State[Any], move: Any) -> int:
    """Captures first (a general above all), most valuable victim first; promotions next."""
    assert isinstance(state, SangokushiState) and isinstance(move, Move)
    if move.src >= 0:
        target = state.board[move.dst]
        if target:
            if CODE_KIND[target] == GENERAL:
                return 100_000
            return 1_000 + CODE_VALUE[target]
        if move.promote:
            return 500
        if CENTRE_DISTANCE[move.dst] == 0:
            return 300
    return 0


def capture(state: State[Any], move: Any) -> bool:
    """A move that takes a piece (followed past the depth by the quiescence search)."""
    assert isinstance(state, SangokushiState) and isinstance(move, Move)
    return move.src >= 0 and state.board[move.dst] != 0


THREE_PLAYER_DEPTHS = (1, 1, 1, 1, 1, 1, 6, LEVELS[8].depth)
"""Depth caps of the 3-player game's levels 1-8. With three players the level table's budgets
end a search 2-3 plies deep at every level from 5 up (one round of turns; four times the nodes
buy little more than half a ply), so levels two apart scored 56-65% against each other however
their time and randomness were set. A round more of reading is what tells two levels apart:
levels 7 and 8 score 75-87% against a level that reads one ply. Levels 1-6 therefore read one
ply, and what surrounds that ply separates them (below)."""

THREE_PLAYER_MARGINS = (2000.0, 1500.0, 30.0, 10.0, 8.0, 3.0, 1.0, 0.0)
"""Randomness of the 3-player game's levels 1-8 (for a unit of 100, like the level table's).
Levels 1 and 2 play almost any move that does not lose a general or the centre outright: that
still beats random play (93.5% over 200 games) and scores about 13% against the same search at
10-30 points. (At 1,000 the step to level 4 was 71%.)"""

QUIESCENT_FROM = 5
"""The 3-player game's levels below this do not follow captures past their depth (no quiescence
search): they see the piece they take, not the one they lose for it. Following them is worth
76-81% to a one-ply search (40-100 games)."""


def _three_players_at(level: int) -> Evaluation:
    return THREE_PLAYERS if level >= QUIESCENT_FROM else _THREE_PLAYERS_UNQUIET


THREE_PLAYERS = Evaluation(
    evaluate,
    priority,
    tactical=capture,
    depths=THREE_PLAYER_DEPTHS,
    margins=THREE_PLAYER_MARGINS,
    levelled=_three_players_at,
)
"""三国志 with three players: one evaluation, its levels spread by depth, randomness and the
quiescence search (see THREE_PLAYER_DEPTHS)."""
_THREE_PLAYERS_UNQUIET = dataclasses.replace(THREE_PLAYERS, tactical=None, levelled=None)

EVALUATIONS = {
    "sangokushi": THREE_PLAYERS,
    "sangokushi-2p": Evaluation(evaluate, priority, tactical=capture),
}
