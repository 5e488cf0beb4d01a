"""Play anywhere (issue 48): Banmen as a user-installed app in DMs and group DMs between
people, where it cannot post and reaches the players only through their interactions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model import GameStatus
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble, User
from tests.helpers import game_of, public


def channel_posts(double: DiscordDouble, channel_id: int) -> list[Any]:
    """The bot's own posts to the channel (not answers to interactions): none may succeed
    in a conversation it is not in, and it should not even try."""
    return [
        r
        for r in double.requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


async def _only_through_interactions(harness: Harness, double: DiscordDouble, place: int) -> None:
    """The bot never tried to post in ``place`` by itself, opened no thread, had nothing
    refused, and left nothing undelivered."""
    assert channel_posts(double, place) == []
    assert double.threads() == []
    assert not [r for r in double.requests if r.status >= 400]
    assert harness.service is not None
    assert await harness.service.pending_announcements() == []


async def _cards(double: DiscordDouble, inter: Any, count: int) -> list[Any]:
    """The first ``count`` messages an interaction's answers made (waiting for them)."""

    def made() -> list[Any] | None:
        cards = [r.message for r in inter.replies if r.message]
        return cards if len(cards) >= count else None

    found: list[Any] = await double.wait_for(made)
    return found


async def _to_move(harness: Harness, gid: int, players: list[User]) -> User | None:
    """Who is to move (None: the game is over), read from the store."""
    assert harness.service is not None
    loaded = await harness.service.ctx.games.read(gid)
    if loaded.status is not GameStatus.ACTIVE:
        return None
    ids = {int(u) for u in loaded.user_ids(loaded.acting_seats())}
    return next(p for p in players if p.id in ids)


async def _move(double: DiscordDouble, who: User, place: int, rng: random.Random) -> Any:
    offered = await double.autocomplete(who, "move", {"notation": ""}, "notation", channel=place)
    assert offered.choices, "no legal move offered"
    move = rng.choice(offered.choices)["value"]
    return await double.slash(who, "move", {"notation": move}, channel=place)


async def test_a_whole_game_in_a_dm_between_two_people(
    harness: Harness, double: DiscordDouble
) -> None:
    # alice and bob meet in their DM (the bot is not in it): a challenge, private setups,
    # the whole game by /move, tokens expiring, a restart, a reminder that waits
    rng = random.Random(48)
    double.limits.global_per_second = None
    dm = double.open_private(double.alice, double.bob)
    challenge = await double.slash(
        double.alice,
        "play",
        {"suji-shogi": {"opponent": double.bob, "clock": "corr:1"}},
        channel=dm,
    )
    assert challenge.message is not None and not challenge.ephemeral, challenge.text
    assert double.bob.mention in double.text_of(challenge.message)
    accepted = await double.click(
        double.bob, challenge.message, double.buttons(challenge.message)["Accept"]
    )
    assert accepted.response_time < 3.0
    first = await double.wait_for_message(dm, lambda m: bool(m["attachments"]))
    gid = game_of(first)
    assert harness.service is not None
    # the secret setups: each answered privately, never shown to the other
    mine = await double.slash(double.alice, "setup", {"text": "321/654"}, channel=dm)
    assert mine.ephemeral and "321/654" in mine.text
    assert not [m for m in double.channel_messages(dm) if public(m) and "321" in double.text_of(m)]
    theirs = await double.slash(double.bob, "setup", {"text": "654/321"}, channel=dm)
    assert theirs.message is not None
    where = await harness.service.play.place(gid)
    assert where is not None and where.interaction_only and where.channel_id == str(dm)
    players = [double.alice, double.bob]
    plies = 0
    while (who := await _to_move(harness, gid, players)) is not None:
        if plies == 1:  # /games there lists it, linked to the conversation
            listed = await double.slash(who, "games", {}, channel=dm)
            assert listed.ephemeral and f"discord.com/channels/@me/{dm}/" in listed.text
        if plies == 3:
            # every token so far expires; the bot restarts; a reminder falls due meanwhile:
            # it cannot be posted (no interaction to carry it) and waits, the player to move
            # told by direct message
            double.age(16 * 60)
            await harness.restart()
            assert harness.service is not None
            harness.clock.advance(hours=23, minutes=30)  # an hour left: the reminder
            harness.service.timer_changed.set()
            told = await double.wait_for(lambda: double.direct_messages(who))
            assert str(gid) in double.text_of(told[-1])
            waiting = await harness.service.pending_announcements()
            assert [r.game_id for r in waiting] == [gid]
            # (the delivery loop claimed it; its next round hands it out again)
            for r in waiting:
                await harness.service.announcement_failed(r.outbox or "")
            moved = await _move(double, who, dm, rng)
            # the waiting reminder first (the interaction's answer), then the move's card
            cards = await _cards(double, moved, 2)
            assert "your move is due in 30m" in double.text_of(cards[0])
            assert "your move is due" not in double.text_of(cards[1])
        else:
            moved = await _move(double, who, dm, rng)
        assert not moved.ephemeral, moved.text
        plies += 1
        assert plies < 60
    assert plies > 3
    # the game's record and the list of games work there as in a server
    record = await double.slash(double.bob, "record", {"game": gid}, channel=dm)
    assert any(f.filename.endswith(".json") for f in record.files), record.text
    await _only_through_interactions(harness, double, dm)


