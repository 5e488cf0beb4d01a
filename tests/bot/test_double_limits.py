"""The Discord double enforces Discord's REST rate limits (issue 49, 5): the global 50 requests a
second for the token (interactions apart), and per-route buckets a test asks for, each answered
with Discord's headers and 429s. The bot, through discord.py, gets everything through them: it
waits where the headers say and retries a 429 after ``retry_after``."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import aiohttp
import discord

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.limits import Limits


async def test_the_global_limit_answers_429_past_fifty_a_second(double: DiscordDouble) -> None:
    headers = {"Authorization": f"Bot {double.token}"}
    async with aiohttp.ClientSession() as http:

        async def me() -> tuple[int, dict[str, str], object]:
            async with http.get(f"{double.api_base}/users/@me", headers=headers) as answer:
                return answer.status, dict(answer.headers), await answer.json()

        answers = await asyncio.gather(*(me() for _ in range(60)))
    refused = [a for a in answers if a[0] == 429]
    assert len([a for a in answers if a[0] == 200]) <= 50 and refused
    _, said_headers, body = refused[0]
    assert said_headers["X-RateLimit-Global"] == "true" and float(said_headers["Retry-After"]) > 0
    assert isinstance(body, dict) and body["global"] is True and body["retry_after"] > 0
    assert double.limits.refused["global"] == len(refused)


def test_interactions_are_not_counted_and_buckets_keep_paths_apart() -> None:
    now = [0.0]
    limits = Limits(clock=lambda: now[0])
    for _ in range(50):
        assert limits.check("GET", "/users/@me")[1] is None
    assert limits.check("GET", "/users/@me")[1] is not None  # the 51st this second
    assert limits.check("POST", "/interactions/1/t/callback")[1] is None  # never counted
    now[0] = 1.5  # a second later: the window has passed
    limits.bucket("POST", r"/channels/\d+/messages", 5, 5.0)
    for _ in range(5):
        headers, refused = limits.check("POST", "/channels/7/messages")
        assert refused is None
    assert headers["X-RateLimit-Remaining"] == "0"
    headers, refused = limits.check("POST", "/channels/7/messages")
    assert refused is not None and refused["global"] is False
    assert headers["X-RateLimit-Scope"] == "user"
    assert limits.check("POST", "/channels/8/messages")[1] is None  # another channel
    now[0] = 7.0
    assert limits.check("POST", "/channels/7/messages")[1] is None  # the bucket refilled


async def test_the_bot_waits_for_a_routes_bucket(harness: Harness, double: DiscordDouble) -> None:
    """A channel's messages limited to 5 in 5 seconds (shortened twenty times): twelve posts in
    a row all arrive, in order; discord.py reads the bucket's headers and waits."""
    assert harness.bot is not None
    double.limits.scale = 0.05
    double.limits.bucket("POST", r"/channels/\d+/messages", 5, 5.0)
    channel = harness.bot.get_channel(double.channel_id)
    assert isinstance(channel, discord.TextChannel)
    before = len(double.channel_messages(double.channel_id))
    for i in range(12):
        await channel.send(f"post {i}")
    got = [m["content"] for m in double.channel_messages(double.channel_id)[before:]]
    assert got == [f"post {i}" for i in range(12)]
    assert not [r for r in double.requests if r.status >= 400 and r.status != 429]


async def test_the_bot_gets_a_burst_through_the_global_limit(
    harness: Harness, double: DiscordDouble
) -> None:
    """Eighty posts at once, past the global limit of fifty a second: some are refused with
    the global 429, discord.py holds every request for ``retry_after`` (under a second) and
    tries again, and every message arrives once."""
    assert harness.bot is not None
    channel = harness.bot.get_channel(double.channel_id)
    assert isinstance(channel, discord.TextChannel)
    before = len(double.channel_messages(double.channel_id))
    sent = await asyncio.gather(*(channel.send(f"burst {i}") for i in range(80)))
    assert len({m.id for m in sent}) == 80
    got = double.channel_messages(double.channel_id)[before:]
    assert sorted(m["content"] for m in got) == sorted(f"burst {i}" for i in range(80))
    assert double.limits.refused["global"] > 0  # the limit was met, and waited out
    assert not [r for r in double.requests if r.status >= 400 and r.status != 429]


async def test_the_shared_budget_keeps_a_burst_under_the_global_limit(
    harness: Harness, double: DiscordDouble
) -> None:
    """The same eighty posts with the shared REST budget on (issue 49, 1; at 40 a
    second): every one waits for its slot in the budget first, none is refused."""
    harness.settings = replace(harness.settings, rest_per_second=40.0)
    bot = await harness.restart()
    channel = bot.get_channel(double.channel_id)
    assert isinstance(channel, discord.TextChannel)
    refused = double.limits.refused["global"]
    sent = await asyncio.gather(*(channel.send(f"burst {i}") for i in range(80)))
    assert len({m.id for m in sent}) == 80
    assert double.limits.refused["global"] == refused == 0


async def test_processes_on_one_store_share_one_budget(db_url: str) -> None:
    """Two services on one store (two processes on PostgreSQL; SQLite the same) asking for
    slots at once: no second of the wall clock gets more than Discord's fifty (40 a second,
    a burst of 8); and a request that may wait (a digest) waits while an urgent one goes."""
    from bot.config import Settings
    from bot.service import GameService

    settings = Settings(db_path=db_url, rest_per_second=40.0)
    first = await GameService.open(db_url, settings=settings)
    second = await GameService.open(db_url, settings=settings)
    try:
        now = 1_000_000
        granted: list[int] = []
        for step in range(0, 3000, 5):  # 600 rounds, 5 ms apart, both asking each round
            waits = await asyncio.gather(first.rest_slot(now + step), second.rest_slot(now + step))
            granted += [now + step for w in waits if w == 0]
        assert len(granted) > 100
        for start in range(now, now + 2000, 50):
            assert len([t for t in granted if start <= t < start + 1000]) <= 50
        later = now + 10_000
        assert await first.rest_slot(later, urgent=True) == 0
        assert await second.rest_slot(later, urgent=False) > 0  # one queued: it yields
        assert await first.rest_slot(later, urgent=True) == 0  # moves go on
    finally:
        await first.close()
        await second.close()


async def test_a_reminder_yields_to_moves(harness: Harness, double: DiscordDouble) -> None:
    """The delivery loop's reminder takes only an idle slot of the budget (no burst ahead of
    its rate), while a command's requests may run ahead: moves go first."""
    harness.settings = replace(harness.settings, rest_per_second=40.0)
    bot = await harness.restart()
    store = bot.service.ctx.store
    asked: list[tuple[str, int]] = []
    take = store.take_rest_slot

    async def recorded(now_ms: int, interval_ms: int, ahead_ms: int) -> int:
        asked.append((phase, ahead_ms))
        return await take(now_ms, interval_ms, ahead_ms)

    store.take_rest_slot = recorded  # type: ignore[method-assign]
    phase = "game"
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "clock": "corr:1"}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    (thread,) = await double.wait_for(double.threads)
    await double.wait_for_message(int(thread["id"]), lambda m: bool(m["attachments"]))
    phase = "reminder"
    harness.clock.advance(hours=23, minutes=30)
    bot.service.timer_changed.set()
    await double.wait_for_message(int(thread["id"]), lambda m: "due in" in double.text_of(m))
    assert {a for p, a in asked if p == "game"} == {200}  # a move's: may run ahead
    assert {a for p, a in asked if p == "reminder"} == {0}  # the reminder's: only when idle
