"""Seeded random playouts over any registered game (used by the conformance tests and bench)."""

from __future__ import annotations

import random
from typing import Any

from engines.core import CHANCE, SIMULTANEOUS, Game, State, chance_pick
from engines.record import Entry, Record


def random_game(
    game: Game[Any], seed: int, max_plies: int = 200, players: int | None = None
) -> tuple[list[State[Any]], Record]:
    """Play ``game`` randomly from its start; returns every state visited and the record."""
    n = players or game.player_counts[0]
    rng = random.Random(f"playout:{game.id}:{seed}")
    state: State[Any] = game.new_game(n)
    states = [state]
    entries: list[Entry] = []
    while not state.is_over() and len(entries) < max_plies:
        p = state.current_player()
        if p == CHANCE:
            move = chance_pick(state, seed, state.ply)
            actor, player = CHANCE, None
        else:
            actor = rng.choice(state.acting_players()) if p == SIMULTANEOUS else p
            player = actor
            move = rng.choice(state.legal_moves(actor))
        entries.append(Entry(actor, state.format_move(move)))
        state = state.apply(move, player)
        states.append(state)
    options = states[0].options()
    return states, Record(game.id, n, options, str(seed), tuple(entries))
