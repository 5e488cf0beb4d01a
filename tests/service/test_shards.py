"""Several processes, one store: each runs a slice of the Discord shards and owns the clocks of
the guilds its shards hold (none posted twice, none lost when a process dies)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.clock import FakeClock
from bot.config import Settings, load_settings, parse_shards, shard_of, with_shards
from bot.service import GameService, Reply
from tests.helpers import ALICE, BOB, CAROL, DAVE

GUILD_0 = str(10 << 22)  # (id >> 22) % 2 == 0
GUILD_1 = str(11 << 22)  # ... == 1


def test_shard_of_follows_discord() -> None:
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert shard_of("175928847299117063", 8) == (175928847299117063 >> 22) % 8
    assert shard_of(None, 8) == 0  # direct messages reach shard 0
    assert shard_of("sandbox", 8) == 0


def test_parse_shards() -> None:
    assert parse_shards("0-3", 8) == (0, 1, 2, 3)
    assert parse_shards("5", 8) == (5,)
    assert parse_shards("0,2,4-5", 8) == (0, 2, 4, 5)
    for bad, why in (("8", "outside 0-7"), ("3-1", "outside"), ("x", "0-3 or 0,2,5")):
        with pytest.raises(ValueError, match=why):
            parse_shards(bad, 8)
    with pytest.raises(ValueError, match="--shard-count"):
        parse_shards("0-3", None)


def test_settings_from_the_environment_and_the_flags() -> None:
    s = load_settings(None, {"BANMEN_SHARDS": "1", "BANMEN_SHARD_COUNT": "2"})
    assert (s.shard_ids, s.shard_count, s.sharded) == ((1,), 2, True)
    assert s.owns(GUILD_1) and not s.owns(GUILD_0) and not s.owns(None)
    s = with_shards(s, "0-1", None)  # the flags win
    assert (s.shard_ids, s.sharded) == ((0, 1), False) and s.owns(GUILD_0)
    everything = load_settings(None, {})
    assert (everything.shard_ids, everything.shard_count, everything.sharded) == (
        None,
        None,
        False,
    )
    assert everything.owns(GUILD_0) and everything.owns(None)
    with pytest.raises(ValueError, match="--shard-count"):
        load_settings(None, {"BANMEN_SHARDS": "0-3"})


async def _host(db_path: str, clock: FakeClock, shard: int) -> GameService:
    settings = Settings(db_path=db_path, shard_ids=(shard,), shard_count=2, timer_rescan=60)
    return await GameService.open(db_path, clock=clock, settings=settings)


def _ids(replies: list[Reply]) -> list[tuple[int | None, str]]:
    return [(r.game_id, r.key) for r in replies]


async def test_each_process_owns_its_guilds_clocks(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    zero, one = await _host(db_path, clock, 0), await _host(db_path, clock, 1)
    try:
        game_0 = (
            await zero.play.create_game(
                ALICE, "ttt-test", seated=[BOB], clock="live:5", guild_id=GUILD_0
            )
        ).game_id
        game_1 = (
            await one.play.create_game(
                CAROL, "ttt-test", seated=[DAVE], clock="live:5", guild_id=GUILD_1
            )
        ).game_id
        assert game_0 is not None and game_1 is not None
        # each process waits only for its own guild's deadline
        d0, d1 = (
            (await zero.play.game_info(game_0)).deadline_ms,
            (await one.play.game_info(game_1)).deadline_ms,
        )
        assert d0 is not None and d1 is not None
        clock.advance(timedelta(minutes=6))
        assert _ids(await zero.process_due()) == [(game_0, "game.timeout")]
        assert _ids(await one.process_due()) == [(game_1, "game.timeout")]
        assert await zero.process_due() == [] and await one.process_due() == []
    finally:
        await zero.close()
        await one.close()


async def test_a_process_that_dies_is_replaced_by_the_next_start(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    zero, one = await _host(db_path, clock, 0), await _host(db_path, clock, 1)
    reply = await one.play.create_game(
        CAROL, "ttt-test", seated=[DAVE], clock="live:5", guild_id=GUILD_1
    )
    gid = reply.game_id
    assert gid is not None
    await one.close()  # the process of shard 1 dies before the deadline
    clock.advance(timedelta(minutes=6))
    try:
        assert await zero.process_due() == []  # not shard 0's to post
        again = await _host(db_path, clock, 1)  # another start with shard 1 picks it up
        try:
            assert _ids(await again.process_due()) == [(gid, "game.timeout")]
            assert await again.process_due() == []
        finally:
            await again.close()
    finally:
        await zero.close()


async def test_a_change_from_another_process_is_picked_up(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    """A move in a guild game made through another shard (a direct message reaches shard 0):
    the owner re-reads its deadlines and times the new turn; nothing fires twice."""
    zero, one = await _host(db_path, clock, 0), await _host(db_path, clock, 1)
    try:
        gid = (
            await one.play.create_game(
                CAROL, "ttt-test", seated=[DAVE], clock="live:5", guild_id=GUILD_1
            )
        ).game_id
        assert gid is not None
        clock.advance(timedelta(minutes=4))
        await zero.play.move(gid, CAROL, "a1")  # shard 0's process writes the move
        clock.advance(timedelta(minutes=2))  # the first deadline has passed, the new one not
        assert await one.process_due() == []  # re-read: the game moved on
        clock.advance(timedelta(minutes=4))  # past the new deadline
        assert await zero.process_due() == []  # shard 0's process does not time it
        assert _ids(await one.process_due()) == [(gid, "game.timeout")]
        info = await one.play.game_info(gid)
        assert info.result is not None and info.result.winners == (0,)
    finally:
        await zero.close()
        await one.close()


async def test_an_ai_game_moves_in_the_process_of_its_guild(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    """A computer player's turn is taken by the process whose shards hold the game's guild
    (no two processes search the same move), also after a restart."""
    zero, one = await _host(db_path, clock, 0), await _host(db_path, clock, 1)
    try:
        reply = await one.play.create_game(ALICE, "ttt-test", ai=[1], guild_id=GUILD_1)
        gid = reply.game_id
        assert gid is not None
        state = one.play.current_state(gid)
        assert state is not None
        if state.current_player() == 0:  # alice first: her move makes it the computer's turn
            await one.play.move(gid, ALICE, "a1")
        assert zero.play.due_ai_games() == []
        assert [r.game_id for r in await one.play.settle_ai()] == [gid]
        await one.close()
        again = await _host(db_path, clock, 1)
        try:
            # shard 0's process, restarted too, never takes it up
            other = await _host(db_path, clock, 0)
            assert other.play.due_ai_games() == []
            await other.close()
        finally:
            await again.close()
    finally:
        await zero.close()


async def test_the_outbox_hands_each_process_its_guilds_announcements(
    fakes: None, clock: FakeClock, db_path: str
) -> None:
    """Announcements nobody posted (the process died after the commit) go to the next process
    of the game's shard, never to another."""
    one = await _host(db_path, clock, 1)
    g1 = (await one.play.create_game(ALICE, "ttt-test", seated=[BOB], guild_id=GUILD_1)).game_id
    dm = (await one.play.create_game(CAROL, "ttt-test", seated=[DAVE])).game_id  # no guild: shard 0
    assert g1 is not None and dm is not None
    await one.play.move(g1, ALICE, "a1")
    await one.play.move(dm, CAROL, "a1")
    await one.close()  # dies before posting anything
    zero, again = await _host(db_path, clock, 0), await _host(db_path, clock, 1)
    try:
        assert {r.game_id for r in await again.pending_announcements()} == {g1}
        assert {r.game_id for r in await zero.pending_announcements()} == {dm}
    finally:
        await zero.close()
        await again.close()
