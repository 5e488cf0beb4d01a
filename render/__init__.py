"""Pictures of game states: pure functions ``(state, viewer, last_move, outcome=) -> PNG bytes``.

``outcome`` is an end the host decided (resignation, timeout, agreed draw, abort) that the state
cannot know: when given, the picture shows it instead of ``state.outcome()``.

Each module of ``render`` that exports ``RENDERERS`` (a mapping from game id to a function) is
registered, mirroring the engines' registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from engines.core import Outcome, State


class Renderer(Protocol):
    """A game's picture function (the entries of a module's ``RENDERERS``)."""

    def __call__(
        self,
        state: State[Any],
        viewer: int | None,
        last_move: Any,
        /,
        *,
        outcome: Outcome | None = None,
    ) -> bytes: ...


_NOT_RENDERERS = {"base", "samples"}


@cache
def _renderers() -> Mapping[str, Renderer]:
    import render

    found: dict[str, Renderer] = {}
    for info in sorted(pkgutil.iter_modules(render.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in _NOT_RENDERERS:
            continue
        module = importlib.import_module(f"render.{info.name}")
        found.update(getattr(module, "RENDERERS", {}))
    return found


def has_renderer(game_id: str) -> bool:
    return game_id in _renderers()


def render_png(
    state: State[Any],
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
) -> bytes:
    """The PNG of ``state`` as ``viewer`` sees it (``None``: a spectator).

    The state is first reduced to what the viewer may see, so no picture can show a secret.
    ``outcome``, when given, overrides ``state.outcome()``: a game the host ended (resignation,
    timeout, agreed draw, abort) is drawn as over, with its result and reason.
    """
    fn = _renderers()[state.game.id]
    return fn(state.observe(viewer), viewer, last_move, outcome=outcome)


def warm_up() -> None:
    """Draw every game's start position once, so palettes and static layers are built before a
    player's first move has to wait for them (a host calls this in a worker thread at start)."""
    from engines.registry import all_games

    for game in all_games():
        if has_renderer(game.id):
            render_png(game.new_game(), None, None)
