"""Forced wins, proved: the search behind the puzzles (``/puzzle``).

An AND-OR search over the engines' own :class:`~engines.core.State` API, depth-limited in plies:
where the solving seat moves, one move must win; where anyone else moves (one opponent, or
both in 三国志 with three: *paranoid*, as in :mod:`engines.ai.search`), every move must. A
position "wins within n plies" for a seat when that holds with the game over, the seat among
the winners, after at most n plies. Chance and secret steps prove nothing. Exact, no
evaluation: what it says is a proof, so a puzzle's answer is checked, never guessed.

A :class:`Budget` caps the work (applied moves); past it, :class:`TooDeep` is raised, so a
caller can give up on a position instead of waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.core import State


class TooDeep(Exception):
    """The proof needed more work than its :class:`Budget` allows."""


@dataclass(slots=True)
class Budget:
    """At most ``nodes`` positions visited (``None``: no cap); ``used`` counts them."""

    nodes: int | None = None
    used: int = 0

    def spend(self) -> None:
        self.used += 1
        if self.nodes is not None and self.used > self.nodes:
            raise TooDeep


def won(state: State[Any], seat: int) -> bool | None:
    """True when the game is over with ``seat`` among the winners, False when over otherwise,
    None while it goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    return seat in outcome.winners


def wins_within(state: State[Any], seat: int, plies: int, budget: Budget | None = None) -> bool:
    """Whether ``seat`` wins by force within ``plies`` plies from ``state``, whoever moves."""
    budget = budget or Budget()
    budget.spend()
    end = won(state, seat)
    if end is not None:
        return end
    if plies <= 0:
        return False
    mover = state.current_player()
    if mover < 0:
        return False
    moves = state.legal_moves()
    if mover == seat:
        return any(wins_within(state.apply(m), seat, plies - 1, budget) for m in moves)
    return bool(moves) and all(wins_within(state.apply(m), seat, plies - 1, budget) for m in moves)


def win_length(
    state: State[Any], seat: int, max_plies: int, budget: Budget | None = None
) -> int | None:
    """The fewest plies within which ``seat`` wins by force from ``state`` (0: already won),
    or None when not within ``max_plies``."""
    budget = budget or Budget()
    for plies in range(max_plies + 1):
        if wins_within(state, seat, plies, budget):
            return plies
    return None


def winning_moves(
    state: State[Any], seat: int, plies: int, budget: Budget | None = None
) -> tuple[Any, ...]:
    """The moves of ``seat`` (to move) that win by force within ``plies`` plies, this one
    included; in the engine's order."""
    budget = budget or Budget()
    return tuple(
        m for m in state.legal_moves() if wins_within(state.apply(m), seat, plies - 1, budget)
    )


def solution_line(
    state: State[Any], seat: int, plies: int, first: Any, budget: Budget | None = None
) -> tuple[Any, ...]:
    """A main line of a forced win within ``plies`` starting with ``first``: the solver's
    quickest win at each turn and, for the others, the reply that holds out longest. Raises
    ``ValueError`` when ``first`` does not win within ``plies``."""
    budget = budget or Budget()
    line = [first]
    state = state.apply(first)
    left = plies - 1
    if not wins_within(state, seat, left, budget):
        raise ValueError("the first move does not win within the plies")
    while won(state, seat) is None:
        moves = state.legal_moves()
        if state.current_player() == seat:
            move = min(
                (m for m in moves if wins_within(state.apply(m), seat, left - 1, budget)),
                key=lambda m: win_length(state.apply(m), seat, left - 1, budget) or 0,
            )
        else:
            move = max(moves, key=lambda m: win_length(state.apply(m), seat, left - 1, budget) or 0)
        line.append(move)
        state = state.apply(move)
        left -= 1
    return tuple(line)


def holding_replies(
    state: State[Any],
    seat: int,
    plies: int,
    preferred: Sequence[Any] = (),
    budget: Budget | None = None,
) -> tuple[Any, ...]:
    """From a position where another seat moves: the replies after which ``seat`` no longer
    wins within ``plies - 1`` plies (a refutation), ``preferred`` ones first (the search's own
    choice, say), then in the engine's order."""
    budget = budget or Budget()
    moves = state.legal_moves()
    order = [m for m in preferred if m in moves] + [m for m in moves if m not in preferred]
    return tuple(m for m in order if not wins_within(state.apply(m), seat, plies - 1, budget))
