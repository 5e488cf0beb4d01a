"""Alpha-beta search over the engines' own :class:`~engines.core.State` API.

One search serves every game with seats: it reads ``current_player()`` at every node (turns may
jump, as in 三国志's 王手 rule) and maximises the root seat's value where the root seat moves and
minimises it everywhere else. With two players that is plain minimax (negamax by another name);
with three it is *paranoid* search: the two others are assumed to play together against us.

Iterative deepening with a transposition table (keyed by the game's ``key``, by default the
state itself: states are frozen and compare by position), the table's move tried first, then
the game's own priorities (captures, wins), then killer moves and a history heuristic. Past
the depth, a game that marks some moves ``tactical`` (captures) has them searched on for a few
plies (a quiescence search), so that a leaf is not scored in the middle of an exchange. The
search stops when the clock passes its deadline (read every ``check_every`` nodes) or when it
has visited ``max_nodes`` nodes; it then returns the best move of the last completed depth.
Chance and secret-setup steps inside the tree are leaves (evaluated as they stand).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from engines.ai.evaluation import Evaluation, SearchResult
from engines.core import State

WIN = 1_000_000.0
"""The value of a won game (less the plies it takes): far above any evaluation."""
PROVEN = WIN - 10_000.0
"""Values beyond this are proven wins or losses."""

Clock = Callable[[], float]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_TT_LIMIT = 400_000
QUIESCENCE = 2
"""Plies of tactical moves searched past the depth."""
FORCED_PLIES = 8
"""Plies of forced moves (a single legal move) followed past the depth, for a game whose
evaluation asks for it (``Evaluation.forced``)."""
TIE = 1e-6
"""The root window is lowered by this much past the margin, so that a move exactly as good as
the best (or exactly at the margin) gets an exact value and is a candidate: ties are broken at
random, never by the engine's move order. (At level 8's margin of 0 the first of equal moves
was always played: in 数字将棋, whose evaluation ties most quiet moves, level 8 then lost 15 of
20 games to level 6; with ties drawn at random it won 18.)"""


class OutOfTime(Exception):
    """Raised inside the tree when the deadline has passed or the node budget is spent."""


class Searcher:
    """One search from one root (a fresh object per move: it holds the table and counters)."""

    def __init__(
        self,
        root_seat: int,
        evaluation: Evaluation,
        clock: Clock = time.monotonic,
        deadline: float = float("inf"),
        check_every: int = 64,
        max_nodes: int | None = None,
    ) -> None:
        self.root = root_seat
        self.ev = evaluation
        self.clock = clock
        self.deadline = deadline
        self.check_every = max(1, check_every)
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.nodes = 0
        self.tt: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.history: dict[Any, int] = {}
        self.killers: dict[int, list[Any]] = {}
        self._horizon = False
        self._key = evaluation.key or _identity

    # -- the clock -----------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise OutOfTime
        if self.nodes % self.check_every == 0 and self.clock() >= self.deadline:
            raise OutOfTime

    # -- ordering ------------------------------------------------------------------------------
    def ordered(
        self, state: State[Any], moves: Sequence[Any], first: Any = None, ply: int = -1
    ) -> list[Any]:
        """``moves`` best-guess first: the table move, the game's priority, killer moves of
        this ply, then history."""
        priority = self.ev.priority
        hist = self.history
        killers = self.killers.get(ply, ())
        if priority is None:
            keyed = sorted(moves, key=lambda m: -hist.get(m, 0) - (1 << 40) * (m in killers))
        else:
            keyed = sorted(
                moves,
                key=lambda m: (-priority(state, m), -(m in killers), -hist.get(m, 0)),
            )
        if first is not None and first in moves:
            keyed.remove(first)
            keyed.insert(0, first)
        return keyed

    def _cutoff(self, move: Any, depth: int, ply: int) -> None:
        self.history[move] = self.history.get(move, 0) + depth * depth
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    # -- the tree ------------------------------------------------------------------------------
    def terminal_value(self, state: State[Any], ply: int) -> float | None:
        """A finished game's value for the root seat (a draw: less the game's contempt);
        None while it goes on."""
        outcome = state.outcome()
        if outcome is None:
            return None
        r = outcome.returns()[self.root]
        if r > 0:
            return WIN - ply
        if r < 0:
            return -WIN + ply
        return -self.ev.contempt

    def value(self, state: State[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        """The minimax value of ``state`` for the root seat, within (alpha, beta)."""
        self._tick()
        end = self.terminal_value(state, ply)
        if end is not None:
            return end
        p = state.current_player()
        if p < 0:  # a chance or secret step inside the tree: a leaf
            self._horizon = True
            return self.ev.evaluate(state, self.root)
        if depth <= 0:
            if self.ev.forced and depth > -FORCED_PLIES:
                moves = state.legal_moves()
                if len(moves) == 1:  # no choice to score: play it and look again
                    return self.value(state.apply(moves[0]), depth - 1, alpha, beta, ply + 1)
            self._horizon = True
            if self.ev.tactical is None:
                return self.ev.evaluate(state, self.root)
            return self.quiet(state, QUIESCENCE, alpha, beta, ply)
        key = self._key(state)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value
        moves = state.legal_moves()
        maximising = p == self.root
        a0, b0 = alpha, beta
        best = -WIN * 2 if maximising else WIN * 2
        best_move = None
        for move in self.ordered(state, moves, tt_move, ply):
            v = self.value(state.apply(move), depth - 1, alpha, beta, ply + 1)
            if maximising:
                if v > best:
                    best, best_move = v, move
                    alpha = max(alpha, v)
            elif v < best:
                best, best_move = v, move
                beta = min(beta, v)
            if alpha >= beta:
                self._cutoff(move, depth, ply)
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        if len(self.tt) >= _TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def quiet(self, state: State[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` when only tactical moves are searched on: the side to move
        may also stand on the evaluation (it need not capture)."""
        stand = self.ev.evaluate(state, self.root)
        tactical = self.ev.tactical
        if depth <= 0 or tactical is None:
            return stand
        maximising = state.current_player() == self.root
        if maximising:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
        else:
            if stand <= alpha:
                return stand
            beta = min(beta, stand)
        best = stand
        noisy = [m for m in state.legal_moves() if tactical(state, m)]
        for move in self.ordered(state, noisy):
            self._tick()
            child = state.apply(move)
            end = self.terminal_value(child, ply + 1)
            if end is not None:
                v = end
            elif child.current_player() < 0:
                v = self.ev.evaluate(child, self.root)
            else:
                v = self.quiet(child, depth - 1, alpha, beta, ply + 1)
            if maximising:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def root_scores(
        self,
        state: State[Any],
        moves: Sequence[Any],
        depth: int,
        margin: float,
        out: list[tuple[Any, float, bool]],
    ) -> None:
        """Append each root move's value at ``depth`` to ``out``: (move, value, exact). Moves
        are searched with the window lowered by ``margin`` so that every move within it gets
        an exact value."""
        best = -WIN * 2
        for move in moves:
            floor = best - margin - TIE if out else -WIN * 2
            v = self.value(state.apply(move), depth - 1, floor, WIN * 2, 1)
            out.append((move, v, v > floor))
            best = max(best, v)

    def run(
        self, state: State[Any], max_depth: int, margin: float = 0.0
    ) -> tuple[list[tuple[Any, float, bool]], int]:
        """Iterative deepening from ``state`` (the root seat to move). Returns the root scores
        of the last completed depth (best first) and that depth (0: none completed)."""
        moves = self.ordered(state, state.legal_moves())
        done: list[tuple[Any, float, bool]] = []
        completed = 0
        for depth in range(1, max_depth + 1):
            self._horizon = False
            partial: list[tuple[Any, float, bool]] = []
            try:
                self.root_scores(state, moves, depth, margin, partial)
            except OutOfTime:
                if partial and (not done or max(v for _, v, _ in partial) > partial[0][1]):
                    # The interrupted depth searched the last best move first and found a
                    # better one: trust it (the moves it did not reach keep their old order,
                    # but are no candidates).
                    searched = {m for m, _, _ in partial}
                    done = sorted(partial, key=lambda t: -t[1]) + [
                        (m, v, False) for m, v, _ in done if m not in searched
                    ]
                break
            done = sorted(partial, key=lambda t: -t[1])
            completed = depth
            moves = [m for m, _, _ in done]
            if abs(done[0][1]) >= PROVEN or not self._horizon:
                break  # proven, or the whole tree fits within this depth
            if self.clock() >= self.deadline:
                break
        return done, completed


