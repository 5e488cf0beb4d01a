"""Slow work is deferred first: the interaction is acknowledged before the answer is ready."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.discord import actions
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.helpers import assert_png, start_challenge


def gate_play(harness: Harness) -> asyncio.Event:
    """Make ``service.play.move`` wait for the returned event (a render that takes its time)."""
    service = harness.service
    assert service is not None
    gate = asyncio.Event()
    original = service.play.move

    async def slow_play(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await original(*args, **kwargs)

    service.play.move = slow_play  # type: ignore[method-assign]
    return gate


async def test_slow_move_is_deferred_then_answered(
    harness: Harness, double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread_id, turn = await start_challenge(double)
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    move = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices[0]["value"]
    monkeypatch.setattr(actions, "BUDGET", 0.01)
    gate = gate_play(harness)
    inter = await double.slash(
        to_move, "move", {"notation": move}, channel=thread_id, wait="responded"
    )
    assert inter.callback is not None and inter.callback.type == 5  # "thinking…", public
    assert not inter.done.is_set()
    gate.set()
    await asyncio.wait_for(inter.done.wait(), 10)
    assert inter.answer.kind == "edit"  # the deferred message becomes the turn message
    assert_png(inter, double)
    assert inter.message is not None and double.buttons(inter.message)


def test_an_interaction_late_to_arrive_leaves_less_time_before_deferring() -> None:
    made = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
    budget = actions.answer_budget
    assert budget(made, made) == actions.BUDGET  # at once: the usual budget
    assert budget(made, made + timedelta(seconds=1.5)) == pytest.approx(0.5)
    assert budget(made, made + timedelta(seconds=2.2)) == 0.0  # defer first
    assert budget(made, made + timedelta(seconds=60)) == 0.0
    assert budget(made, made - timedelta(seconds=5)) == actions.BUDGET  # clocks apart


async def test_a_move_that_reaches_the_bot_late_is_deferred_at_once(
    harness: Harness, double: DiscordDouble
) -> None:
    """Under a burst a process's event loop may run seconds behind its gateway: an interaction
    whose id says it was made 2.5 s ago is acknowledged before its work starts, within
    Discord's three seconds, and then answered."""
    thread_id, turn = await start_challenge(double)
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    move = (
        await double.autocomplete(to_move, "move", {"notation": ""}, "notation", channel=thread_id)
    ).choices[0]["value"]
    gate = gate_play(harness)  # the move's work would take its time
    double.interaction_delay = 2.5
    inter = await double.slash(
        to_move, "move", {"notation": move}, channel=thread_id, wait="responded"
    )
    assert inter.callback is not None and inter.callback.type == 5  # "thinking…", in time
    assert inter.response_time <= 3.0
    gate.set()
    await asyncio.wait_for(inter.done.wait(), 10)
    assert inter.answer.kind == "edit"  # the deferred message becomes the turn message
    assert_png(inter, double)


async def test_slow_refusal_after_deferral_is_private(
    harness: Harness, double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread_id, _ = await start_challenge(double)
    monkeypatch.setattr(actions, "BUDGET", 0.01)
    gate = gate_play(harness)
    inter = await double.slash(
        double.carol, "move", {"notation": "四04占"}, channel=thread_id, wait="responded"
    )
    assert inter.callback is not None and inter.callback.type == 5
    gate.set()
    await asyncio.wait_for(inter.done.wait(), 10)
    await double.wait_for(lambda: any(r.kind == "followup" for r in inter.replies))
    assert inter.ephemeral
    # The public "thinking…" placeholder was removed.
    deleted = [r for r in double.requests if r.method == "DELETE" and "@original" in r.path]
    assert deleted


async def test_slow_join_from_a_button_is_deferred(
    harness: Harness, double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await double.slash(double.alice, "play", {"rokumentai": {}})
    assert lobby.message is not None
    service = harness.service
    assert service is not None
    gate = asyncio.Event()
    original = service.play.join

    async def slow_join(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await original(*args, **kwargs)

    service.play.join = slow_join  # type: ignore[method-assign]
    monkeypatch.setattr(actions, "BUDGET", 0.01)
    pressed = await double.click(
        double.bob, lobby.message, double.buttons(lobby.message)["Join"], wait="responded"
    )
    assert pressed.callback is not None and pressed.callback.type == 6  # silent acknowledgement
    gate.set()
    thread = (await double.wait_for(double.threads))[0]
    turn = await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    assert not double.buttons(double.messages[int(lobby.message["id"])])
