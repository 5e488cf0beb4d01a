"""Game records: options, seed, and every action in order; they replay to the identical state."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.core import CHANCE, PositionError, State, Text, chance_pick
from engines.registry import get_game


@dataclass(frozen=True, slots=True)
class Entry:
    """One action: ``actor`` is a seat or :data:`~engines.core.CHANCE`; ``move`` is canonical."""

    actor: int
    move: str


@dataclass(frozen=True, slots=True)
class Record:
    game: str
    players: int
    options: Mapping[str, str]
    seed: str
    entries: tuple[Entry, ...] = field(default=())

    def start(self) -> State[Any]:
        state: State[Any] = get_game(self.game).new_game(self.players, self.options)
        return state

    def replay(self) -> State[Any]:
        """Apply every entry from the start; raises the engine's errors if one does not fit."""
        return replay_entries(self.start(), self.entries)

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game,
                "players": self.players,
                "options": dict(self.options),
                "seed": self.seed,
                "moves": [
                    {"by": "chance" if e.actor == CHANCE else e.actor, "move": e.move}
                    for e in self.entries
                ],
            },
            ensure_ascii=False,
            indent=1,
        )

    @staticmethod
    def from_json(text: str) -> Record:
        try:
            data = json.loads(text)
            entries = tuple(
                Entry(CHANCE if m["by"] == "chance" else int(m["by"]), str(m["move"]))
                for m in data["moves"]
            )
            return Record(
                str(data["game"]),
                int(data["players"]),
                {str(k): str(v) for k, v in data.get("options", {}).items()},
                str(data.get("seed", "")),
                entries,
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise PositionError(
                Text(f"Not a Banmen game record: {exc}", f"盤面の棋譜ではありません: {exc}")
            ) from exc


def replay_entries(state: State[Any], entries: Iterable[Entry]) -> State[Any]:
    for entry in entries:
        player = entry.actor if entry.actor >= 0 else None
        if state.current_player() == CHANCE:
            player = None
        move = state.parse_move(entry.move, player)
        state = state.apply(move, player)
    return state


def advance_chance(state: State[Any], seed: str, entries: list[Entry]) -> State[Any]:
    """Resolve chance steps with the seed, appending each outcome to ``entries``."""
    while state.current_player() == CHANCE:
        move = chance_pick(state, seed, state.ply)
        entries.append(Entry(CHANCE, state.format_move(move)))
        state = state.apply(move)
    return state
