"""三国志三人将棋's picture: valid small PNGs, turned to each player's edge."""

from __future__ import annotations

import pytest

from engines.registry import get_game
from engines.sangokushi import CELL_OF, KANJI, SangokushiState
from render import render_png
from render.base import MAX_PNG_BYTES, font, has_glyph
from render.sangokushi import ARMY, EDGE_LABEL, _centres, _edge_labels, _image, _static, samples
from tests.helpers import loaded_image

THREE = get_game("sangokushi")
TWO = get_game("sangokushi-2p")


def test_kanji_glyphs_exist() -> None:
    for char in [*KANJI.values(), "魏", "蜀", "呉"]:
        assert has_glyph(font(24, "mincho"), char), char


@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_png_for_every_viewer(viewer: int | None) -> None:
    state = THREE.new_game()
    move = state.legal_moves()[0]
    after = state.apply(move)
    data = render_png(after, viewer, move)
    assert data.startswith(b"\x89PNG") and len(data) <= MAX_PNG_BYTES
    assert 600 <= loaded_image(data).width <= 760


def test_each_player_sees_their_own_edge_at_the_bottom() -> None:
    state = THREE.new_game()
    assert isinstance(state, SangokushiState)
    spots = set()
    for seat in range(3):
        centre = _centres(3, seat)[state.general_cell(seat)]
        spots.add(centre)
        pixel = _image(state, seat, None).getpixel((round(centre[0]), round(centre[1]) - 16))
        assert isinstance(pixel, tuple)  # the body of the viewer's own general (posterised)
        assert max(abs(a - b) for a, b in zip(pixel, ARMY[seat], strict=True)) <= 2
    assert len(spots) == 1  # the same place: bottom middle
    assert _centres(3, None) == _centres(3, 0)  # spectators see 魏's view
    a3 = _centres(3, 0)[CELL_OF["A3"]]
    assert a3[1] > _centres(3, 0)[CELL_OF["E5"]][1]


def test_two_player_view_turns_half_round() -> None:
    state = TWO.new_game()
    assert isinstance(state, SangokushiState)
    assert _centres(2, 1)[state.general_cell(1)] == _centres(2, 0)[state.general_cell(0)]


def test_check_and_hands_drawn() -> None:
    text = (
        "....L2/.P1P2H2P1H2/B2L1..B2../H1G1P1P1.P2H2G2/..P1.H0.B0B0L2/L1.P1B1H0.P0./"
        ".B1..P0../.P0..L0./L0G0... P/-/- 2 0 100 0:2 59"
    )
    state = THREE.from_position(text)
    assert isinstance(state, SangokushiState) and state.in_check == {2}
    for viewer in (None, 0, 1, 2):
        assert len(render_png(state, viewer, None)) <= MAX_PNG_BYTES


def test_samples() -> None:
    pictures = samples()
    assert {"sangokushi-start", "sangokushi-2p-start"} <= set(pictures)
    for data in pictures.values():
        assert data.startswith(b"\x89PNG") and len(data) <= MAX_PNG_BYTES


@pytest.mark.parametrize("viewer", [0, 1, 2])
def test_the_bottom_heading_never_covers_an_edge_label(viewer: int) -> None:
    """The headings, with 王手 and long names, leave every edge label as the plain board draws
    it (the bottom-left heading, the viewer's own, sits nearest: B1/C1 in 魏's view)."""
    text = (
        "....L2/.P1P2H2P1H2/B2L1..B2../H1G1P1P1.P2H2G2/..P1.H0.B0B0L2/L1.P1B1H0.P0./"
        ".B1..P0../.P0..L0./L0G0... P/-/- 2 0 100 0:2 59"
    )
    state = THREE.from_position(text)
    assert isinstance(state, SangokushiState)
    checked = [s for s in range(3) if s in state.in_check]
    assert checked == [2]
    plain = _static(3, viewer)
    picture = _image(state, viewer, None, names=["W" * 40, "漢" * 40, "漢" * 40])
    label = font(EDGE_LABEL)
    for name, (x, y) in _edge_labels(3, viewer):
        left, top, right, bottom = label.getbbox(name, anchor="mm")
        box = (round(x + left) - 2, round(y + top) - 2, round(x + right) + 2, round(y + bottom) + 2)
        assert picture.crop(box).tobytes() == plain.crop(box).tobytes(), (viewer, name)
