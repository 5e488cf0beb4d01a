"""The 六面体 picture: a valid PNG under the size limit, real glyphs, the last move marked."""

from __future__ import annotations

from engines.rokumentai import FACES, ROKUMENTAI, square_name
from render import render_png
from render.base import CHECK, HIGHLIGHT, font, has_glyph
from render.rokumentai import BOARD_X, BOARD_Y, CELL, STRIKE_4_1, samples
from tests.helpers import png_image


def _centre_edge(sq: int) -> tuple[int, int]:
    """A point on the square's outline (where the last-move frame is drawn)."""
    col, row = sq % 7, sq // 7
    return BOARD_X + col * CELL + CELL // 2, BOARD_Y + row * CELL + 3


def _is(pixel: object, colour: tuple[int, int, int]) -> bool:
    """True when ``pixel`` is ``colour`` give or take the fixed palette (a few levels)."""
    assert isinstance(pixel, tuple)
    return max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= 4


def test_every_face_has_a_glyph() -> None:
    for style in ("gothic", "mincho"):
        for char in "".join(FACES[0] + FACES[1]) + "一二三四五六七▲△":
            assert has_glyph(font(40, style), char), char


def test_start_and_samples_render() -> None:
    img = png_image(render_png(ROKUMENTAI.new_game()))
    assert 560 <= img.width <= 700 and 600 <= img.height <= 760
    out = samples()
    assert len(out) >= 4
    for stem, png in out.items():
        assert stem.startswith("rokumentai-")
        png_image(png)


def test_strike_marks_struck_square_and_landing() -> None:
    state = ROKUMENTAI.from_position(STRIKE_4_1)
    move = state.parse_move("怨六01-四03-一06")
    img = png_image(render_png(state.apply(move), None, move))
    assert _is(img.getpixel(_centre_edge(move.struck)), CHECK)
    assert _is(img.getpixel(_centre_edge(move.to)), HIGHLIGHT)
    assert _is(img.getpixel(_centre_edge(move.frm)), HIGHLIGHT)
    # An unmarked square's edge is the board's grid line, neither mark.
    plain = _centre_edge(0)
    assert not _is(img.getpixel(plain), CHECK) and not _is(img.getpixel(plain), HIGHLIGHT)
    assert square_name(move.struck) == "四03"


def test_viewer_does_not_change_the_picture() -> None:
    state = ROKUMENTAI.from_position(STRIKE_4_1)
    assert render_png(state, 0) == render_png(state, 1) == render_png(state, None)
