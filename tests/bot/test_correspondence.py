"""Correspondence life through the Discord double: `/vacation` (a private answer, a notice in
the game's thread) and `/premove` (private lines, a matching move answered at once)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, User
from tests.discord_double.payloads import JSON


async def _correspondence_game(double: DiscordDouble) -> tuple[int, JSON, User, User]:
    """Alice challenges Bob to a correspondence 六面体 and Bob accepts: the thread, its first
    turn message, the player to move and the other."""
    challenge = await double.slash(
        double.alice, "play", {"rokumentai": {"opponent": double.bob, "clock": "corr:3"}}
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread_id = int((await double.wait_for(double.threads))[0]["id"])
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    return thread_id, turn, to_move, double.bob if to_move is double.alice else double.alice


async def test_vacation_on_and_off_through_discord(harness: Harness, double: DiscordDouble) -> None:
    thread_id, turn, away, other = await _correspondence_game(double)

    answer = await double.slash(away, "vacation", {"on": {"until": "2d"}})
    assert answer.ephemeral and "vacation" in answer.text
    notice = await double.wait_for_message(
        thread_id, lambda m: "on vacation" in double.text_of(m), after=int(turn["id"])
    )
    listed = await double.slash(other, "games", {})
    assert listed.ephemeral and "（1）" in listed.text and "まで休暇中" in listed.text  # bob: ja

    again = await double.slash(away, "vacation", {"on": {}})
    assert again.ephemeral and "already on vacation" in again.text

    back = await double.slash(away, "vacation", {"off": {}})
    assert back.ephemeral and "Welcome back" in back.text
    await double.wait_for_message(
        thread_id, lambda m: "is back" in double.text_of(m), after=int(notice["id"])
    )


async def test_a_conditional_move_through_discord(harness: Harness, double: DiscordDouble) -> None:
    """The waiting player keeps a line (autocompleted from each position, answered privately);
    the opponent's matching move is answered at once in the thread, marked conditional."""
    thread_id, _, first, second = await _correspondence_game(double)
    opening = await double.autocomplete(
        first, "move", {"notation": ""}, "notation", channel=thread_id
    )
    played = await double.slash(
        first, "move", {"notation": opening.choices[0]["value"]}, channel=thread_id
    )
    assert not played.ephemeral

    # first waits: their line, autocompleted move by move
    def typing(text: str) -> dict[str, object]:
        return {"add": {"line": text}}

    theirs = await double.autocomplete(first, "premove", typing(""), "line", channel=thread_id)
    move = theirs.choices[0]["value"]
    mine = await double.autocomplete(
        first, "premove", typing(move + " "), "line", channel=thread_id
    )
    line = mine.choices[0]["value"]
    assert line.startswith(move + " ")

    def public() -> list[object]:
        return [m for m in double.channel_messages(thread_id) if not int(m["flags"] or 0) & 64]

    posted = public()
    kept = await double.slash(first, "premove", typing(line), channel=thread_id)
    assert kept.ephemeral and line in kept.text
    assert public() == posted  # nothing public about it, not even a "thinking…"
    # the opponent plays the move: the reply follows at once, marked conditional
    answered = await double.slash(second, "move", {"notation": move}, channel=thread_id)
    assert not answered.ephemeral and "conditional" not in answered.text
    reply = await double.wait_for_message(
        thread_id,
        lambda m: "(a conditional move)" in double.text_of(m) and not int(m["flags"] or 0) & 64,
    )
    assert second.mention in double.text_of(reply)  # the turn is theirs again


async def test_quiet_hours_and_the_digest_through_discord(
    harness: Harness, double: DiscordDouble
) -> None:
    """A turn message for a player in their quiet hours is sent silently (Discord's
    suppress-notifications flag); the digest comes by direct message at the user's hour; closed
    direct messages are noted once and not tried again."""
    assert harness.service is not None
    thread_id, turn, to_move, other = await _correspondence_game(double)
    hour = harness.clock.now().hour
    quiet = await double.slash(other, "notify", {"quiet": f"{hour}-{(hour + 2) % 24}"})
    assert quiet.ephemeral
    digest_hour = (hour + 1) % 24
    asked = await double.slash(other, "notify", {"digest": "on", "hour": digest_hour})
    assert asked.ephemeral and "on" in asked.text
    opening = await double.autocomplete(
        to_move, "move", {"notation": ""}, "notation", channel=thread_id
    )
    await double.slash(
        to_move, "move", {"notation": opening.choices[0]["value"]}, channel=thread_id
    )
    silent = await double.wait_for_message(
        thread_id, lambda m: other.mention in double.text_of(m), after=int(turn["id"])
    )
    assert int(silent["flags"]) & 4096  # SUPPRESS_NOTIFICATIONS

    harness.clock.advance(hours=1)
    harness.service.timer_changed.set()
    (digest,) = await double.wait_for(lambda: double.direct_messages(other))
    assert "#1" in double.text_of(digest) and "discord.com/channels" in double.text_of(digest)

    double.closed_dms.add(other.id)
    assert harness.bot is not None
    delivered = getattr(harness.bot.get_cog("TimersCog"), "delivered", None)
    assert isinstance(delivered, asyncio.Event)  # set after each round of deliveries
    notices = harness.service.correspond.notices
    harness.clock.advance(days=1)
    await _rounds(harness, delivered, lambda: notices.prefs(str(other.id)).dm_closed)
    assert notices.prefs(str(other.id)).dm_closed
    assert len(double.direct_messages(other)) == 1
    # noted once: the next day nothing is tried
    tries = len([r for r in double.requests if r.method == "POST" and r.status == 403])
    harness.clock.advance(days=1)
    await _rounds(harness, delivered, lambda: False)
    assert len([r for r in double.requests if r.method == "POST" and r.status == 403]) == tries


