"""Pictures of game states: pure functions ``(state, viewer, last_move) -> PNG bytes``.

Each module of ``render`` that exports ``RENDERERS`` (a mapping from game id to a function) is
registered, mirroring the engines' registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from engines.core import State

Renderer = Callable[[State[Any], "int | None", Any], bytes]

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


def render_png(state: State[Any], viewer: int | None = None, last_move: Any = None) -> bytes:
    """The PNG of ``state`` as ``viewer`` sees it (``None``: a spectator).

    The state is first reduced to what the viewer may see, so no picture can show a secret.
    """
    fn = _renderers()[state.game.id]
    return fn(state.observe(viewer), viewer, last_move)
