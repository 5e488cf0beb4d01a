"""The computer's review of a finished game (棋譜解析): each ply judged against the best move.

For every ply a seat chose, :func:`judge` searches the position it was played from, for the
seat that moved, with every root move given an exact value (the root window never narrows, so
the played move's value is as exact as the best's); the best value is the position's
evaluation and the played move's value is what the player kept. Values are mapped to winning
chances (:func:`chance`): a proven win is 1, a proven loss 0, and between them a logistic
curve in units of the game's own piece value (``Evaluation.unit``), so that one unit up is
about a 70% chance with two players; with ``n`` players an even position is ``1/n``. The
other seats share what the mover does not have, two players as ``1 - p``, three in proportion
to their own static evaluation (a softmax on the same scale).

略式易双六 has no opponent and no search: a choice is rated by the same sampled estimate the
hint gives (:func:`engines.ai.hint`, from the state as the player sees it: never the real talon).

Pure like the rest of ``engines``: the caller gives the budget (seconds on ``clock``, a node
cap) and the seed. Every move is first scored one ply deep without any quiescence, whatever the
budget (an immediate win is never missed for want of time); the search proper (depth 1 with the
game's quiescence, which sees a piece left hanging, then deeper) runs while the budget lasts,
and its last completed depth is what counts. See docs/review.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.ai.levels import LEVELS
from engines.ai.registry import evaluation_for
from engines.ai.search import PROVEN, WIN, OutOfTime, Searcher
from engines.ai.yosuko import hint
from engines.core import Outcome, State

SCALE = 1.2
"""Units of advantage (``Evaluation.unit``) that move the logistic curve by a factor of e:
one unit up is a 70% chance between two players."""
REVIEW_LEVEL = max(LEVELS)
"""The level whose evaluation and depth cap the review searches with."""
HINT_SAMPLES = 200
"""Sampled futures a 略式易双六 choice is rated on (as many as ``/hint`` draws)."""

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Judgement:
    """One ply judged: the ``seat`` that moved, the computer's ``best`` move, the winning
    chances of every seat in the position before the ply (``chances``, the best play's), the
    mover's chance after the best move and after the played one, and how deep it looked."""

    seat: int
    best: Any
    chances: tuple[float, ...]
    best_chance: float
    played_chance: float
    depth: int
    nodes: int

    @property
    def loss(self) -> float:
        """How much of a winning chance the played move gave away (0 for the best move)."""
        return max(0.0, self.best_chance - self.played_chance)


def chance(value: float, unit: float, players: int) -> float:
    """The mover's winning chance for a search value (see the module text)."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return 0.0
    x = max(-50.0, min(50.0, value / (unit * SCALE)))
    return 1.0 / (1.0 + (players - 1) * math.exp(-x))


def outcome_chances(outcome: Outcome, players: int) -> tuple[float, ...]:
    """The chances at the end: the winners share 1 (a draw: everyone ``1/n``). A solitaire's
    player alone either won (1), drew (½) or lost (0): one seat is not a field to share."""
    if players == 1:
        return ({"win": 1.0, "draw": 0.5}.get(outcome.result(0), 0.0),)
    returns = outcome.returns()
    top = max(returns)
    winners = [s for s in range(players) if returns[s] == top]
    if len(winners) == players:
        return tuple(1.0 / players for _ in range(players))
    return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(players))


def even(players: int) -> tuple[float, ...]:
    """Every seat alike: a position nobody may judge (a secret setup, a chance step)."""
    return tuple(1.0 / players for _ in range(players))


def _share(state: State[Any], seat: int, p: float, unit: float) -> tuple[float, ...]:
    """Every seat's chance when ``seat`` has ``p``: the others share ``1 - p``."""
    players = state.num_players
    if players == 1:
        return (p,)
    others = [s for s in range(players) if s != seat]
    if len(others) == 1:
        weights = [1.0]
    else:
        evaluate = evaluation_for(state.game.id).at_level(REVIEW_LEVEL).evaluate
        scores = [evaluate(state, s) / (unit * SCALE) for s in others]
        top = max(scores)
        weights = [math.exp(max(-50.0, s - top)) for s in scores]
    total = sum(weights)
    out = [0.0] * players
    out[seat] = p
    for s, w in zip(others, weights, strict=True):
        out[s] = (1.0 - p) * w / total
    return tuple(out)


def judge(
    state: State[Any],
    played: Any,
    *,
    seconds: float,
    max_nodes: int | None = None,
    seed: int = 0,
    clock: Clock = time.monotonic,
) -> Judgement:
    """Judge ``played`` (legal at ``state``, where a seat is to move) against the best move
    within ``seconds`` on ``clock`` and ``max_nodes`` past the first plain ply (see the module
    text); ``depth`` is the search's last completed depth (0: the plain ply only)."""
    seat = state.current_player()
    if seat < 0:
        raise ValueError("no seat is to move here")
    if state.num_players == 1:
        return _sampled(state, played, seconds, seed, clock)
    ev = evaluation_for(state.game.id).at_level(REVIEW_LEVEL)
    depth_cap = ev.depth(REVIEW_LEVEL, LEVELS[REVIEW_LEVEL].depth)
    wide = WIN * 4  # a root window that never narrows: every move gets an exact value
    plain = Searcher(seat, replace(ev, tactical=None, forced=False), clock)
    moves = plain.ordered(state, state.legal_moves())
    scores: list[tuple[Any, float, bool]] = []
    plain.root_scores(state, moves, 1, wide, scores)
    searcher = Searcher(seat, ev, clock, clock() + seconds, max_nodes=max_nodes)
    depth = 0

    def settled() -> bool:  # the best and the played move both proven: no need to look deeper
        values = {m: v for m, v, _ in scores}
        return min(abs(max(values.values())), abs(values[played])) >= PROVEN

    while depth < depth_cap and not settled():
        deeper: list[tuple[Any, float, bool]] = []
        try:
            searcher.root_scores(
                state, [m for m, _, _ in _best_first(scores)], depth + 1, wide, deeper
            )
        except OutOfTime:
            break
        scores, depth = deeper, depth + 1
        if clock() >= searcher.deadline:
            break
    ranked = _best_first(scores)
    best, best_value, _ = ranked[0]
    played_value = next(v for m, v, _ in scores if m == played)
    players = state.num_players
    best_chance = chance(best_value, ev.unit, players)
    played_chance = chance(played_value, ev.unit, players)
    return Judgement(
        seat,
        best,
        _share(state, seat, best_chance, ev.unit),
        best_chance,
        played_chance,
        depth,
        plain.nodes + searcher.nodes,
    )


def _best_first(scores: Sequence[tuple[Any, float, bool]]) -> list[tuple[Any, float, bool]]:
    return sorted(scores, key=lambda t: -t[1])


def _sampled(state: State[Any], played: Any, seconds: float, seed: int, clock: Clock) -> Judgement:
    """A solitaire's choice rated by the hint's sampled estimate (from the player's view)."""
    hints = hint(state, random.Random(seed), HINT_SAMPLES, deadline=clock() + seconds, clock=clock)
    best = hints[0]
    kept = next(h.win_chance for h in hints if h.move == played)
    return Judgement(0, best.move, (best.win_chance,), best.win_chance, kept, 0, best.samples)
