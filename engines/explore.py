"""Position keys for the opening explorer (issue 50): one number per position as the engine sees
it, so that transpositions (the same position reached by different move orders) meet.

The key hashes the game id and the position text (:meth:`State.position`), which carries the
board, the side to move, the hands and the phase. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engines.core import CHANCE, State


def _key(text: str) -> int:
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)  # fits a signed 64-bit column


def position_key(game_id: str, state: State[Any]) -> int:
    """The explorer's key of ``state`` (a signed 64-bit number; blake2b of the position text)."""
    return _key(f"{game_id}\n{state.position()}")


def setup_key(game_id: str, seat: int) -> int:
    """The key under which the secret setups of ``seat`` are counted (their own table)."""
    return _key(f"{game_id}\nsetup {seat}")


@dataclass(frozen=True, slots=True)
class Step:
    """A move played from the position ``key``; ``setup``: a secret setup (own table)."""

    key: int
    move: str
    setup: bool = False


def walk(game_id: str, start: State[Any], entries: Iterable[tuple[int, str]]) -> Iterator[Step]:
    """The explorer steps of a log of ``(actor, move)`` entries from ``start``: chance outcomes
    are not moves anybody chose (skipped); a move made while moves are secret (数字将棋's setup)
    is counted under the seat's setup key, so the tree itself starts at the reveal."""
    state = start
    for actor, text in entries:
        player = actor if actor >= 0 and state.current_player() != CHANCE else None
        move = state.parse_move(text, player)
        if actor != CHANCE and state.current_player() != CHANCE:
            if state.hides_moves():
                yield Step(setup_key(game_id, actor), text, setup=True)
            else:
                yield Step(position_key(game_id, state), state.format_move(move))
        state = state.apply(move, player)
