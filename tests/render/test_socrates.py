"""The Socrates pictures: every game renders, small, from both sides, with its marks."""

from __future__ import annotations

import pytest
from PIL import Image

from engines.registry import get_game
from engines.socrates.board import parse_cell
from render import has_renderer, render_png
from render.base import CHECK, HIGHLIGHT, font, has_glyph
from render.socrates import SIZE, _center, samples
from tests.engines.playout import random_game
from tests.helpers import png_image


def cell_index(name: str) -> int:
    c = parse_cell(name)
    assert c is not None
    return c


IDS = ("socrates-uchu", "socrates-shinken", "socrates-kokutan", "socrates-twothree")


def _near(img: Image.Image, xy: tuple[int, int], colour: tuple[int, int, int]) -> bool:
    """True when ``colour`` (give or take the palette) appears within a cell around ``xy``."""
    x0, y0 = xy
    h = SIZE // 2
    for x in range(x0 - h, x0 + h, 2):
        for y in range(y0 - h, y0 + h, 2):
            pixel = img.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if sum(abs(a - b) for a, b in zip(pixel, colour, strict=False)) < 40:
                return True
    return False


@pytest.mark.parametrize("game_id", IDS)
def test_every_game_renders_along_a_game(game_id: str) -> None:
    assert has_renderer(game_id)
    states, record = random_game(get_game(game_id), 5, 40)
    for i, state in enumerate(states[1:]):
        move = states[i].parse_move(record.entries[i].move)
        for viewer in (None, 0, 1):
            img = png_image(render_png(state, viewer, move))
            assert 560 <= img.width <= 700


def test_white_sees_the_board_turned() -> None:
    state = get_game("socrates-shinken").new_game()
    black = png_image(render_png(state, 0))
    white = png_image(render_png(state, 1))
    assert black.size == white.size
    assert black.tobytes() != white.tobytes()
    # Black's view: a1 (Black's piece) at the bottom left; White's view: at the top right.
    assert _center(0, False)[1] > _center(0, True)[1]


def test_last_move_is_highlighted() -> None:
    game = get_game("socrates-twothree")
    state = game.new_game()
    move = state.parse_move("e4-e5")
    after = state.apply(move)
    img = png_image(render_png(after, None, move))
    assert _near(img, _center(cell_index("e4"), False), HIGHLIGHT)  # the cell it left


def test_kokutan_check_is_marked() -> None:
    game = get_game("socrates-kokutan")
    # Black plain c3 next to White marked d4: in check.
    text = "10/7p2/10/10/10/3m6/2P7/7P2/10 b move 0 30"
    state = game.from_position(text)
    img = png_image(render_png(state, None))
    assert _near(img, _center(cell_index("c3"), False), CHECK)
    assert not _near(img, _center(cell_index("h2"), False), CHECK)


def test_title_glyphs_are_real() -> None:
    fnt = font(20)
    for char in "ソクラテス宇宙遊泳真剣勝負黒壇の馬ツースリー先手後手":
        assert has_glyph(fnt, char), char


def test_samples() -> None:
    got = samples()
    assert {"socrates-uchu", "socrates-shinken", "socrates-kokutan", "socrates-twothree"} <= set(
        got
    )
    for png in got.values():
        png_image(png)
