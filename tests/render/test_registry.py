"""The renderer registry: every registered game has a picture, and warm-up builds them all."""

from __future__ import annotations

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
