"""六面体: material by face, with the 占 (occupy) pieces weighted as the lives they are."""

from __future__ import annotations

from typing import Any

from engines.ai.evaluation import Evaluation
from engines.core import State
from engines.rokumentai import FACE, GHOST, OCCUPY, OWNER, Move, RokumentaiState

FACE_VALUE = (90, 35, 40, 45, 35, 0)
"""Per face (占 武 巫 騎 弓 怨): a cube showing it on the board."""
HAND_VALUE = 20
"""A cube still in hand (it can become any face, but must be placed first)."""
LAST_OCCUPY = 150
"""A player down to one 占 loses when it is beaten: keep a spare."""


def evaluate(state: State[Any], seat: int) -> float:
    assert isinstance(state, RokumentaiState)
    score = [0.0, 0.0]
    occupy = [0, 0]
    for c in state.board:
        if c:
            face = FACE[c]
            owner = OWNER[c]
            score[owner] += FACE_VALUE[face]
            if face == OCCUPY:
                occupy[owner] += 1
    for s in (0, 1):
        score[s] += HAND_VALUE * state.hands[s]
        if occupy[s] == 1:
            score[s] -= LAST_OCCUPY
    return score[seat] - score[1 - seat]


def priority(state: State[Any], move: Any) -> int:
    """Beating a piece first (a strike or a capture), the bigger the better."""
    assert isinstance(state, RokumentaiState) and isinstance(move, Move)
    b = state.board
    if move.struck >= 0:
        return 10 + FACE_VALUE[FACE[b[move.struck]]]
    if move.frm >= 0:
        target = b[move.to]
        if target and FACE[target] != GHOST and OWNER[target] != state.to_move:
            return 10 + FACE_VALUE[FACE[target]]
    return 0


EVALUATIONS = {"rokumentai": Evaluation(evaluate, priority)}
