"""One bad game, or one failed round, never stops the timers loop: the other games still get their
reminders and timeouts (through the Discord double, with a fake clock)."""

from __future__ import annotations

import logging
import sys
from typing import Any

import pytest

from bot.service.play.timers import Timers
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.server import JSON, User


async def _live_game(double: DiscordDouble, challenger: User, opponent: User) -> tuple[int, int]:
    """A live:5 rokumentai game, accepted: (thread id, id of the turn message)."""
    before = {t["id"] for t in double.threads()}
    challenge = await double.slash(
        challenger, "play", {"rokumentai": {"opponent": opponent, "clock": "live:5"}}
    )
    assert challenge.message is not None
    await double.click(opponent, challenge.message, double.buttons(challenge.message)["Accept"])
    threads = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    thread_id = int(threads[0]["id"])
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    return thread_id, int(turn["id"])


def _game_of(harness: Harness, thread_id: int) -> int:
    assert harness.service is not None
    for gid in range(1, 10):
        loc = harness.service.play.location(gid)
        if loc is not None and loc.thread_id == str(thread_id):
            return gid
    raise AssertionError(f"no game in thread {thread_id}")


def _after(double: DiscordDouble, thread_id: int, last: int) -> list[JSON]:
    return [m for m in double.channel_messages(thread_id) if int(m["id"]) > last]


async def test_a_poisoned_game_leaves_the_others_on_time(
    harness: Harness,
    double: DiscordDouble,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bad_thread, bad_last = await _live_game(double, double.alice, double.bob)
    good_thread, good_last = await _live_game(double, double.carol, double.bob)
    bad = _game_of(harness, bad_thread)
    fire = Timers._fire

    async def poisoned(self: Timers, game_id: int, now_ms: int) -> Any:
        if game_id == bad:
            raise ValueError("year 29405 is out of range")
        return await fire(self, game_id, now_ms)

    monkeypatch.setattr(Timers, "_fire", poisoned)
    assert harness.service is not None
    with caplog.at_level(logging.ERROR, logger="banmen.timers"):
        harness.clock.advance(minutes=4, seconds=30)
        harness.service.timer_changed.set()
        reminder = await double.wait_for_message(good_thread, after=good_last)
        assert double.pinged(reminder)  # the good game's player is pinged
        good_last = int(reminder["id"])
        harness.clock.advance(minutes=1)
        harness.service.timer_changed.set()
        result = await double.wait_for_message(good_thread, after=good_last)
        assert result["mentions"] == []  # the timeout result
    assert any(f"game {bad}" in r.getMessage() and r.exc_info for r in caplog.records)
    assert _after(double, bad_thread, bad_last) == []  # nothing (and no traceback) was posted
    assert harness.bot is not None
    cog = harness.bot.get_cog("TimersCog")
    task = getattr(cog, "task", None)
    assert task is not None and not task.done()  # the loop is still running


async def test_a_failed_round_is_retried(
    harness: Harness,
    double: DiscordDouble,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert harness.bot is not None
    cog = harness.bot.get_cog("TimersCog")
    # the extension is loaded as its own module object: patch that one
    monkeypatch.setattr(sys.modules[type(cog).__module__], "RETRY_SECONDS", 0.05)
    thread_id, last = await _live_game(double, double.alice, double.bob)
    service = harness.service
    assert service is not None
    real_next, real_due = service.next_timer_at, service.process_due
    failures = {"next": 1, "due": 1}

    def next_timer_at() -> Any:
        if failures["next"]:
            failures["next"] -= 1
            raise ValueError("year 29405 is out of range")
        return real_next()

    async def process_due(now: Any = None) -> Any:
        if failures["due"]:
            failures["due"] -= 1
            raise RuntimeError("the store hiccupped")
        return await real_due(now)

    monkeypatch.setattr(service, "next_timer_at", next_timer_at)
    monkeypatch.setattr(service, "process_due", process_due)
    with caplog.at_level(logging.ERROR, logger="banmen.discord.timers"):
        harness.clock.advance(minutes=4, seconds=30)
        service.timer_changed.set()
        reminder = await double.wait_for_message(thread_id, after=last)
    assert double.pinged(reminder)
    assert failures == {"next": 0, "due": 0}
    assert sum("timers round failed" in r.getMessage() for r in caplog.records) == 2
