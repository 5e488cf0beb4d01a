"""数字将棋 pictures: valid, small, and never showing a hidden arrangement."""

from __future__ import annotations

import pytest

from engines.suji_shogi import (
    BLACK,
    FILES,
    GAME,
    RANKS,
    WHITE,
    Move,
    Setup,
    square_digits,
    square_kanji,
)
from render import has_renderer, render_png
from render.base import MAX_PNG_BYTES
from render.suji_shogi import BOARD_X, BOARD_Y, CELL, _cell_xy, file_label, rank_label, samples
from tests.helpers import loaded_image


def test_registered() -> None:
    assert has_renderer("suji-shogi")


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_picture_is_a_small_png(viewer: int | None) -> None:
    s = GAME.from_position(".v6v2/.v3./15v1/62./4.. w 4 35 13", {"directions": "sample"})
    png = render_png(s, viewer, s.parse_move("2b2c"))
    assert png.startswith(b"\x89PNG")
    assert len(png) <= MAX_PNG_BYTES
    assert loaded_image(png).width >= 500


@pytest.mark.parametrize(("hidden", "viewer"), [(0, 1), (0, None), (1, 0), (1, None)])
def test_hidden_arrangements_give_identical_pictures(hidden: int, viewer: int | None) -> None:
    a = GAME.new_game().apply(Setup((4, 6, 5, 1, 2, 3)), hidden)
    b = GAME.new_game().apply(Setup((1, 2, 3, 4, 5, 6)), hidden)
    assert render_png(a, viewer) == render_png(b, viewer)
    # The owner sees the difference.
    assert render_png(a, hidden) != render_png(b, hidden)


def test_views_differ_by_side() -> None:
    s = GAME.from_position("v3v6v2/v5v4v1/.../123/465 b - - 2")
    black, white, spectator = (render_png(s, v) for v in (0, 1, None))
    assert black == spectator
    assert black != white


def test_samples() -> None:
    pictures = samples()
    assert {
        f"suji-shogi-{k}" for k in ("start", "setup-hidden", "sample-game", "sum-of-seven")
    } <= set(pictures)
    for png in pictures.values():
        assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG_BYTES


@pytest.mark.parametrize("viewer", [BLACK, WHITE])
def test_board_labels_are_the_kifu_coordinates(viewer: int) -> None:
    """Every square shows, by its column and row labels, the name the kifu gives it
    (``▲2三5``: file digit, rank kanji), from either side."""
    flipped = viewer == WHITE
    for sq in range(FILES * RANKS):
        x, y = _cell_xy(sq, flipped)
        col, row = (x - BOARD_X) // CELL, (y - BOARD_Y) // CELL
        assert file_label(col, flipped) + rank_label(row, flipped) == square_kanji(sq)
    # and a move's display names the squares the picture marks
    s = GAME.from_position("v3v6v2/v5v4v1/.../123/465 b - - 2")
    for move in s.legal_moves():
        assert isinstance(move, Move)
        shown = s.display_move(move)
        assert shown.startswith(f"▲{square_kanji(move.to)}")
        assert shown.endswith(f"({square_digits(move.frm)})")
