"""Ends the host decides (resignation, timeout, agreed draw, abort) are drawn: ``render_png``'s
``outcome`` overrides the state's own, for every game with a picture."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from engines.core import Outcome, State, Termination, Text
from engines.registry import all_games, get_game
from render import has_renderer, render_png
from render.base import MAX_PNG_BYTES
from tests.engines.playout import random_game

IDS = [g.id for g in all_games() if has_renderer(g.id)]
MULTI = [g.id for g in all_games() if has_renderer(g.id) and g.player_counts[0] > 1]
TEXT = Text("Someone left.", "誰かが去りました。")


@cache
def _states(game_id: str) -> tuple[State[Any], State[Any]]:
    """A position from the middle of a random game, and the game's (rule-decided) end."""
    states, _ = random_game(get_game(game_id), 0, 600)
    assert states[-1].is_over() and len(states) > 2
    return states[len(states) // 2], states[-1]


def _players(game_id: str) -> int:
    return get_game(game_id).player_counts[0]


def _host_ends(n: int, seat: int = 0) -> dict[Termination, Outcome]:
    return {
        Termination.RESIGNATION: Outcome.loss(seat, n, Termination.RESIGNATION, TEXT),
        Termination.TIMEOUT: Outcome.loss(seat, n, Termination.TIMEOUT, TEXT),
        Termination.AGREEMENT: Outcome.draw(n, Termination.AGREEMENT, TEXT),
        Termination.ABORTED: Outcome(Termination.ABORTED, frozenset(), (1,) * n, TEXT),
    }


def test_every_game_with_a_picture_is_covered() -> None:
    assert {"rokumentai", "suji-shogi", "sangokushi", "socrates-uchu", "yosuko"} <= set(IDS)


@pytest.mark.parametrize("game_id", IDS)
def test_a_host_end_changes_the_picture(game_id: str) -> None:
    """Mid-game, each host end draws its own picture, none of them the one with a turn."""
    mid, _ = _states(game_id)
    assert not mid.is_over()
    n = _players(game_id)
    for viewer in (None, *range(n)):
        plain = render_png(mid, viewer)
        ended = {t: render_png(mid, viewer, None, o) for t, o in _host_ends(n).items()}
        assert len({plain, *ended.values()}) == 1 + len(ended), (viewer, sorted(ended, key=str))
        assert all(len(png) <= MAX_PNG_BYTES for png in ended.values())
        # Pure: the same call draws the same bytes, and nothing leaks into the plain picture.
        again = render_png(mid, viewer, None, _host_ends(n)[Termination.RESIGNATION])
        assert again == ended[Termination.RESIGNATION]
        assert render_png(mid, viewer) == plain


@pytest.mark.parametrize("game_id", MULTI)
def test_who_resigned_shows(game_id: str) -> None:
    """A resignation (or timeout) by each seat draws a different picture."""
    mid, _ = _states(game_id)
    n = _players(game_id)
    for termination in (Termination.RESIGNATION, Termination.TIMEOUT):
        pictures = {render_png(mid, None, None, _host_ends(n, s)[termination]) for s in range(n)}
        assert len(pictures) == n, termination


@pytest.mark.parametrize("game_id", IDS)
def test_the_state_s_own_outcome_changes_nothing(game_id: str) -> None:
    """Passing the outcome of a game its rules ended draws the same picture as before."""
    _, end = _states(game_id)
    outcome = end.outcome()
    assert outcome is not None
    for viewer in (None, 0):
        assert render_png(end, viewer, None, outcome) == render_png(end, viewer)


@pytest.mark.parametrize("game_id", IDS)
def test_a_host_end_overrides_a_rule_end(game_id: str) -> None:
    """A given outcome wins over the state's own (e.g. an abort recorded after the fact)."""
    _, end = _states(game_id)
    aborted = _host_ends(_players(game_id))[Termination.ABORTED]
    assert render_png(end, None, None, aborted) != render_png(end)
