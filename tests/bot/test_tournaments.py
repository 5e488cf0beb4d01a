"""Tournaments through the Discord double: create, Join buttons edited in place, start, rounds
posted as games end, refusals kept private."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from typing import Any

from bot.service import Kind, User
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_a_round_robin_runs_through_discord(harness: Harness, double: DiscordDouble) -> None:
    refused = await double.slash(
        double.alice, "tournament", {"create": {"game": "rokumentai", "format": "round-robin"}}
    )
    assert refused.ephemeral  # alice may not manage the server: nothing is made
    created = await double.slash(
        double.owner,
        "tournament",
        {"create": {"game": "rokumentai", "format": "round-robin", "name": "Spring Cup"}},
    )
    message = created.message
    assert message is not None and not created.ephemeral
    assert "Spring Cup" in double.text_of(message) or "Spring Cup" in double.text_of(message)
    buttons = double.buttons(message)
    assert {"Join", "Leave", "Start"} <= set(buttons)
    for user in (double.alice, double.carol):
        joined = await double.click(user, message, buttons["Join"])
        assert not joined.ephemeral
    again = await double.click(double.alice, message, buttons["Join"])
    assert again.ephemeral  # already in: said privately
    shown = double.messages[int(message["id"])]
    assert "Carol" in str(shown)  # the sign-up message itself lists the players now

    started = await double.slash(double.owner, "tournament", {"start": {"tournament": 1}})
    assert not started.ephemeral
    # the sign-up message says it started, and its buttons are gone
    signup = await double.wait_for(lambda: started_on(double, message))
    assert not double.buttons(signup)
    assert "Carol" in double.text_of(signup)
    threads = await double.wait_for(double.threads)
    assert len(threads) == 1  # three players: one game a round and a bye
    round_one = await double.wait_for_message(double.channel_id, lambda m: "round 1" in str(m))
    # its game is a jump link to the game's thread, and the post carries its key
    assert f"/{threads[0]['id']})" in double.text_of(round_one)
    assert double.mark(round_one) == "🏆 #1 · 1"  # not the key t1.round1
    # the round is one post in the channel: its game has no "begins" post of its own, only
    # the line Discord shows for a thread opened there
    posts = double.channel_messages(double.channel_id)
    assert not [m for m in posts if "begins" in str(m)]
    assert [m["content"] for m in posts if m["type"] == 18] == [threads[0]["name"]]

    service = harness.service
    assert service is not None
    boards = await service.ctx.store.boards(1)
    game_id = boards[0].game_id
    assert game_id is not None
    row = await service.play.game_info(game_id)
    seat = row.seats[0]
    await service.play.resign(game_id, User(seat.user_id or "", seat.name or ""))
    await double.wait_for(lambda: len(double.threads()) == 2)  # round two's game
    await double.wait_for(
        lambda: any("round 2" in str(m) for m in double.channel_messages(double.channel_id))
    )
    assert not [m for m in double.channel_messages(double.channel_id) if "begins" in str(m)]


def started_on(double: DiscordDouble, message: dict[str, Any]) -> dict[str, Any] | None:
    """The sign-up message ``message`` as it is now, once it says the tournament started."""
    shown: dict[str, Any] = double.messages[int(message["id"])]
    return shown if "started" in double.text_of(shown) else None


async def test_a_manager_calls_off_a_tournament(harness: Harness, double: DiscordDouble) -> None:
    created = await double.slash(
        double.owner,
        "tournament",
        {"create": {"game": "rokumentai", "format": "swiss", "signup_hours": 24}},
    )
    assert created.message is not None
    assert "<t:" in double.text_of(
        created.message
    )  # when the sign-up closes, in each reader's zone
    refused = await double.slash(double.alice, "tournament", {"cancel": {"tournament": 1}})
    assert refused.ephemeral and "manager" in str(refused.message)
    called_off = await double.slash(double.owner, "tournament", {"cancel": {"tournament": 1}})
    assert not called_off.ephemeral and "called off" in str(called_off.message)
    message = created.message
    signup = await double.wait_for(
        lambda: "called off" in double.text_of(message) and double.messages[int(message["id"])]
    )
    assert not double.buttons(signup)
    service = harness.service
    assert service is not None
    assert await service.pending_announcements(Kind.TOURNAMENT) == []  # reported posted


async def test_the_sign_up_deadline_starts_it_and_its_message_says_so(
    harness: Harness, double: DiscordDouble
) -> None:
    """Nobody pressed Start: when the sign-up closes the channel is told, and the sign-up
    message itself no longer offers Join."""
    created = await double.slash(
        double.owner,
        "tournament",
        {"create": {"game": "rokumentai", "format": "swiss", "rounds": 1, "signup_hours": 2}},
    )
    assert created.message is not None
    buttons = double.buttons(created.message)
    for user in (double.alice, double.bob):
        assert not (await double.click(user, created.message, buttons["Join"])).ephemeral
    service = harness.service
    assert service is not None
    harness.clock.advance(hours=2)
    service.compete.tournament_changed.set()  # the loop looks now, not at its next tick
    await double.wait_for_message(
        double.channel_id, lambda m: "t1.round0" in str(m) and "started" in str(m)
    )
    signup = await double.wait_for(lambda: started_on(double, created.message))
    assert not double.buttons(signup)
    await double.wait_for(double.threads)  # round one's game
    assert await service.pending_announcements(Kind.TOURNAMENT) == []  # reported posted


async def test_a_post_sent_before_a_crash_is_not_posted_again(
    harness: Harness, double: DiscordDouble
) -> None:
    """The process dies after posting a round's message and before reporting it: the next one
    finds it in the channel (its key's mark in the footer) and does not post it twice."""
    await double.slash(
        double.owner, "tournament", {"create": {"game": "rokumentai", "format": "round-robin"}}
    )
    service = harness.service
    assert service is not None
    await service.compete.join_tournament(1, User(str(double.alice.id), "Alice"))
    await double.slash(double.owner, "tournament", {"start": {"tournament": 1}})
    posted = await double.wait_for_message(double.channel_id, lambda m: "round 1" in str(m))
    posted.pop("nonce", None)  # long ago: Discord no longer holds its nonce
    await harness.stop()
    with contextlib.closing(sqlite3.connect(harness.db_path)) as db, db:
        db.execute("UPDATE tournament_posts SET delivered_ms = NULL")  # never reported
    bot = await harness.start()
    cog: Any = bot.get_cog("TimersCog")  # the one delivery loop
    await cog.delivered.wait()  # its first round: the pending post looked at
    service = harness.service
    assert service is not None
    assert await service.pending_announcements(Kind.TOURNAMENT) == []  # reported this time
    rounds = [m for m in double.channel_messages(double.channel_id) if "round 1" in str(m)]
    assert len(rounds) == 1


async def test_a_round_caused_in_a_thread_is_posted_in_the_tournament_channel(
    harness: Harness, double: DiscordDouble
) -> None:
    """A withdrawal typed in a game's thread ends the round: the next round's message goes
    to the tournament's channel, not to the thread the command came from."""
    await double.slash(
        double.owner, "tournament", {"create": {"game": "rokumentai", "format": "round-robin"}}
    )
    service = harness.service
    assert service is not None
    for user in (double.alice, double.carol):
        await service.compete.join_tournament(1, User(str(user.id), user.name))
    await double.slash(double.owner, "tournament", {"start": {"tournament": 1}})
    thread = (await double.wait_for(double.threads))[0]
    board = next(b for b in await service.ctx.store.boards(1) if b.game_id)
    people = {str(u.id): u for u in (double.owner, double.alice, double.carol)}
    leaver = people[board.players[0]]
    assert harness.bot is not None
    loop: Any = harness.bot.get_cog("TournamentCog")
    loop.task.cancel()  # only the command itself advances the tournament now
    with contextlib.suppress(asyncio.CancelledError):
        await loop.task
    out = await double.slash(
        leaver, "tournament", {"withdraw": {"tournament": 1}}, channel=int(thread["id"])
    )
    assert not out.ephemeral
    await double.wait_for_message(double.channel_id, lambda m: "round 2" in str(m))
    assert not any("round 2" in str(m) for m in double.channel_messages(int(thread["id"])))