async def test_a_whole_three_player_game_in_a_group_dm(
    harness: Harness, double: DiscordDouble
) -> None:
    # 三国志 for three friends in their group DM: three seats, the 王手 turn jumps, tokens
    # expiring and a restart in the middle; the bot never posts there by itself
    rng = random.Random(3)
    double.limits.global_per_second = None
    group = double.open_private(double.alice, double.bob, double.carol)
    challenge = await double.slash(
        double.alice,
        "play",
        {"sangokushi": {"opponent": double.bob, "opponent2": double.carol}},
        channel=group,
    )
    assert challenge.message is not None and not challenge.ephemeral, challenge.text
    for who in (double.bob, double.carol):
        message = double.messages[int(challenge.message["id"])]
        await double.click(who, message, double.buttons(message)["Accept"])
    first = await double.wait_for_message(group, lambda m: bool(m["attachments"]))
    gid = game_of(first)
    players = [double.alice, double.bob, double.carol]
    plies = 0
    while (who := await _to_move(harness, gid, players)) is not None and plies < 400:
        if plies == 20:
            double.age(20 * 60)
            await harness.restart()
        moved = await _move(double, who, group, rng)
        assert not moved.ephemeral, moved.text
        plies += 1
    assert who is None, "random play ends a game of 三国志 well within 400 plies"
    assert plies > 20
    await _only_through_interactions(harness, double, group)


async def test_the_computer_answers_through_the_players_interaction(
    harness: Harness, double: DiscordDouble
) -> None:
    # alice against two computer seats in her DM with bob: each of her moves brings the
    # computer's card as a follow-up of her own /move (five at most a token)
    rng = random.Random(7)
    double.limits.global_per_second = None
    dm = double.open_private(double.alice, double.bob)
    started = await double.slash(
        double.alice, "play", {"sangokushi": {"ai_seats": 2, "level": 1}}, channel=dm
    )
    assert not started.ephemeral, started.text
    first = await double.wait_for_message(dm, lambda m: bool(m["attachments"]))
    gid = game_of(first)
    for _ in range(4):
        who = await _to_move(harness, gid, [double.alice])
        if who is None:
            break
        moved = await _move(double, who, dm, rng)
        assert moved.message is not None
        answer = await double.wait_for_message(
            dm, lambda m: "The computer" in double.text_of(m), after=int(moved.message["id"])
        )
        assert double.pinged(answer) == [double.alice.id]
        followups = [r for r in moved.replies if r.kind == "followup"]
        assert 1 <= len(followups) <= 5
    assert channel_posts(double, dm) == []
    assert not [r for r in double.requests if r.status >= 400]


