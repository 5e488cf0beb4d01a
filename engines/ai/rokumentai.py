"""六面体: material by face, the 占 (occupy) pieces weighted as the lives they are, and mobility.

A player who cannot place or move on their turn loses, and 占 never moves: a side that only
places 占 runs out of turns when its hand is empty (Black first, since it moves first). So the
pieces that move (武, 騎, 弓) count by the squares they can reach as well as by their face.
"""

from __future__ import annotations

from typing import Any

from engines.ai.evaluation import Evaluation
from engines.ai.levels import margins_with
from engines.core import State
from engines.rokumentai import (
    ARCHER,
    ARCHER_FACE,
    FACE,
    GHOST,
    HORSE,
    KNIGHT,
    NEIGHBOURS,
    OCCUPY,
    OWNER,
    WARRIOR,
    Move,
    RokumentaiState,
)

FACE_VALUE = (70, 45, 40, 50, 45, 0)
"""Per face (占 武 巫 騎 弓 怨): a cube showing it on the board."""
HAND_VALUE = 25
"""A cube still in hand (it can become any face, but must be placed first)."""
LAST_OCCUPY = 150
"""A player down to one 占 loses when it is beaten: keep a spare."""
MOBILITY = 4
"""A square a moving piece (武 騎 弓) can go to: empty, or an enemy piece to beat."""
STUCK = 400
"""Nothing left to place and nothing that moves: the next turn without a move loses."""
TEMPO = 80
"""The side to move: its next turn is worth about a placement. Without it a search that ends
after its own move (an odd depth) saw a turn more of its own than one ending after the reply,
and the upper levels, which reach 2-2.5 plies, played one seat far worse than the other: in 7v5
the stronger side scored 30% as Black and 75% as White. Measured on the ladder (40 games a pair,
same seeds): 7v5 52% -> 85%, 8v6 55% -> 72%, the other steps 69-94%, 1 v random 99%; 60 gave
the same within a game or two, 120 lost 8v6 again (55%)."""
REACH = {WARRIOR: NEIGHBOURS, HORSE: KNIGHT, ARCHER_FACE: ARCHER}
MARGINS = margins_with({4: 25.0, 6: 10.0})
"""六面体's randomness, levels 1-8: the level table's but level 4's, 25 (the table's 15), and
level 6's, 10 (3). Levels 6 and 8 read nearly as deep in a game this wide, and with the table's
margins level 8 scored 67.8% against level 6 over 400 ladder games (seeds 0-399: 65%, 70.5%).
Level 6 at 10: 73.1% (74%, 72.2%); level 4 at 25 keeps the step below it, 6v4 77.8% over 400
games, 4v2 93% over 200, and level 4 still above level 3 (4v3 61% over 100; at 40: 6v4 83%,
but 4v3 51%). Level 6 at 20 gave 8v6 68% over 200: the margin moves 8v6 by little more than
its noise. Depth caps move it further, but too far: level 6 capped at 2 plies, 8v6 82.5% and
6v4 40%; at 1, 87% and 11%."""


def evaluate(state: State[Any], seat: int) -> float:
    assert isinstance(state, RokumentaiState)
    board = state.board
    score = [0.0, 0.0]
    occupy = [0, 0]
    mobility = [0, 0]
    for sq, c in enumerate(board):
        if not c:
            continue
        face = FACE[c]
        owner = OWNER[c]
        score[owner] += FACE_VALUE[face]
        if face == OCCUPY:
            occupy[owner] += 1
            continue
        reach = REACH.get(face)
        if reach is None:
            continue
        for t in reach[sq]:
            x = board[t]
            if not x or (OWNER[x] != owner and FACE[x] != GHOST):
                mobility[owner] += 1
    for s in (0, 1):
        score[s] += HAND_VALUE * state.hands[s] + MOBILITY * mobility[s]
        if occupy[s] == 1:
            score[s] -= LAST_OCCUPY
        if not state.hands[s] and not mobility[s]:
            score[s] -= STUCK
    score[state.to_move] += TEMPO
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


def beats(state: State[Any], move: Any) -> bool:
    """A move that beats a piece (followed past the depth by the quiescence search)."""
    return priority(state, move) > 0


EVALUATIONS = {"rokumentai": Evaluation(evaluate, priority, tactical=beats, margins=MARGINS)}