async def test_a_digest_sent_before_a_crash_is_not_sent_again(
    harness: Harness, double: DiscordDouble
) -> None:
    """The direct message went out, then the process died before noting it: the digest is
    handed out again after its claim, and the adapter finds its mark in the direct messages
    instead of sending it twice."""
    assert harness.service is not None and harness.bot is not None
    _, _, to_move, _ = await _correspondence_game(double)
    hour = harness.clock.now().hour
    await double.slash(to_move, "notify", {"digest": "on", "hour": (hour + 1) % 24})
    service = harness.service
    noted = service.announced
    dropped: list[str] = []

    async def dies_before_noting(*keys: str) -> None:
        if any(k.startswith("digest:") for k in keys) and not dropped:
            dropped.extend(keys)  # the process died here: nothing of the batch noted
            return
        await noted(*keys)

    setattr(service, "announced", dies_before_noting)  # noqa: B010
    delivered = getattr(harness.bot.get_cog("TimersCog"), "delivered", None)
    assert isinstance(delivered, asyncio.Event)
    harness.clock.advance(hours=1)
    await _rounds(harness, delivered, lambda: bool(dropped))
    assert len(double.direct_messages(to_move)) == 1  # sent, then the "crash"
    harness.clock.advance(minutes=5)  # past its claim: handed out again, looked for first
    await _rounds(harness, delivered, lambda: False)
    assert len(double.direct_messages(to_move)) == 1
    dm = double.direct_messages(to_move)[0]["channel_id"]
    sends = [r for r in double.requests if r.method == "POST" and r.path.endswith(f"{dm}/messages")]
    assert len(sends) == 1  # found by its mark: not even tried again
    assert await service.ctx.store.pending_digests(2**62, 10) == []  # and now noted


async def test_a_digest_sent_before_a_kill_is_found_after_the_restart(
    harness: Harness, double: DiscordDouble
) -> None:
    """The direct message went out and the process died before noting it; the next process
    (a new client, nothing in memory) finds the digest's mark in the user's direct messages,
    which Discord keeps in the one DM channel it opens for the user, and does not send it
    again."""
    assert harness.service is not None and harness.bot is not None
    _, _, to_move, _ = await _correspondence_game(double)
    hour = harness.clock.now().hour
    await double.slash(to_move, "notify", {"digest": "on", "hour": (hour + 1) % 24})
    noted = harness.service.announced
    dropped: list[str] = []

    async def dies_before_noting(*keys: str) -> None:
        if any(k.startswith("digest:") for k in keys):
            dropped.extend(keys)  # killed here: nothing noted
            return
        await noted(*keys)

    setattr(harness.service, "announced", dies_before_noting)  # noqa: B010
    delivered = getattr(harness.bot.get_cog("TimersCog"), "delivered", None)
    assert isinstance(delivered, asyncio.Event)
    harness.clock.advance(hours=1)
    await _rounds(harness, delivered, lambda: bool(dropped))
    assert len(double.direct_messages(to_move)) == 1
    bot = await harness.restart()
    assert harness.service is not None
    delivered = getattr(bot.get_cog("TimersCog"), "delivered", None)
    assert isinstance(delivered, asyncio.Event)
    harness.clock.advance(minutes=5)
    await _rounds(harness, delivered, lambda: False)
    assert len(double.direct_messages(to_move)) == 1
    dms = {cid for cid, c in double.channels.items() if c.get("type") == 1}
    sends = [
        r
        for r in double.requests
        if r.method == "POST" and any(r.path.endswith(f"/channels/{cid}/messages") for cid in dms)
    ]
    assert len(sends) == 1  # found by its mark in the same DM channel: not even tried again
    assert await harness.service.ctx.store.pending_digests(2**62, 10) == []  # and noted


async def _rounds(harness: Harness, delivered: asyncio.Event, done: Callable[[], bool]) -> None:
    """Let the timers' loop run whole rounds (at most three) until ``done``."""
    assert harness.service is not None
    for _ in range(3):
        delivered.clear()
        harness.service.timer_changed.set()
        await asyncio.wait_for(delivered.wait(), 10)
        if done():
            return


async def test_threads_sleep_and_every_post_revives_them(
    harness: Harness, double: DiscordDouble
) -> None:
    """A running game's thread sleeps after a week idle; Discord archived it: the next post
    revives it. Once the game is over, its thread sleeps after the server's archive_after."""
    set_it = await double.slash(double.owner, "settings", {"key": "archive_after", "value": "1h"})
    assert "archive_after" in set_it.text
    thread_id, _, to_move, other = await _correspondence_game(double)
    assert double.archive_minutes(thread_id) == 10080  # a week while it runs
    await double.archive(thread_id)  # a week passed without a word
    assert double.archived(thread_id)
    opening = await double.autocomplete(
        to_move, "move", {"notation": ""}, "notation", channel=thread_id
    )
    played = await double.slash(
        to_move, "move", {"notation": opening.choices[0]["value"]}, channel=thread_id
    )
    assert not played.ephemeral and not double.archived(thread_id)  # the post revived it
    assert double.archive_minutes(thread_id) == 10080
    await double.slash(other, "resign", {}, channel=thread_id)
    await double.wait_for(lambda: double.archive_minutes(thread_id) == 60)
    # a locked thread (a moderator's) takes no post: the bot says nothing and goes on
    await double.archive(thread_id, locked=True)
    looked = await double.slash(to_move, "board", {}, channel=thread_id)
    assert double.archived(thread_id) and looked is not None
