"""Players' names in the pictures' headers: shown when given, cut to fit, never moving the
layout; without names every picture is as before."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from engines.core import State
from engines.registry import all_games, get_game
from render import has_renderer, render_image, render_png
from render.base import clean_name, fit_text, font, name_sprite
from tests.engines.playout import random_game

IDS = [g.id for g in all_games() if has_renderer(g.id)]


@cache
def _mid(game_id: str) -> State[Any]:
    states, _ = random_game(get_game(game_id), 1, 40)
    return states[len(states) // 2]


def _names(game_id: str, *names: str) -> list[str]:
    n = get_game(game_id).player_counts[0]
    return [names[seat % len(names)] for seat in range(n)]


@pytest.mark.parametrize("game_id", IDS)
def test_names_change_the_picture_and_none_changes_nothing(game_id: str) -> None:
    state = _mid(game_id)
    for viewer in (None, 0):
        plain = render_png(state, viewer)
        assert render_png(state, viewer, None, None, None) == plain
        named = render_png(state, viewer, None, None, _names(game_id, "Alice", "Bob", "Carol"))
        assert named != plain
        # each seat's name is drawn: changing one seat's name changes the picture
        other = _names(game_id, "Alice", "Bob", "Carol")
        other[-1] = "Zed"
        assert render_png(state, viewer, None, None, other) != named


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("letter", ["W", "漢", "ｗ"])
def test_a_long_name_is_cut_and_moves_nothing(game_id: str, letter: str) -> None:
    """A 40-character name fills its place and no more: a 60-character one draws the same
    picture (cut at the same point), of the same size."""
    state = _mid(game_id)
    forty = render_image(state, 0, None, None, _names(game_id, letter * 40))
    sixty = render_image(state, 0, None, None, _names(game_id, letter * 60))
    assert forty.size == render_image(state, 0).size
    assert forty.tobytes() == sixty.tobytes()


def test_user_text_is_one_clean_line() -> None:
    assert clean_name("a\nb\tc\u200bd\u202e") == "a b cd"
    assert clean_name("  spaced   out  ") == "spaced out"
    # at most one combining mark on a character (after NFC): no zalgo towers
    assert clean_name("Z\u0336\u0337\u0338a\u0301\u0301\u0301lgo") == "Z\u0336\u00e1\u0301lgo"
    assert clean_name("か\u3099") == "が"  # NFC keeps the kana whole


def test_fit_text_cuts_with_an_ellipsis() -> None:
    fnt = font(15)
    assert fit_text("short", fnt, 200) == "short"
    cut = fit_text("長い名前" * 10, fnt, 100)
    assert cut.endswith("…") and fnt.getlength(cut) <= 100
    sprite = name_sprite("W" * 40, 15, (255, 255, 255), 120)
    assert sprite.width <= 120 and sprite.height <= 24
    stacked = name_sprite("Z" + "\u0336" * 50, 15, (255, 255, 255), 120)
    assert stacked.height == sprite.height
