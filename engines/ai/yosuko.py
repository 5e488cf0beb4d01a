"""略式易双六 has no opponent: the AI is a hint, the win chance of each choice by sampling.

Each sample is one imagined future: the cards still in the talon (the engine lists them as the
chance outcomes of a draw; the state holds no order, because none exists yet) are drawn in a
random order, and later move/stay choices follow a simple goal-seeking policy. Every choice is
tried against the same samples (common random numbers), so the comparison is fairer than the
chances themselves are exact.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engines.ai.evaluation import NEUTRAL, SearchResult, Turn
from engines.ai.levels import LEVELS
from engines.core import CHANCE, State
from engines.yosuko import (
    CARD_MOVES,
    MOVE_MOVE,
    PARTNER,
    STAY_MOVE,
    WIN_LINES,
    YosukoMove,
    YosukoState,
    is_upper,
)

DEFAULT_SAMPLES = 200


@dataclass(frozen=True, slots=True)
class Hint:
    """A choice and its estimated chance of winning (over ``samples`` imagined futures)."""

    move: YosukoMove
    win_chance: float
    samples: int


def _policy(state: YosukoState) -> YosukoMove:
    """The rollout's move/stay choice: be on a winning line when the game ends."""
    goal = WIN_LINES[is_upper(state.start)]
    if PARTNER[state.token] in goal:
        return MOVE_MOVE
    if state.token in goal:
        return STAY_MOVE
    return MOVE_MOVE


def _rollout(state: State[Any], rng: random.Random) -> float:
    """Play ``state`` to its end with random draws; 1 for a win, 0.5 a draw, 0 a loss."""
    order = list(CARD_MOVES)
    rng.shuffle(order)
    next_card = 0  # cards leave the talon only when drawn: the first still in it never moves back
    while True:
        outcome = state.outcome()
        if outcome is not None:
            r = outcome.returns()[0]
            return 1.0 if r > 0 else 0.5 if r == 0 else 0.0
        if state.current_player() == CHANCE:
            assert isinstance(state, YosukoState)
            talon = frozenset(state.talon)
            while order[next_card].arg not in talon:
                next_card += 1
            draw = order[next_card]
            terminator = state.terminator
            state = state.apply(draw)
            if draw.arg == terminator:
                rng.shuffle(order)  # a reshuffle (rounds > 1): a new order for the new talon
                next_card = 0
            continue
        moves = state.legal_moves()
        if len(moves) == 1:
            state = state.apply(moves[0])
        else:
            assert isinstance(state, YosukoState)
            state = state.apply(_policy(state))


def _choices(state: State[Any]) -> tuple[tuple[YosukoMove, ...], list[State[Any]]]:
    """The player's choices at ``state`` and the position after each, as the player sees it."""
    view = state.observe(0)
    if view.current_player() != 0:
        raise ValueError("not the player's turn")
    moves = view.legal_moves(0)
    return moves, [view.apply(m) for m in moves]


def _sample(children: list[State[Any]], rng: random.Random) -> list[float]:
    """One imagined future played from every child: the same cards for all (common random
    numbers)."""
    seed = rng.getrandbits(64)
    return [_rollout(child, random.Random(seed)) for child in children]


def hint(
    state: State[Any],
    rng: random.Random,
    samples: int = DEFAULT_SAMPLES,
    *,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Hint, ...]:
    """Every legal choice of the player with its estimated win chance, best first.

    ``state`` is observed as the player sees it; the samples stop early at ``deadline`` (a
    ``clock()`` value), but each choice always gets at least one.
    """
    moves, children = _choices(state)
    totals = [0.0] * len(moves)
    done = 0
    for i in range(max(1, samples)):
        if i and deadline is not None and clock() >= deadline:
            break
        for k, won in enumerate(_sample(children, rng)):
            totals[k] += won
        done += 1
    return _ranked(moves, totals, done)


def _ranked(moves: tuple[YosukoMove, ...], totals: list[float], done: int) -> tuple[Hint, ...]:
    hints = [Hint(m, totals[k] / done, done) for k, m in enumerate(moves)]
    hints.sort(key=lambda h: -h.win_chance)
    return tuple(hints)


BATCH = 50
"""Samples drawn between two looks at the standard errors (:func:`rate`)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """Every choice's estimated win chance, best first (``hints``), and the standard error of
    the best choice's lead over the one rated (``error``: 0 when it is the best)."""

    hints: tuple[Hint, ...]
    error: float


def rate(
    state: State[Any], played: YosukoMove, rng: random.Random, *, most: int, target: float
) -> Rating:
    """The choices at ``state`` compared with ``played`` over the same imagined futures, drawn
    :data:`BATCH` at a time until the standard error of every choice's difference from
    ``played`` is at most ``target``, or ``most`` futures (at least one). A difference
    of two choices that share a future's result costs no samples: only the futures where they
    part count towards its error. Deterministic for the state of ``rng``."""
    moves, children = _choices(state)
    mine = moves.index(played)
    totals = [0.0] * len(moves)
    lead = [0.0] * len(moves)  # the sums of (choice - played) and of their squares
    squares = [0.0] * len(moves)
    done = 0
    while True:
        batch = max(1, min(BATCH, most - done))
        for _ in range(batch):
            won = _sample(children, rng)
            for k, w in enumerate(won):
                totals[k] += w
                lead[k] += w - won[mine]
                squares[k] += (w - won[mine]) ** 2
        done += batch
        errors = [_error(lead[k], squares[k], done) for k in range(len(moves))]
        if done >= most or max(errors) <= target:
            break
    hints = _ranked(moves, totals, done)
    return Rating(hints, errors[moves.index(hints[0].move)])


def _error(total: float, squares: float, n: int) -> float:
    """The standard error of a mean from the sum and the sum of squares of ``n`` values."""
    variance = max(0.0, squares - total * total / n) / max(1, n - 1)
    return math.sqrt(variance / n)


def sampled(turn: Turn) -> SearchResult:
    """The computer's choice (``Evaluation.decide``): the best :func:`hint` over 16 imagined
    futures a level (level 8 samples until its budget is spent); a sample is one imagined game,
    so ``max_nodes`` caps the samples."""
    samples = 16 * turn.level if turn.level < max(LEVELS) else 1 << 20
    if turn.max_nodes is not None:
        samples = min(samples, max(1, turn.max_nodes))
    hints = hint(turn.view, turn.rng, samples, deadline=turn.deadline, clock=turn.clock)
    best = hints[0]
    return SearchResult(best.move, best.win_chance, 0, best.samples * len(hints), (best.move,))


EVALUATIONS = {"yosuko": replace(NEUTRAL, decide=sampled)}
"""No position to score (there is no opponent): every choice is :func:`sampled`."""
