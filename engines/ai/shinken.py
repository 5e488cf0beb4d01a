"""真剣勝負's race as the evaluation reads it: runners (a piece that reaches the far row before
it can be stopped), whose move it is, and who arrives first.

A piece arrives (到達) on the far row in one move whenever its column ahead is empty (a forward
run goes any distance), by a marked piece's diagonal step or by its ride round the outer ring,
and it wins if the enemy cannot take it on the reply. The far row is the enemy's back row, so
nothing comes at an arrived piece from behind or diagonally: only a side step along that row
takes it. A **safe arrival** is a move that lands on a far-row cell with no enemy piece beside
it. The rules decide the race a few plies ahead, exactly (:func:`race`), for the side to move:

1. an enemy piece stands on our back row (it arrived on the enemy's last move): it must be
   taken now, and one move takes one piece: with two, or with one that no piece of ours
   stands beside, the game is lost after our move (1 ply); otherwise the take is all we may
   do (:func:`takes`), and the race is read after it;
2. otherwise a safe arrival of ours wins on the enemy's reply (2 plies): the side to move
   arrives first;
3. otherwise a safe arrival of the enemy's (its runner) must be stopped now, by taking the
   runner, standing in its way or beside its landing cell, or by arriving ourselves (a piece
   the enemy must take before it may run); when no move does, the enemy wins in 3 plies.

A runner that a move can still stop is a threat (:attr:`Race.winner` without ``certain``): the
side to move must spend its move on it. A decided race is not called where a common ending (the
ply cap, a repetition) could come first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from engines.core import ply_cap, repetition_limit
from engines.socrates.board import (
    COLS,
    EMPTY,
    FORWARD,
    MARKED,
    MOVE,
    OWN,
    RING,
    ROWS,
    STEPS,
    Move,
    cell,
    moved,
    row_of,
)
from engines.socrates.shinken import (
    DIAGONAL_FORWARD,
    FORWARD_LINE,
    GOAL_ROW,
    RING_PATHS,
    SIDE_STEPS,
    ShinkenState,
)

GOAL_START = tuple(cell(0, GOAL_ROW[s]) for s in (0, 1))
"""The first cell (column a) of each seat's far row."""
COLUMNS = tuple(
    tuple((h, *FORWARD_LINE[s][h]) for h in range(GOAL_START[1 - s], GOAL_START[1 - s] + COLS))
    for s in (0, 1)
)
"""``COLUMNS[seat][col]``: the column's cells from the seat's own back row to its far row."""
BESIDE = SIDE_STEPS
"""The cells beside a cell on its row (on the far row, where a piece that could take an
arrived piece stands)."""


@dataclass(frozen=True, slots=True)
class Race:
    """The race as :func:`race` reads it: ``winner`` wins in ``plies`` plies if ``certain``;
    otherwise ``winner`` (if any) holds a runner the side to move must stop this move."""

    winner: int | None = None
    plies: int = 0
    certain: bool = False


OPEN = Race()
"""Nothing decided and no runner to stop."""


def _unguarded(board: str, landing: int, enemy: str) -> bool:
    return all(board[t] not in enemy for t in BESIDE[landing])


def arrivals(board: str, seat: int) -> Iterator[tuple[int, ...]]:
    """``seat``'s safe arrivals, as if it were to move: each as the cells an enemy move could
    use to stop it (the runner's cell, the cells it crosses, the landing cell and the cells
    beside it). Only an enemy piece that moves onto one of them can."""
    own, enemy = OWN[seat], OWN[1 - seat]
    goal = GOAL_ROW[seat]
    step = FORWARD[seat]  # a column's slice read from the seat's own back row
    for col, cells in enumerate(COLUMNS[seat]):
        ahead = board[col::COLS][::step].rstrip(EMPTY)  # up to the furthest piece
        n = len(ahead)
        if n == ROWS:  # the far cell is taken: one cell forward takes an enemy piece there
            if ahead[-1] not in enemy or ahead[-2] not in own:
                continue
            first = n - 2
        elif n and ahead[-1] in own:  # the furthest piece runs to the far cell
            first = n - 1
        else:
            continue
        landing = cells[-1]
        if _unguarded(board, landing, enemy):
            yield (*cells[first:], *BESIDE[landing])
    marked = MARKED[seat]
    s = board.find(marked)
    while s >= 0:
        if row_of(s) + FORWARD[seat] == goal:
            for t in DIAGONAL_FORWARD[seat][s]:
                if board[t] not in own and _unguarded(board, t, enemy):
                    yield (s, t, *BESIDE[t])
        if RING[s]:
            for path in RING_PATHS[seat][s]:
                for k, t in enumerate(path):
                    if board[t] != EMPTY:
                        break
                    if row_of(t) == goal and _unguarded(board, t, enemy):
                        yield (s, *path[: k + 1], *BESIDE[t])
        s = board.find(marked, s + 1)


def _runs(board: str, seat: int) -> bool:
    """Whether ``seat`` has a safe arrival."""
    return next(arrivals(board, seat), None) is not None


def takes(state: ShinkenState) -> tuple[Move, ...] | None:
    """The moves that take an enemy piece standing on the back row of the side to move (it
    arrived on the enemy's last move): all the side to move may do, since the enemy wins after
    any other. ``()``: it cannot (two stand there, or no piece of ours beside the one), and has
    lost. ``None``: no enemy piece stands there."""
    board = state.board
    me = state.turn
    start = GOAL_START[1 - me]
    enemy = OWN[1 - me]
    arrived = [c for c in range(start, start + COLS) if board[c] in enemy]
    if not arrived:
        return None
    if len(arrived) > 1:
        return ()
    own = OWN[me]
    return tuple(STEPS[t][arrived[0]] for t in BESIDE[arrived[0]] if board[t] in own)


def _without_draw(state: ShinkenState, plies: int) -> bool:
    """No common ending (the ply cap, a repetition) can come within ``plies`` more plies, the
    last of which ends the game by the rules (the rules' ending comes first)."""
    options = state.options()
    cap = ply_cap(options)
    if cap and state.ply_count + plies - 1 >= cap:
        return False
    limit = repetition_limit(options)
    if not limit or plies < 3:  # an arrival changes rows: nothing before it repeats
        return True
    return max(Counter(state.history.keys).values(), default=0) < limit - 1


def race(state: ShinkenState) -> Race:
    """The race at ``state`` for the side to move (see the module text). Nothing is decided in
    the opening flips."""
    if state.flips_left:
        return OPEN
    board = state.board
    me = state.turn
    other = 1 - me
    answers = takes(state)
    if answers is not None:  # nothing but a take will do: after it, the race goes on
        return OPEN if answers else Race(other, 1, True)
    if _runs(board, me):
        return Race(me, 2, True) if _without_draw(state, 2) else OPEN
    stoppers = {c for path in arrivals(board, other) for c in path}
    if not stoppers:
        return OPEN
    threat = Race(other)
    goal = GOAL_ROW[me]
    for move in state.legal_moves():
        if move.kind != MOVE:
            continue
        if row_of(move.to) == goal:  # we arrive first: the enemy must take it, not run
            return threat
        if move.to in stoppers and not _runs(moved(board, move.frm, move.to), other):
            return threat
    return Race(other, 3, True) if _without_draw(state, 3) else threat
