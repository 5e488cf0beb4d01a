"""Issue 30: every service entry point that takes text refuses text no store or adapter can hold
(a lone surrogate, NUL, another control character) the same way, before anything is read or
written (found by fuzzing: ``daily_board`` with a lone surrogate in its day reached the store)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import GameService, Refusal
from bot.service.compete.front import Compete
from bot.service.correspond.front import Correspond
from bot.service.guard import bad_text
from bot.service.learn.front import Learn
from bot.service.play.front import Play
from bot.service.review.front import Review
from tests.helpers import ALICE, BOB, snapshot

BAD = ["2026-11-27\udfff", "a\x00b", "\x1b[2J"]
"""A lone surrogate, NUL, another control character (each refused at every entry point)."""

Call = Callable[[GameService, int, str], Awaitable[Any]]
ENTRY_POINTS: dict[str, Call] = {
    "create_game type": lambda s, g, t: s.play.create_game(ALICE, t),
    "create_game options": lambda s, g, t: s.play.create_game(
        ALICE, "ttt-test", options={"size": t}
    ),
    "create_game clock": lambda s, g, t: s.play.create_game(ALICE, "ttt-test", clock=t),
    "create_game guild": lambda s, g, t: s.play.create_game(ALICE, "ttt-test", guild_id=t),
    "create_game channel": lambda s, g, t: s.play.create_game(ALICE, "ttt-test", channel_id=t),
    "play": lambda s, g, t: s.play.move(g, ALICE, t),
    "setup": lambda s, g, t: s.play.setup(g, ALICE, t),
    "abort": lambda s, g, t: s.play.abort(g, ALICE, t),
    "import_record guild": lambda s, g, t: s.play.import_record(ALICE, b"{}", guild_id=t),
    "list_games": lambda s, g, t: s.play.list_games(ALICE, t),
    "legal_move_choices user": lambda s, g, t: s.play.legal_move_choices(g, t, ""),
    "legal_move_choices typed": lambda s, g, t: s.play.legal_move_choices(g, ALICE.id, t),
    "legal_moves typed": lambda s, g, t: s.play.legal_moves(g, ALICE.id, t),
    "legal_moves lang": lambda s, g, t: s.play.legal_moves(g, ALICE.id, "", lang=t),
    "games_to_play": lambda s, g, t: s.play.games_to_play(t),
    "game_at channel": lambda s, g, t: s.play.game_at(ALICE.id, t, None),
    "game_at thread": lambda s, g, t: s.play.game_at(ALICE.id, "c", t),
    "set_game_location": lambda s, g, t: s.play.set_game_location(g, "c", t, "m"),
    "rules_page": lambda s, g, t: s.learn.rules_page(t),
    "stats": lambda s, g, t: s.play.stats(ALICE, t),
    "rating": lambda s, g, t: s.compete.rating(ALICE, t),
    "leaderboard type": lambda s, g, t: s.compete.leaderboard(t),
    "leaderboard guild": lambda s, g, t: s.compete.leaderboard("ttt-test", t),
    "guild_settings": lambda s, g, t: s.play.guild_settings(t),
    "set_guild_setting key": lambda s, g, t: s.play.set_guild_setting("g", t, "en"),
    "set_guild_setting value": lambda s, g, t: s.play.set_guild_setting("g", "lang", t),
    "set_guild_setting guild": lambda s, g, t: s.play.set_guild_setting(t, "lang", "en"),
    "daily": lambda s, g, t: s.play.daily(ALICE, t),
    "daily_board day": lambda s, g, t: s.play.daily_board(None, t),
    "daily_board guild": lambda s, g, t: s.play.daily_board(t),
}


async def sync(call: Callable[[], Any]) -> Any:
    return call()


ENTRY_POINTS["game_choices"] = lambda s, g, t: sync(lambda: s.play.game_choices(ALICE.id, t))


@pytest.mark.parametrize("text", BAD, ids=ascii)
@pytest.mark.parametrize("entry_point", sorted(ENTRY_POINTS))
async def test_bad_text_is_refused_at_every_entry_point(
    service: GameService, db_path: str, entry_point: str, text: str
) -> None:
    created = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert created.game_id is not None
    before = snapshot(db_path)
    with pytest.raises(Refusal) as refused:
        await ENTRY_POINTS[entry_point](service, created.game_id, text)
    assert refused.value.key == "refuse.bad_text"
    for lang in ("en", "ja"):
        refused.value.text(lang).encode("utf-8")
    assert snapshot(db_path) == before


def test_what_counts_as_bad_text() -> None:
    assert not any(bad_text(t) for t in ("", "a1", "▲7六歩", "tab\there\r\n", "\U0001f600"))
    assert all(bad_text(t) for t in [*BAD, "\ud800", "x\x7f", "\x85"])


HOST_ONLY = frozenset({"announced", "announcement_failed", "open"})
"""Methods whose text comes from the host itself (an outbox key it made, its database), never
from a user."""


FRONTS = (GameService, Play, Review, Learn, Correspond, Compete)
"""The root and every capability's front: what adapters call."""


def test_every_method_that_takes_text_is_guarded() -> None:
    """A new use case that takes text cannot forget the guard: every public coroutine of the
    root and of each capability's front with a text parameter is an ``@entry``."""
    unguarded = []
    for front in FRONTS:
        for name, fn in inspect.getmembers(front, inspect.iscoroutinefunction):
            if name.startswith("_") or name in HOST_ONLY or hasattr(fn, "__wrapped__"):
                continue
            hints = typing.get_type_hints(fn)
            if any("str" in str(hint) for key, hint in hints.items() if key != "return"):
                unguarded.append(f"{front.__name__}.{name}")
    assert unguarded == []
