"""The computer's self-play corpus (issue 50, docs/explorer.md): games of the computer at levels
6-8 against itself, shipped as data like the puzzles (``bot/learn/corpus/<game>.jsonl``, one
game a line, written by ``scripts/self_play.py``), which the opening explorer shows apart from
Banmen's own games ("what does the computer play here?").

A line: ``{"game", "seed", "levels" (each seat's), "nodes" (each seat's budget a move),
"moves" ([actor, move] as the move log keeps them), "winners", "plies", "end"}``. Pure but for
reading the package's own data files (once a game, cached).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.model import ExplorerCount
from engines.explore import walk
from engines.registry import get_game

HERE = Path(__file__).resolve().parent
SCOPE = "computer"
"""The pool name the corpus's counts carry (never a server's id, which is a number)."""


@dataclass(frozen=True, slots=True)
class CorpusGame:
    """One self-play game: the seed it was played from, each seat's level and its moves."""

    game: str
    seed: int
    levels: tuple[int, ...]
    moves: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]

    @staticmethod
    def of(row: Mapping[str, Any]) -> CorpusGame:
        return CorpusGame(
            game=str(row["game"]),
            seed=int(row["seed"]),
            levels=tuple(int(x) for x in row["levels"]),
            moves=tuple((int(a), str(m)) for a, m in row["moves"]),
            winners=tuple(int(x) for x in row["winners"]),
        )


def path_of(game_id: str, folder: Path = HERE) -> Path:
    return folder / f"{game_id}.jsonl"


def read(path: Path) -> tuple[CorpusGame, ...]:
    """The games of one corpus file (none when there is no file)."""
    if not path.exists():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(CorpusGame.of(json.loads(line)) for line in lines if line.strip())


@cache
def games(game_id: str) -> tuple[CorpusGame, ...]:
    """The shipped self-play games of ``game_id`` (read once)."""
    return read(path_of(game_id))


def tally(game_id: str, played: tuple[CorpusGame, ...]) -> dict[int, tuple[ExplorerCount, ...]]:
    """Position key → the moves played there in ``played``, most played first, counted as the
    explorer counts Banmen's games (each distinct (position, move) of a game once; a secret
    setup under its seat's setup key)."""
    game: Any = get_game(game_id)
    by_key: dict[int, dict[str, list[int]]] = defaultdict(dict)
    for g in played:
        start = game.new_game(len(g.levels))
        steps = {(s.key, s.move) for s in walk(game_id, start, g.moves)}
        draw = int(not g.winners)
        for key, move in steps:
            row = by_key[key].setdefault(move, [0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += draw
            for seat in g.winners:
                row[2 + seat] += 1
    return {
        key: tuple(
            sorted(
                (
                    ExplorerCount(game_id, key, move, SCOPE, False, n, d, (w0, w1, w2))
                    for move, (n, d, w0, w1, w2) in moves.items()
                ),
                key=lambda c: (-c.games, c.move),
            )
        )
        for key, moves in by_key.items()
    }


@cache
def counts(game_id: str) -> dict[int, tuple[ExplorerCount, ...]]:
    """The shipped corpus of ``game_id`` tallied (once a process)."""
    return tally(game_id, games(game_id))


def size(game_id: str) -> int:
    """How many self-play games of ``game_id`` are shipped."""
    return len(games(game_id))
