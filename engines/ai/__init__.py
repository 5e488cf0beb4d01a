"""Computer opponents for every game: search over the engines' own State API.

Pure like the rest of ``engines``: standard library only, no I/O, no module-level randomness (the
caller passes a seeded :class:`random.Random`). Entry points:

- :func:`choose_move` — the AI's action for ``seat`` at any step where that seat acts: a move, a
  secret setup (数字将棋), or a 略式易双六 choice.
- :func:`analyse` — the same search, returning its statistics (:class:`SearchResult`).
- :func:`hint` — 略式易双六's move/stay (or start line) choices with estimated win chances.

A new game gets an AI by adding an :class:`Evaluation` to :data:`EVALUATIONS` (one module per
game family), with no edit here: what a game does differently (its own depths, margins, a move
chosen without search through ``Evaluation.decide``) is a field of its evaluation. Without one,
search alone still finds forced wins. See docs/ai.md.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from engines.ai.evaluation import Decide, Evaluation, SearchResult, Turn
from engines.ai.levels import LEVELS, Level, level
from engines.ai.registry import EVALUATIONS, evaluation_for
from engines.ai.search import Clock, search
from engines.ai.setup import choose_setup as _choose_setup
from engines.ai.yosuko import Hint, hint
from engines.core import SIMULTANEOUS, State

__all__ = [
    "EVALUATIONS",
    "LEVELS",
    "Decide",
    "Evaluation",
    "Hint",
    "Level",
    "Limits",
    "SearchResult",
    "Turn",
    "analyse",
    "choose_move",
    "choose_setup",
    "evaluation_for",
    "hint",
    "level",
]


class Limits(TypedDict, total=False):
    """When the AI stops, as keywords of :func:`choose_move`, :func:`analyse` and
    :func:`choose_setup` (each optional): by ``deadline`` (a ``clock()`` value; default none), by
    the level's time budget × ``budget_scale`` (default 1.0) read on ``clock`` (default
    ``time.monotonic``), or after ``max_nodes`` nodes (default no cap: a budget that does not
    depend on the machine, for the benchmark's ladder and the tests), whichever comes first."""

    deadline: float | None
    clock: Clock
    budget_scale: float
    max_nodes: int | None


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the AI starts from at a level: what the seat may see, the level's row, the
    evaluation it plays with, when to stop (``stop``, a ``clock()`` value; ``max_nodes``), its
    depth cap and margin."""

    view: State[Any]
    level: Level
    evaluation: Evaluation
    clock: Clock
    stop: float
    max_nodes: int | None
    depth: int
    margin: float


def _plan(state: State[Any], seat: int, level_number: int, limits: Limits) -> _Plan:
    """The seat's view and the level's limits; the stop is the earlier of the caller's
    deadline and the level's own budget (× ``budget_scale``) from now."""
    lvl = level(level_number)
    view = state.observe(seat)
    ev = evaluation_for(view.game.id).at_level(level_number)
    clock = limits.get("clock", time.monotonic)
    deadline = limits.get("deadline")
    stop = clock() + lvl.budget * limits.get("budget_scale", 1.0)
    return _Plan(
        view,
        lvl,
        ev,
        clock,
        stop if deadline is None else min(stop, deadline),
        limits.get("max_nodes"),
        ev.depth(level_number, lvl.depth),
        ev.margin(level_number, lvl.margin),
    )


def analyse(
    state: State[Any],
    seat: int,
    level_number: int,
    rng: random.Random,
    *,
    check_every: int = 64,
    **limits: Unpack[Limits],
) -> SearchResult:
    """Search ``state`` for ``seat`` (to move) at a level, within ``limits`` (the clock read
    every ``check_every`` nodes); the move is drawn with ``rng``. A game's own choice
    (``Evaluation.decide``), when it makes one, is taken without a search."""
    plan = _plan(state, seat, level_number, limits)
    if plan.view.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move")
    ev = plan.evaluation
    if ev.decide is not None:
        turn = Turn(plan.view, seat, level_number, rng, plan.stop, plan.clock, plan.max_nodes)
        decided = ev.decide(turn)
        if decided is not None:
            return decided
    result = search(
        plan.view,
        seat,
        ev,
        max_depth=plan.depth,
        margin=plan.margin,
        deadline=plan.stop,
        clock=plan.clock,
        check_every=check_every,
        max_nodes=plan.max_nodes,
    )
    move = rng.choice(result.candidates) if len(result.candidates) > 1 else result.move
    return SearchResult(move, result.score, result.depth, result.nodes, result.candidates)


def choose_setup(
    state: State[Any], seat: int, level_number: int, rng: random.Random, **limits: Unpack[Limits]
) -> Any:
    """A secret arrangement for ``seat``, from what ``seat`` may see (see engines.ai.setup)."""
    plan = _plan(state, seat, level_number, limits)
    return _choose_setup(
        plan.view,
        seat,
        plan.level,
        rng,
        plan.evaluation,
        depth=plan.depth,
        margin=plan.margin,
        deadline=plan.stop,
        clock=plan.clock,
        max_nodes=plan.max_nodes,
    )


def choose_move(
    state: State[Any], seat: int, level_number: int, rng: random.Random, **limits: Unpack[Limits]
) -> Any:
    """The AI's action for ``seat`` (1 ≤ ``level_number`` ≤ 8), always legal for that seat,
    within ``limits`` (:class:`Limits`: a deadline, the level's budget × a scale, a node cap).

    The state is read through ``state.observe(seat)`` only. At a secret setup step this is
    :func:`choose_setup`; apply the result with ``state.apply(move, seat)``.
    """
    if state.current_player() == SIMULTANEOUS:
        return choose_setup(state, seat, level_number, rng, **limits)
    return analyse(state, seat, level_number, rng, **limits).move
