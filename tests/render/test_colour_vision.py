"""The simulation of colour-vision deficiency (Machado 2009) and CIE76 ΔE (issue 46, item 4)."""

from __future__ import annotations

import pytest

from render.colour_vision import Vision, delta_e, hex_rgb, lab, simulate


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
