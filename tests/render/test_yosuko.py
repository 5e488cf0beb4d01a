"""The 略式易双六 picture: valid small PNGs for every phase, and nothing undrawn in them."""

from __future__ import annotations

import pytest
from PIL import ImageChops, ImageStat

from engines.core import CHANCE, chance_pick
from engines.yosuko import GAME, MAJORS, YosukoState
from render import has_renderer, render_png
from render.base import MAX_PNG_BYTES, font, has_glyph
from render.yosuko import HEIGHT, WIDTH, compose, render, samples
from tests.helpers import loaded_image

BOARD = "VI,XI,III,VIIIr,XIXr,XVIIr"
MID = f"{BOARD} 2 2 C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3 1 card 30"


def _play(state: YosukoState, *moves: str) -> YosukoState:
    for text in moves:
        state = state.apply(state.parse_move(text))
    return state


def _states() -> list[YosukoState]:
    mid = GAME.from_position(MID)
    return [
        GAME.new_game(),
        _play(GAME.new_game(), "deal XVIIr", "deal VIII"),
        GAME.from_position(f"{BOARD} - - -/-/-/-/-/- - 1 start 6"),
        mid,
        _play(mid, "C6"),  # a Cup stacked on the token's line
        _play(mid, "S9"),  # From wins: move or stay?
        _play(mid, "S9", "stay"),
        _play(mid, "W2"),  # a Wand moves the token back to 1
        _play(GAME.from_position(MID.replace(" 2 2 ", " 2 5 ")), "S2"),  # To wins
        _play(GAME.from_position(MID, {"rounds": "2"}), "XIII"),  # reshuffle
        _play(mid, "XIII"),  # the end
    ]


def test_registered() -> None:
    assert has_renderer("yosuko")


@pytest.mark.parametrize("index", range(11))
def test_every_phase_draws_a_small_png(index: int) -> None:
    state = _states()[index]
    png = render_png(state, 0)
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG_BYTES
    img = loaded_image(png)
    assert img.size == (WIDTH, HEIGHT)
    assert render_png(state, None) == png  # nothing is secret from a spectator either


def test_samples() -> None:
    out = samples()
    assert set(out) == {
        "yosuko-start",
        "yosuko-stack",
        "yosuko-judgement",
        "yosuko-blocked",
        "yosuko-win",
    }
    for png in out.values():
        assert len(png) <= MAX_PNG_BYTES and loaded_image(png).size == (WIDTH, HEIGHT)


def test_the_picture_shows_only_the_table() -> None:
    """A picture depends on the table alone: two games with different futures, and the same
    position read back from its text, draw the same picture while a card is being drawn."""
    for seed in ("a", "b", "c"):
        state = GAME.from_position(MID)
        assert state.current_player() == CHANCE
        again = GAME.from_position(state.position())
        assert render(state) == render(again)
        drawn = state.apply(chance_pick(state, seed, state.ply))
        assert drawn.position() != state.position()
    # The state stores no talon at all (it is derived, as a sorted set): nothing to leak.
    assert "talon" not in YosukoState.__dataclass_fields__


def test_reversed_cards_are_upside_down() -> None:
    up = GAME.from_position("I,II,III,IV,V,VI - - -/-/-/-/-/- - 1 start 6")
    down = GAME.from_position("Ir,II,III,IV,V,VI - - -/-/-/-/-/- - 1 start 6")
    # Line 1's card (bottom right) turned by 180 degrees is the upright card.
    box = (494, 456, 494 + 86, 456 + 128)
    a = compose(up).crop(box)
    b = compose(down).crop(box).rotate(180)
    mean = ImageStat.Stat(ImageChops.difference(a, b)).mean
    assert max(mean) < 2  # the same picture, give or take anti-aliasing
    assert max(ImageStat.Stat(ImageChops.difference(a, compose(down).crop(box))).mean) > 10


def test_cjk_glyphs_exist() -> None:
    for m in MAJORS:
        for ch in m.ja:
            assert has_glyph(font(20, "mincho"), ch), ch
    for ch in "略式易双六上卦下卦初爻勝逆捨山":
        assert has_glyph(font(16), ch), ch
