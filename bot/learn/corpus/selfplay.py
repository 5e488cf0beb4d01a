"""Playing the corpus (``scripts/self_play.py`` runs it): the computer at levels 6-8 against
itself, one game a seed. Pure but for the clock it reads to keep within its time.

Each seat's level is drawn from the seed; a move gets :data:`NODES_PER_SECOND` nodes a second
of its level's time budget (a secret setup :data:`SETUP_NODES` times as many), the rate the
benchmark's ladder plays the levels at: a node budget, not a clock, so a seed replays exactly
on any machine. A game not over after :data:`MAX_PLIES` plies is dropped (only finished games
are evidence of how a game goes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from engines.ai import LEVELS, choose_move
from engines.core import CHANCE, SIMULTANEOUS, State, chance_pick
from engines.registry import get_game

LEVEL_RANGE = (6, 8)
"""The levels the corpus is played at (issue 50: the computer's upper levels)."""
NODES_PER_SECOND = 4000
"""Nodes a second of a level's time budget (the benchmark ladder's rate, bench/ai_bench.py)."""
SETUP_NODES = 10
"""A secret setup is chosen once a game: it gets ten moves' nodes (as on the ladder)."""
MAX_PLIES = 600
"""A game still running after this many plies is dropped."""


def nodes_for(level: int, setup: bool = False) -> int:
    """The node budget of one move (or secret setup) at ``level``."""
    budget = max(100, int(LEVELS[level].budget * NODES_PER_SECOND))
    return budget * SETUP_NODES if setup else budget


def play(game_id: str, seed: int) -> dict[str, Any] | None:
    """The self-play game of ``seed`` as a corpus line; None when it is not over in time."""
    game = get_game(game_id)
    rng = random.Random(f"corpus:{game_id}:{seed}")
    state: State[Any] = game.new_game()
    levels = [rng.randint(*LEVEL_RANGE) for _ in range(state.num_players)]
    moves: list[list[Any]] = []
    chances = 0
    while not state.is_over():
        if state.ply >= MAX_PLIES:
            return None
        mover = state.current_player()
        if mover == CHANCE:
            move = chance_pick(state, f"corpus:{seed}", chances)
            chances += 1
            moves.append([CHANCE, state.format_move(move)])
            state = state.apply(move)
            continue
        seat = state.acting_players()[0]
        lvl = levels[seat]
        budget = nodes_for(lvl, setup=mover == SIMULTANEOUS)
        move = choose_move(state, seat, lvl, rng, max_nodes=budget, budget_scale=1e6)
        moves.append([seat, state.format_move(move)])
        state = state.apply(move, seat)
    outcome = state.outcome()
    assert outcome is not None
    return {
        "game": game_id,
        "seed": seed,
        "levels": levels,
        "nodes": [nodes_for(lvl) for lvl in levels],
        "moves": moves,
        "winners": sorted(outcome.winners),
        "plies": len(moves),
        "end": outcome.text.en,
    }


def play_many(
    game_id: str,
    seeds: Iterable[int],
    seconds: float,
    report: Callable[[dict[str, Any]], None] = lambda _: None,
    clock: Callable[[], float] = time.process_time,
) -> list[dict[str, Any]]:
    """The games of ``seeds`` in order, until ``seconds`` of ``clock`` (by default this
    process's CPU time) are spent; ``report`` gets each game played."""
    out: list[dict[str, Any]] = []
    start = clock()
    for seed in seeds:
        if clock() - start > seconds:
            break
        row = play(game_id, seed)
        if row is not None:
            out.append(row)
            report(row)
    return out