def _identity(state: State[Any]) -> Hashable:
    return state


def search(
    state: State[Any],
    seat: int,
    evaluation: Evaluation,
    *,
    max_depth: int,
    margin: float = 0.0,
    deadline: float = float("inf"),
    clock: Clock = time.monotonic,
    check_every: int = 64,
    max_nodes: int | None = None,
) -> SearchResult:
    """Search ``state`` for ``seat`` (who must be to move); see :class:`Searcher`.

    With no completed depth (a zero budget), the first move of the game's own ordering is
    returned, so the answer is always a legal move.
    """
    moves = state.legal_moves()
    if not moves:
        raise ValueError("no legal move to choose")
    searcher = Searcher(seat, evaluation, clock, deadline, check_every, max_nodes)
    if len(moves) == 1:
        return SearchResult(moves[0], 0.0, 0, 0, (moves[0],))
    scores, depth = searcher.run(state, max_depth, margin)
    if not scores:
        first = searcher.ordered(state, moves)[0]
        return SearchResult(first, 0.0, 0, searcher.nodes, (first,))
    # The scores are best first; after an interrupted depth that was trusted, the moves it did
    # not reach follow with their shallower values, which must not outrank what it found.
    top, best, _ = scores[0]
    # A proven win or loss is chosen among equals only (a margin would take a slower win).
    floor = best if abs(best) >= PROVEN else best - margin
    near = [m for m, v, exact in scores if exact and v >= floor] or [top]
    # Candidates in the engine's stable order, so a seeded choice does not depend on ordering.
    rank = {m: i for i, m in enumerate(moves)}
    near.sort(key=lambda m: rank[m])
    return SearchResult(top, best, depth, searcher.nodes, tuple(near))
