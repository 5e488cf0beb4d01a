"""Pictures of game states: pure functions
``(state, viewer, last_move, outcome=, names=) -> PNG bytes``.

``outcome`` is an end the host decided (resignation, timeout, agreed draw, abort) that the state
cannot know: when given, the picture shows it instead of ``state.outcome()``. ``names``, when
given, are the players' names by seat, shown beside the seat names.

Each module of ``render`` that exports ``RENDERERS`` (a mapping from game id to a function) is
registered, mirroring the engines' registry; its ``IMAGES`` are the same pictures as Pillow
images (before encoding), for :func:`render_image` (replays). A module builds each entry with
:func:`render.base.renderer` from its typed picture function.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image

from engines.core import Outcome, State
from render.base import Box, Locate, Marks, Picture

Renderer = Picture[bytes]
"""A game's picture function (the entries of a module's ``RENDERERS``)."""
ImageRenderer = Picture[Image.Image]
"""The same picture as a Pillow ``RGB`` image (the entries of a module's ``IMAGES``)."""


NOT_RENDERERS = frozenset({"base", "samples", "replay", "describe"})
"""Modules of ``render`` that draw no game of their own."""


def _discover(attribute: str) -> dict[str, Any]:
    import render

    found: dict[str, Any] = {}
    for info in sorted(pkgutil.iter_modules(render.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in NOT_RENDERERS:
            continue
        module = importlib.import_module(f"render.{info.name}")
        found.update(getattr(module, attribute, {}))
    return found


@cache
def _renderers() -> Mapping[str, Renderer]:
    return _discover("RENDERERS")


@cache
def _images() -> Mapping[str, ImageRenderer]:
    return _discover("IMAGES")


@cache
def _locators() -> Mapping[str, Locate[Any]]:
    return _discover("LOCATORS")


def cell_box(state: State[Any], viewer: int | None, cell: int) -> Box | None:
    """Where ``viewer``'s picture of ``state`` draws ``cell`` (a board's square or hex, a
    略式易双六 line's badge), as a box ``(x0, y0, x1, y1)`` in the picture's pixels: what the site
    lays a button over (issue 51, 2). None for a game whose module places no cell."""
    locate = _locators().get(state.game.id)
    if locate is None:
        return None
    x, y, r = locate(state, viewer, cell)
    return x - r, y - r, x + r, y + r


def has_renderer(game_id: str) -> bool:
    return game_id in _renderers()


def render_png(
    state: State[Any],
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
    marks: Marks | None = None,
) -> bytes:
    """The PNG of ``state`` as ``viewer`` sees it (``None``: a spectator).

    The state is first reduced to what the viewer may see, so no picture can show a secret.
    ``outcome``, when given, overrides ``state.outcome()``: a game the host ended (resignation,
    timeout, agreed draw, abort) is drawn as over, with its result and reason. ``names``, when
    given, are the players' names by seat, each shown beside its seat's name (cut to fit).
    ``marks``, when given, are a teaching diagram's marks (:class:`render.base.Marks`) drawn
    over the picture; without them the picture is the game's own, byte for byte.
    """
    fn = _renderers()[state.game.id]
    seen = state.observe(viewer)
    if marks is None:  # the plain picture: the entry as every registry holds it
        return fn(seen, viewer, last_move, outcome=outcome, names=names)
    return fn(seen, viewer, last_move, outcome=outcome, names=names, marks=marks)


def render_image(
    state: State[Any],
    viewer: int | None = None,
    last_move: Any = None,
    outcome: Outcome | None = None,
    names: Sequence[str] | None = None,
    marks: Marks | None = None,
) -> Image.Image:
    """The picture :func:`render_png` encodes, as an ``RGB`` Pillow image (for replays); the
    state is reduced to what ``viewer`` may see in the same way."""
    fn = _images()[state.game.id]
    seen = state.observe(viewer)
    if marks is None:  # the plain picture: the entry as every registry holds it
        return fn(seen, viewer, last_move, outcome=outcome, names=names)
    return fn(seen, viewer, last_move, outcome=outcome, names=names, marks=marks)


def warm_up() -> None:
    """Draw every game's start position once, so palettes and static layers are built before a
    player's first move has to wait for them (a host calls this in a worker thread at start)."""
    from engines.registry import all_games

    for game in all_games():
        if has_renderer(game.id):
            render_png(game.new_game(), None, None)
