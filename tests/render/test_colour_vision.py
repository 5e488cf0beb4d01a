"""Colours that carry meaning stay apart for every kind of colour vision (issue 46, item 4).

Each palette below is a renderer's own table; under normal vision and the simulations of
protanopia, deuteranopia and tritanopia (Machado 2009) its closest two colours must be at least
ΔE 20 apart (CIE76), or 10 for pale tints (camps, washed squares). docs/accessibility.md lists
the figures.
"""

from __future__ import annotations

import pytest

from render import base, charts, rokumentai, sangokushi, socrates, suji_shogi, yosuko
from render.colour_vision import RGB, Vision, delta_e, hex_rgb, lab, min_delta_e, simulate

COLOURS = 20.0
"""The least ΔE between two colours that mean different things."""
TINTS = 10.0
"""The least ΔE between two pale fills (a tint beside a tint, or the ground it sits on)."""


def blend(colour: RGB, alpha: float, ground: RGB) -> RGB:
    """``colour`` drawn at ``alpha`` over ``ground``, as seen."""
    r, g, b = (round(alpha * c + (1 - alpha) * z) for c, z in zip(colour, ground, strict=True))
    return (r, g, b)


PALETTES: dict[str, tuple[tuple[RGB, ...], float]] = {
    "三国志 armies (魏 蜀 呉) and the wood": ((*sangokushi.ARMY, sangokushi.WOOD), COLOURS),
    "三国志 cell fills (wood, camps, centre, moved, check)": (sangokushi.TINTS, TINTS),
    "chart seat lines and the panel": (
        (*(hex_rgb(c) for c in charts.SEAT_COLOURS), base.PANEL),
        COLOURS,
    ),
    "chart swing bars (as drawn over the panel) and the seat lines": (
        (
            *(hex_rgb(c) for c in charts.SEAT_COLOURS),
            base.PANEL,
            blend(hex_rgb(charts.SWING), charts.SWING_ALPHA, base.PANEL),
        ),
        COLOURS,
    ),
    "略式易双六 M and F badges on the ground": (
        (yosuko.M_COLOUR, yosuko.F_COLOUR, yosuko.BACKGROUND),
        COLOURS,
    ),
    "略式易双六 win and loss (goal and reversed, moved and stayed) on the ground": (
        (yosuko.GREEN, yosuko.RED, yosuko.BACKGROUND),
        COLOURS,
    ),
    "last move and check": ((base.HIGHLIGHT, base.CHECK), COLOURS),
    "teaching marks": (base.MARKS, COLOURS),
    **{
        f"teaching marks on {name}": ((*base.MARKS, ground), COLOURS)
        for name, ground in (
            ("三国志's wood", sangokushi.WOOD),
            ("筋将棋's wood", suji_shogi.WOOD),
            ("六面体's wood", rokumentai.WOOD),
        )
    },
    **{
        f"ソクラテス last move and check on {g}": ((g, base.HIGHLIGHT, base.CHECK), COLOURS)
        for g in socrates.GROUNDS
    },
    "筋将棋 moved squares": (suji_shogi.MOVED_TINTS, TINTS),
    "六面体 moved squares": (rokumentai.MOVED_TINTS, TINTS),
    "六面体 moved frame and struck cross": (rokumentai.MOVED_FRAMES, COLOURS),
    "六面体 dice and ghosts": (rokumentai.DIE_BODIES, COLOURS),
}


@pytest.mark.parametrize("vision", list(Vision), ids=lambda v: v.value)
@pytest.mark.parametrize("name", list(PALETTES))
def test_palette_stays_apart(name: str, vision: Vision) -> None:
    palette, least = PALETTES[name]
    assert min_delta_e(palette, vision) >= least


@pytest.mark.parametrize("vision", list(Vision), ids=lambda v: v.value)
def test_greys_are_seen_as_they_are(vision: Vision) -> None:
    for grey in ((0, 0, 0), (255, 255, 255), (128, 128, 128), (43, 43, 43)):
        seen = simulate(grey, vision)
        assert max(abs(a - b) for a, b in zip(seen, grey, strict=True)) <= 1


def test_lab_of_known_colours() -> None:
    assert lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab((0, 0, 0)) == pytest.approx((0.0, 0.0, 0.0), abs=0.01)
    assert lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)


def test_red_and_green_meet_for_red_green_blindness_only() -> None:
    red, green = (204, 56, 48), (40, 150, 80)  # 呉 and 蜀 before issue 46
    assert delta_e(red, green) > 80
    assert delta_e(red, green, Vision.TRITAN) > 80
    for vision in (Vision.PROTAN, Vision.DEUTAN):
        assert delta_e(red, green, vision) < 25


def test_blue_and_yellow_meet_for_blue_yellow_blindness() -> None:
    wood, yellow = (222, 184, 112), (250, 200, 60)  # a yellow mark on wood before issue 46
    assert delta_e(wood, yellow, Vision.TRITAN) < 10 < delta_e(wood, yellow)


def test_hex_rgb() -> None:
    assert hex_rgb("#0072b2") == (0, 114, 178)
