"""The explorer's position keys (engines/explore.py): canonical, transpositions meet, and a
secret setup is never a tree step."""

from __future__ import annotations

import random
from typing import Any

from engines.core import CHANCE, State
from engines.explore import position_key, setup_key, walk
from engines.registry import all_games, get_game


def test_transpositions_meet_and_the_side_to_move_counts() -> None:
    game = get_game("rokumentai")
    start: State[Any] = game.new_game()
    a, b, c = start.legal_moves()[:3]
    one = start.apply(a).apply(b).apply(c)
    two = start.apply(c).apply(b).apply(a)
    assert position_key("rokumentai", one) == position_key("rokumentai", two)
    assert position_key("rokumentai", start.apply(a)) != position_key("rokumentai", start)
    # the key is the same for a position built again from its text
    again = game.from_position(one.position())
    assert position_key("rokumentai", again) == position_key("rokumentai", one)
    # and a game's key is its own
    assert position_key("rokumentai", start) != position_key("sangokushi", start)


def test_keys_fit_a_signed_64_bit_column() -> None:
    for game in all_games():
        key = position_key(game.id, game.new_game())
        assert -(2**63) <= key < 2**63


def test_suji_setups_are_their_own_table() -> None:
    game = get_game("suji-shogi")
    start: State[Any] = game.new_game()
    log = [(0, "215/643"), (1, "562/134"), (0, "3d3c")]
    steps = list(walk("suji-shogi", start, log))
    assert [s.setup for s in steps] == [True, True, False]
    assert steps[0].key == setup_key("suji-shogi", 0) and steps[1].key == setup_key("suji-shogi", 1)
    revealed = start.apply(start.parse_move("215/643", 0), 0)
    revealed = revealed.apply(revealed.parse_move("562/134", 1), 1)
    assert steps[2].key == position_key("suji-shogi", revealed)


def test_chance_is_no_step() -> None:
    game = get_game("yosuko")
    state: State[Any] = game.new_game()
    rng = random.Random(1)
    log: list[tuple[int, str]] = []
    chances = 0
    for _ in range(6):
        if state.is_over():
            break
        if state.current_player() == CHANCE:
            move = rng.choice([m for m, _ in state.chance_outcomes()])
            log.append((CHANCE, state.format_move(move)))
            chances += 1
            state = state.apply(move)
        else:
            move = rng.choice(state.legal_moves())
            log.append((state.current_player(), state.format_move(move)))
            state = state.apply(move)
    assert chances
    assert len(list(walk("yosuko", game.new_game(), log))) == len(log) - chances
