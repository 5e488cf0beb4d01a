"""Computer opponents for every game: search over the engines' own State API.

Pure like the rest of ``engines``: standard library only, no I/O, no module-level randomness (the
caller passes a seeded :class:`random.Random`). Entry points:

- :func:`choose_move` — the AI's action for ``seat`` at any step where that seat acts: a move, a
  secret setup (数字将棋), or a 略式易双六 choice.
- :func:`analyse` — the same search, returning its statistics (:class:`SearchResult`).
- :func:`hint` — 略式易双六's move/stay (or start line) choices with estimated win chances.

A new game gets an AI by adding an :class:`Evaluation` to :data:`EVALUATIONS` (one module per
game family); without one, search alone still finds forced wins. See docs/ai.md.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engines.ai import twothree
from engines.ai.evaluation import Evaluation
from engines.ai.levels import LEVELS, Level, level
from engines.ai.registry import EVALUATIONS, evaluation_for
from engines.ai.search import Clock, SearchResult, search
from engines.ai.setup import choose_setup as _choose_setup
from engines.ai.yosuko import Hint, hint
from engines.core import SIMULTANEOUS, State

__all__ = [
    "EVALUATIONS",
    "LEVELS",
    "Evaluation",
    "Hint",
    "Level",
    "SearchResult",
    "analyse",
    "choose_move",
    "choose_setup",
    "evaluation_for",
    "hint",
    "level",
]


def _stop(lvl: Level, deadline: float | None, clock: Clock, budget_scale: float) -> float:
    """The earlier of the caller's deadline and the level's own budget from now."""
    stop = clock() + lvl.budget * budget_scale
    return stop if deadline is None else min(stop, deadline)


def analyse(
    state: State[Any],
    seat: int,
    level_number: int,
    rng: random.Random,
    *,
    deadline: float | None = None,
    clock: Clock = time.monotonic,
    budget_scale: float = 1.0,
    check_every: int = 64,
    max_nodes: int | None = None,
) -> SearchResult:
    """Search ``state`` for ``seat`` (to move) at a level; the move is drawn with ``rng``.

    ``max_nodes`` caps the nodes visited (a budget that does not depend on the machine: the
    benchmark's ladder and the tests use it); the level's time budget applies as well."""
    lvl = level(level_number)
    view = state.observe(seat)
    if view.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move")
    stop = _stop(lvl, deadline, clock, budget_scale)
    game_id = view.game.id
    if game_id == "yosuko":
        # 16 imagined futures a level; level 8 samples until its budget is spent.
        samples = 16 * level_number if level_number < max(LEVELS) else 1 << 20
        if max_nodes is not None:  # a sample is one imagined game: count it as a node
            samples = min(samples, max(1, max_nodes))
        hints = hint(view, rng, samples, deadline=stop, clock=clock)
        best = hints[0]
        return SearchResult(best.move, best.win_chance, 0, best.samples * len(hints), (best.move,))
    if game_id == "socrates-twothree" and level_number == 8:
        move = twothree.perfect_move(view, rng)
        if move is not None:
            return SearchResult(move, 0.0, 0, 0, (move,))
    ev = evaluation_for(game_id).at_level(level_number)
    result = search(
        view,
        seat,
        ev,
        max_depth=ev.depth(level_number, lvl.depth),
        margin=ev.margin(level_number, lvl.margin),
        deadline=stop,
        clock=clock,
        check_every=check_every,
        max_nodes=max_nodes,
    )
    move = rng.choice(result.candidates) if len(result.candidates) > 1 else result.move
    return SearchResult(move, result.score, result.depth, result.nodes, result.candidates)


def choose_setup(
    state: State[Any],
    seat: int,
    level_number: int,
    rng: random.Random,
    *,
    deadline: float | None = None,
    clock: Clock = time.monotonic,
    budget_scale: float = 1.0,
    max_nodes: int | None = None,
) -> Any:
    """A secret arrangement for ``seat``, from what ``seat`` may see (see engines.ai.setup)."""
    lvl = level(level_number)
    view = state.observe(seat)
    stop = _stop(lvl, deadline, clock, budget_scale)
    ev = evaluation_for(view.game.id).at_level(level_number)
    return _choose_setup(
        view,
        seat,
        lvl,
        rng,
        ev,
        depth=ev.depth(level_number, lvl.depth),
        margin=ev.margin(level_number, lvl.margin),
        deadline=stop,
        clock=clock,
        max_nodes=max_nodes,
    )


def choose_move(
    state: State[Any],
    seat: int,
    level_number: int,
    rng: random.Random,
    *,
    deadline: float | None = None,
    clock: Clock = time.monotonic,
    budget_scale: float = 1.0,
    max_nodes: int | None = None,
) -> Any:
    """The AI's action for ``seat`` (1 ≤ ``level_number`` ≤ 8), always legal for that seat.

    Stops by the earlier of ``deadline`` (a ``clock()`` value) and the level's budget
    (× ``budget_scale``), or after ``max_nodes`` nodes. The state is read through
    ``state.observe(seat)`` only. At a secret setup step this is :func:`choose_setup`; apply the
    result with ``state.apply(move, seat)``.
    """
    limits: dict[str, Any] = {
        "deadline": deadline,
        "clock": clock,
        "budget_scale": budget_scale,
        "max_nodes": max_nodes,
    }
    if state.current_player() == SIMULTANEOUS:
        return choose_setup(state, seat, level_number, rng, **limits)
    return analyse(state, seat, level_number, rng, **limits).move