async def test_lessons_puzzles_and_reviews_in_a_group_dm(
    harness: Harness, double: DiscordDouble
) -> None:
    # a learner's lesson and puzzle anywhere, privately; a lesson's move by /move there too;
    # a finished game's review in the conversation it was played in
    group = double.open_private(double.alice, double.bob, double.carol)
    lesson = await double.slash(double.alice, "learn", {"game": "rokumentai"}, channel=group)
    assert lesson.ephemeral and "The warrior's step" in lesson.text
    done = await double.slash(double.alice, "move", {"notation": "武四04-五03"}, channel=group)
    assert done.ephemeral and "✓" in done.text
    puzzle = await double.slash(double.carol, "puzzle", {"game": "rokumentai"}, channel=group)
    assert puzzle.ephemeral and "to play and win in" in puzzle.text
    started = await double.slash(
        double.carol,
        "play",
        {"rokumentai": {"opponent": double.bot_user, "level": 1}},
        channel=group,
    )
    gid = game_of(
        await double.wait_for_message(group, lambda m: public(m) and bool(m["attachments"]))
    )
    assert not started.ephemeral
    await double.slash(double.carol, "resign", {"game": gid}, channel=group)
    review = await double.slash(double.carol, "review", {"game": gid}, channel=group)
    shown = await double.wait_for(
        lambda: [m for m in double.channel_messages(group) if public(m) and "Review" in str(m)]
    )
    assert f"#{gid}" in double.text_of(shown[-1]) and review.user == double.carol
    await _only_through_interactions(harness, double, group)


async def test_a_server_that_did_not_add_the_bot(harness: Harness, double: DiscordDouble) -> None:
    # the commands of a user's install in a server without Banmen: the game lives in the
    # channel's interactions (no thread: the bot could open none), server-only commands are
    # not offered
    double.user_installed.add(double.guild_id)
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert challenge.payload["authorizing_integration_owners"] == {"1": str(double.alice.id)}
    assert challenge.message is not None and not challenge.ephemeral, challenge.text
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    turn = await double.wait_for_message(
        double.channel_id, lambda m: public(m) and bool(m["attachments"])
    )
    gid = game_of(turn)
    who = await _to_move(harness, gid, [double.alice, double.bob])
    assert who is not None
    moved = await _move(double, who, double.channel_id, random.Random(1))
    assert not moved.ephemeral
    assert double.threads() == []
    assert channel_posts(double, double.channel_id) == []
    with pytest.raises(KeyError, match="cannot be installed by a user"):
        await double.slash(double.alice, "tournament", {"create": {"name": "x"}})


async def test_a_player_who_takes_no_dm_finds_the_game_waiting(
    harness: Harness, double: DiscordDouble
) -> None:
    # bob takes no direct message from the bot: the reminder of his turn cannot reach him; it
    # waits, and /games and his next command there bring him up to date
    dm = double.open_private(double.alice, double.bob)
    double.closed_dms.add(double.bob.id)
    challenge = await double.slash(
        double.alice,
        "play",
        {"rokumentai": {"opponent": double.bob, "clock": "corr:1"}},
        channel=dm,
    )
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    gid = game_of(await double.wait_for_message(dm, lambda m: bool(m["attachments"])))
    players = [double.alice, double.bob]
    rng = random.Random(5)
    while (who := await _to_move(harness, gid, players)) != double.bob:
        assert who is not None
        await _move(double, who, dm, rng)
    double.age(16 * 60)
    assert harness.service is not None and harness.bot is not None
    harness.clock.advance(hours=23, minutes=30)
    harness.service.timer_changed.set()
    refused = await double.wait_for(lambda: [r for r in double.requests if r.status == 403])
    assert all(r.path != f"/channels/{dm}/messages" for r in refused)  # his DM with the bot
    assert double.direct_messages(double.bob) == []
    listed = await double.slash(double.bob, "games", {}, channel=dm)
    assert f"#{gid}" in listed.text
    moved = await _move(double, double.bob, dm, rng)
    cards = await _cards(double, moved, 2)
    assert "your move is due" in double.text_of(cards[0])
    assert channel_posts(double, dm) == []
