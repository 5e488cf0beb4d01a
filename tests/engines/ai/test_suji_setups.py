"""数字将棋's secret arrangement: each level's mix from the solved setup table.

The table (engines/ai/suji_setups.py) is public, so a level must not be readable from it: no
arrangement above one draw in 20 at any level, mirror images alike, stronger levels on better
arrangements (docs/ai.md, Evaluations).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from engines import get_game
from engines.ai import choose_setup, level
from engines.ai.levels import LEVELS
from engines.ai.suji_setups import SPREADS, TABLE, VALUES, WEIGHT
from engines.ai.suji_shogi import setup_mix
from engines.suji_shogi import ALL_SETUPS, Setup
from tests.engines.ai.helpers import FakeClock

SEATS = (0, 1)


def _mix(seat: int, lvl: int) -> dict[Setup, int]:
    mix = setup_mix(get_game("suji-shogi").new_game(), seat, level(lvl).setup_spread)
    assert mix is not None
    return dict(mix)


def _mirror(setup: Setup) -> Setup:
    """Files 3 and 1 swapped: each rank's three pieces in the other order."""
    p = setup.pieces
    return Setup(p[2::-1] + p[:2:-1])


def test_the_table_ranks_every_arrangement_once_for_each_seat() -> None:
    for seat in SEATS:
        assert sorted(text for text, _, _ in TABLE[seat]) == sorted(s.text() for s in ALL_SETUPS)
        scores = [score for _, score, _ in TABLE[seat]]
        assert scores == sorted(scores, reverse=True)
    for options in ({"directions": "sample"}, {"promotion": "off"}):
        state = get_game("suji-shogi").new_game(2, options)
        assert setup_mix(state, 0, level(8).setup_spread) is None


def test_the_table_has_a_mix_for_every_levels_spread() -> None:
    spreads = {lvl.setup_spread for lvl in LEVELS.values()}
    assert set(SPREADS) == spreads
    for seat in SEATS:
        assert set(VALUES[seat]) == spreads
        assert all(len(weights) == len(SPREADS) for _, _, weights in TABLE[seat])


@pytest.mark.parametrize("seat", SEATS)
@pytest.mark.parametrize("lvl", sorted(LEVELS))
def test_no_arrangement_is_drawn_more_than_one_time_in_20(seat: int, lvl: int) -> None:
    """At its spread's cap at most, and its support at least the spread wide."""
    mix = _mix(seat, lvl)
    spread = level(lvl).setup_spread
    total = sum(mix.values())
    assert spread >= 20
    assert total == spread * WEIGHT
    assert Fraction(max(mix.values()), total) <= Fraction(1, spread) <= Fraction(1, 20)
    assert len(mix) >= spread
    assert set(mix) <= set(get_game("suji-shogi").new_game().legal_moves(seat))


@pytest.mark.parametrize("seat", SEATS)
def test_levels_1_and_2_draw_any_arrangement_alike(seat: int) -> None:
    for lvl in (1, 2):
        mix = _mix(seat, lvl)
        assert set(mix) == set(ALL_SETUPS)
        assert set(mix.values()) == {WEIGHT}


@pytest.mark.parametrize("seat", SEATS)
def test_mirror_images_weigh_alike(seat: int) -> None:
    for lvl in LEVELS:
        mix = _mix(seat, lvl)
        assert all(mix.get(_mirror(s), 0) == w for s, w in mix.items())


@pytest.mark.parametrize("seat", SEATS)
def test_stronger_levels_draw_better_arrangements(seat: int) -> None:
    """By the table's own scores (the expected score a level's mix gets), and by what a mix
    guarantees against an enemy who knows it (its value), level by level."""
    score = {text: score for text, score, _ in TABLE[seat]}

    def expected(lvl: int) -> float:
        mix = _mix(seat, lvl)
        return sum(score[s.text()] * w for s, w in mix.items()) / sum(mix.values())

    means = [expected(lvl) for lvl in sorted(LEVELS)]
    values = [VALUES[seat][level(lvl).setup_spread] for lvl in sorted(LEVELS)]
    assert means == sorted(means) and values == sorted(values)
    assert means[7] > means[5] > means[3]  # levels 8, 6 and 4
    assert values[7] > values[5] > values[3]


@pytest.mark.parametrize("seat", SEATS)
def test_the_draw_follows_the_seed_and_covers_the_mix(seat: int) -> None:
    """The same seed gives the same arrangement; over many seeds level 8 plays many of its
    mix's arrangements, none often, and nothing outside it. No search is run (a zero budget
    still gets a drawn pick)."""
    state = get_game("suji-shogi").new_game()

    def draw(lvl: int, seed: int) -> Setup:
        setup = choose_setup(state, seat, lvl, random.Random(seed), deadline=0.0, clock=FakeClock())
        assert isinstance(setup, Setup)
        return setup

    assert [draw(8, i) for i in range(20)] == [draw(8, i) for i in range(20)]
    for lvl in (1, 6, 8):
        mix = _mix(seat, lvl)
        picks = Counter(draw(lvl, i) for i in range(400))
        assert set(picks) <= set(mix)
        assert len(picks) >= min(len(mix), 200) * 3 // 4
        assert max(picks.values()) <= 400 * 2 // level(lvl).setup_spread + 10
