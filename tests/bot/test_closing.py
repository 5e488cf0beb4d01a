"""Closing never hangs: the bot and the service close, within a bound, whatever is in flight.

The close that hung (issue 37): Python 3.11's ``asyncio.wait_for`` loses a cancellation that
arrives just as the event it waits on is set, so the timers' delivery loop, cancelled by the
closing bot at that moment, went on waiting for its next due time and the close with it. The
tests here close the bot in that very moment, and while a human move, a delivery, a computer
move and a gateway reconnect are all in flight, with the close cut at many different points
(``asyncio.sleep(0)`` hands the loop on one step: a point in the schedule, not a wait for time).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.service import InlineThinker, StepClock
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import Silent, game_of

CLOSE_BOUND = 30.0
"""Far more than a close takes; a close that needs it is a hang (and fails the test)."""


async def stop_within_bound(harness: Harness) -> None:
    """``harness.stop()``, failing if it needs the bound (a close that swallows the bound's
    cancellation still counts: ``expired()``)."""
    try:
        async with asyncio.timeout(CLOSE_BOUND) as bound:
            await harness.stop()
    except TimeoutError:
        pass
    if bound.expired():
        pytest.fail(f"closing the bot and the service took more than {CLOSE_BOUND:.0f}s")


def _game_id(message: Any) -> int:
    return game_of(message)


async def _new_thread(double: DiscordDouble, before: set[str]) -> int:
    threads = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    return int(threads[0]["id"])


def waits_for_the_deadline(task: asyncio.Task[None]) -> bool:
    """The timers' loop waits for a change with a time limit (the next due time)."""
    names = [frame.f_code.co_name for frame in awaiting(task)]
    if "round" not in names:
        return False
    waiting = awaiting(task)[names.index("round") + 1]  # wait_event (or the wait_for it was)
    return waiting.f_locals.get("timeout") is not None


def awaiting(task: asyncio.Task[None]) -> list[Any]:
    """The frames of the coroutines ``task`` is in, outermost first (``Task.get_stack`` gives
    only the outermost); the last one waits on a future."""
    frames: list[Any] = []
    coro: Any = task.get_coro()
    while coro is not None and hasattr(coro, "cr_frame"):
        frames.append(coro.cr_frame)
        coro = coro.cr_await
    return frames


async def test_close_as_the_timers_wake(harness: Harness, double: DiscordDouble) -> None:
    """The exact moment of the hang: the timers' loop waits for the next due time (a running
    game's deadline) when it changes, and the bot closes at once."""
    assert harness.service is not None and harness.bot is not None
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "clock": "corr:3"}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    assert harness.service.next_timer_at() is not None
    cog: Any = harness.bot.get_cog("TimersCog")
    # steps of the loop until the timers' task waits for the deadline (bounded in time, not in
    # steps: on a loaded machine the store's thread may take many steps to answer)
    bound = time.monotonic() + 30
    while not waits_for_the_deadline(cog.task) and time.monotonic() < bound:
        await asyncio.sleep(0)
    assert waits_for_the_deadline(cog.task), awaiting(cog.task)
    harness.service.timer_changed.set()
    harness.service.play.ai_changed.set()
    await stop_within_bound(harness)


async def test_close_with_everything_in_flight(harness: Harness, double: DiscordDouble) -> None:
    """A human move, its delivery, a computer move and a reconnect are under way; the bot and
    the service close at one of many points of that; every time, they close, what was
    committed is there after the restart, and the computer's pending turn is then played."""
    seen: set[str] = set()
    for step in range(12):
        player = (double.alice, double.carol)[step % 2]  # (20 games each at most)
        silent = Silent()
        harness.thinker = silent
        await harness.restart()
        assert harness.service is not None
        # A game against the computer, which is thinking (and never finishes) when we close.
        started = await double.slash(player, "play", {"rokumentai": {"opponent": double.bot_user}})
        ai_game = _game_id(started.message)
        ai_thread = await _new_thread(double, seen)
        seen.add(str(ai_thread))
        moved = await double.slash(player, "move", {"notation": "一01占"}, channel=ai_thread)
        assert moved.message is not None
        await silent.asked.wait()
        # A game between two people, where the player's move is being answered when we close.
        challenge = await double.slash(player, "play", {"rokumentai": {"opponent": double.bob}})
        assert challenge.message is not None
        game = _game_id(challenge.message)
        await double.click(
            double.bob, challenge.message, double.buttons(challenge.message)["Accept"]
        )
        thread = await _new_thread(double, seen)
        seen.add(str(thread))
        move = asyncio.create_task(
            double.slash(player, "move", {"notation": "一01占"}, channel=thread)
        )
        await asyncio.sleep(0)
        await double.request_reconnect()
        harness.service.timer_changed.set()  # the delivery loop wakes
        for _ in range(step):
            await asyncio.sleep(0)
        await stop_within_bound(harness)
        move.cancel()  # (the double may still wait for its answer, or have lost the gateway)
        await asyncio.wait({move})
        if not move.cancelled():
            move.exception()

        # The computer answers now, after the restart; the player's move is there or not, whole.
        harness.thinker = InlineThinker(StepClock(0.005))
        await harness.restart()
        assert harness.service is not None
        await double.wait_for_message(
            ai_thread,
            lambda m: "Banmen AI Lv.4: △" in double.text_of(m),
            after=int(moved.message["id"]),
        )
        assert len(await harness.service.play.entries(ai_game)) == 2
        assert len(await harness.service.play.entries(game)) in (0, 1)
