"""Reminders and timeouts reach the game thread, also across a restart (no sleeps: a fake clock)."""

from __future__ import annotations

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_reminder_then_timeout_across_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "clock": "live:5"}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = (await double.wait_for(double.threads))[0]
    thread_id = int(thread["id"])
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    # The deadline is shown as a Discord timestamp.
    assert "<t:" in double.text_of(turn)
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    last = first = int(turn["id"])

    # Four and a half minutes later: a reminder pings only the player to move.
    harness.clock.advance(minutes=4, seconds=30)
    assert harness.service is not None
    harness.service.timer_changed.set()
    reminder = await double.wait_for_message(thread_id, after=last)
    assert double.pinged(reminder) == [to_move.id]
    assert [int(u["id"]) for u in reminder["mentions"]] == [to_move.id]
    last = int(reminder["id"])

    # The bot restarts; the deadline passes meanwhile; the timeout is posted after start-up.
    await harness.stop()
    harness.clock.advance(minutes=1)
    await harness.start()
    result = await double.wait_for_message(thread_id, after=last)
    assert "#" in double.text_of(result)
    assert result["mentions"] == []  # a finished game pings nobody
    # Exactly one reminder was sent (not repeated after the restart).
    reminders = [
        m
        for m in double.channel_messages(thread_id)
        if int(m["id"]) > first and double.pinged(m) == [to_move.id]
    ]
    assert len(reminders) == 1
    # The game is over: moves are refused.
    late = await double.slash(to_move, "move", {"notation": "四04占"}, channel=thread_id)
    assert late.ephemeral


async def test_a_lapsed_challenge_loses_its_buttons(
    harness: Harness, double: DiscordDouble
) -> None:
    """The timers lapse an unanswered challenge: its message says so and offers no button."""
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.message is not None
    mid = int(challenge.message["id"])
    harness.clock.advance(hours=25)
    assert harness.service is not None
    harness.service.timer_changed.set()
    await double.wait_for(lambda: not double.buttons(double.messages[mid]))
    assert "in time" in double.text_of(double.messages[mid])
    late = await double.slash(double.bob, "join", {"game": 1})
    assert late.ephemeral
