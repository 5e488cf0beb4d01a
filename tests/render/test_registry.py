"""The renderer registry: every registered game has a picture, and warm-up builds them all."""

from __future__ import annotations

import pytest

import render
from engines import all_games

PNG = b"\x89PNG\r\n\x1a\n"


def test_every_registered_game_has_a_renderer() -> None:
    missing = [g.id for g in all_games() if not render.has_renderer(g.id)]
    assert missing == []


def test_warm_up_draws_every_start_position() -> None:
    render.warm_up()
    for game in all_games():
        png = render.render_png(game.new_game())
        assert png.startswith(PNG) and len(png) <= 100_000


def test_a_renderer_refuses_another_games_state() -> None:
    """Each entry checks its state's type (render.base.renderer): a registry that maps a game to
    the wrong module fails loudly instead of drawing from the wrong fields."""
    games = [g for g in all_games() if render.has_renderer(g.id)]
    for game in games:
        other = next(g for g in games if type(g.new_game()) is not type(game.new_game()))
        for table in (render._renderers(), render._images()):
            with pytest.raises(TypeError, match="not a"):
                table[game.id](other.new_game(), None, None)


def test_every_renderer_has_an_image() -> None:
    assert set(render._renderers()) == set(render._images())
