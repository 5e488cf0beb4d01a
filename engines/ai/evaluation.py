"""What a game supplies to get a computer opponent: an :class:`Evaluation`.

``evaluate(state, seat)`` scores a position for ``seat``; it is never called on a finished game.
``unit`` is what one typical piece (or the game's unit of advantage) is worth on that scale: a
level's randomness margin is given for a unit of 100 and scaled by it. ``levelled(level)``
(optional) gives the evaluation a level uses, where a game's levels differ in more than search
(ツースリー: how far ahead a level reads the solved table). ``priority(state, move)``
(optional) ranks moves for search order: captures and wins high. ``tactical(state, move)``
(optional) marks the moves a quiescence search follows past the depth (captures), so that no
leaf is scored in the middle of an exchange. ``forced`` (optional): past the depth, a position
with a single legal move is not scored but played on (a few plies), for games whose rules force
long single-move sequences (黒壇の馬's check rule). ``depths`` (optional): the depth cap of
each level, 1 to 8, in place of the level table's, for a game whose plies cost far less than
others' (黒壇の馬: few moves a position). ``margins`` (optional): the randomness margin of each
level, 1 to 8, in place of the level table's (given for a unit of 100 like the table's), for a
game whose levels are spread by more than the table's (三国志 with three players; 六面体's
levels 4 and 6 and 黒壇の馬's level 1: ``levels.margins_with``).
``contempt`` (optional): what a drawn game is worth *below* an even one to the side searching,
on the evaluation's scale: a computer player that plays for the win (黒壇の馬, whose draws are
jams both sides walked into). ``key(state)`` (optional) is the transposition-table key; the
state itself by default. ``decide(turn)`` (optional): a move chosen without the search,
tried first (given a :class:`Turn`): ツースリー's level 8 plays from its solved table,
略式易双六 (no opponent) samples futures; ``None`` leaves the position to the search.
``setups(view, seat, spread)`` (optional): the seat's mix over its secret arrangements for a
level's ``Level.setup_spread`` (each arrangement with a whole weight, none above one draw in
``spread``), solved offline (数字将棋's table, for its default rules). ``None`` (or a ``None``
answer: rules the table was not made for) leaves the choice to sampling (engines.ai.setup).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.ai.levels import LEVELS
from engines.core import State

Evaluate = Callable[[State[Any], int], float]
Priority = Callable[[State[Any], Any], int]
Tactical = Callable[[State[Any], Any], bool]
Key = Callable[[State[Any]], Hashable]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search (or a game's own choice) found: the chosen move, its value for the root
    seat, the last completed depth, the nodes visited and the root moves within the level's
    margin of the best."""

    move: Any
    score: float
    depth: int
    nodes: int
    candidates: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """What a game's own choice (``Evaluation.decide``) is given: ``view`` (what ``seat``, to
    move, may see), the ``level`` (1-8), the ``rng`` to draw with, when to stop (``deadline``,
    a ``clock()`` value) and ``max_nodes`` (a cap on the game's own unit of work)."""

    view: State[Any]
    seat: int
    level: int
    rng: random.Random
    deadline: float
    clock: Callable[[], float]
    max_nodes: int | None


Decide = Callable[[Turn], SearchResult | None]
"""A move chosen without the search; ``None`` leaves the position to it."""
Setups = Callable[[State[Any], int, int], Sequence[tuple[Any, int]] | None]
"""A seat's mix over its secret arrangements for a ``Level.setup_spread``: (arrangement,
weight) pairs; ``None`` where the game has none."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A game's evaluation function, move priorities, tactical moves, table key, its own
    choices without search and its solved setups (see the module text)."""

    evaluate: Evaluate
    priority: Priority | None = None
    key: Key | None = None
    tactical: Tactical | None = None
    unit: float = 100.0
    levelled: Callable[[int], Evaluation] | None = None
    forced: bool = False
    depths: tuple[int, ...] | None = None
    contempt: float = 0.0
    margins: tuple[float, ...] | None = None
    decide: Decide | None = None
    setups: Setups | None = None

    def __post_init__(self) -> None:
        for name, table in (("depths", self.depths), ("margins", self.margins)):
            if table is not None and len(table) != len(LEVELS):
                raise ValueError(f"{name} needs one entry a level ({len(LEVELS)}), not {table!r}")

    def depth(self, level: int, level_depth: int) -> int:
        """The depth cap level ``level`` searches to: the game's own, else the level's."""
        return level_depth if self.depths is None else self.depths[level - 1]

    def margin(self, level: int, level_margin: float) -> float:
        """Level ``level``'s randomness margin on this evaluation's scale: the game's own, else
        the level's (both given for a unit of 100)."""
        given = level_margin if self.margins is None else self.margins[level - 1]
        return given * self.unit / 100

    def at_level(self, level: int) -> Evaluation:
        """The evaluation level ``level`` searches with."""
        return self if self.levelled is None else self.levelled(level)


def _neutral(state: State[Any], seat: int) -> float:
    """The fallback: every unfinished position is even (search still finds forced wins)."""
    return 0.0


NEUTRAL = Evaluation(_neutral)
