"""The registry of games: every module of ``engines`` that exports ``GAMES`` is registered."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from engines.core import Game, OptionError, Text

_NOT_GAMES = {"core", "registry", "record", "ai", "__main__"}


@cache
def _games() -> dict[str, Game[Any]]:
    import engines

    found: dict[str, Game[Any]] = {}
    for info in sorted(pkgutil.iter_modules(engines.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in _NOT_GAMES:
            continue
        module = importlib.import_module(f"engines.{info.name}")
        for game in getattr(module, "GAMES", ()):
            if game.id in found:
                raise RuntimeError(f"game id {game.id!r} registered twice")
            found[game.id] = game
    return dict(sorted(found.items()))


def all_games() -> list[Game[Any]]:
    """Every registered game, ordered by id."""
    return list(_games().values())


def get_game(game_id: str) -> Game[Any]:
    """Look a game up by id; raise :class:`OptionError` naming the known ids otherwise."""
    games = _games()
    key = game_id.strip().lower()
    if key in games:
        return games[key]
    known = ", ".join(games)
    raise OptionError(
        Text(
            f"There is no game {game_id!r}. Games: {known}.",
            f"「{game_id}」というゲームはありません。ゲーム: {known}。",
        )
    )
