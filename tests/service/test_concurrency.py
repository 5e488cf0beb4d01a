"""Concurrency: one ply, one winner; games never block each other; two hosts on one file."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal
from bot.store import Change, ConflictError, MoveRow
from tests.helpers import ALICE, BOB, moves_of, stored_row

SQUARES = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


async def _submit(service: GameService, gid: int, text: str, ply: int | None) -> str:
    try:
        await service.play.move(gid, ALICE, text, ply=ply)
    except Refusal as exc:
        return exc.key
    return "ok"


@pytest.mark.parametrize("with_ply", [True, False])
async def test_twenty_submissions_for_one_ply(
    service: GameService, db_path: str, with_ply: bool
) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    gid = reply.game_id
    assert gid is not None
    texts = [SQUARES[i % 9] for i in range(20)]
    results = await asyncio.gather(
        *(_submit(service, gid, t, 0 if with_ply else None) for t in texts)
    )
    assert results.count("ok") == 1
    assert results.count("refuse.position_changed") == 19
    assert len(moves_of(db_path, gid)) == 1
    with pytest.raises(Refusal) as exc:
        await service.play.move(gid, BOB, "c3", ply=0)
    assert exc.value.key == "refuse.position_changed"
    assert "changed" in exc.value.text("en") and "変わりました" in exc.value.text("ja")


async def test_two_hosts_on_one_file(fakes: None, db_path: str) -> None:
    """Two services (as two processes would) with stale caches: the store lets one win."""
    clock = FakeClock()
    one = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    two = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        reply = await one.play.create_game(ALICE, "ttt-test", seated=[BOB])
        gid = reply.game_id
        assert gid is not None
        await two.play.game_info(gid)  # loads it: a cached copy that goes stale
        await one.play.move(gid, ALICE, "a1")
        with pytest.raises(Refusal) as exc:
            await two.play.move(gid, ALICE, "b2")
        assert exc.value.key == "refuse.position_changed"
        # after the refusal the stale copy is dropped: the next try sees the real position
        await two.play.move(gid, BOB, "b2")
        assert [m[2] for m in moves_of(db_path, gid)] == ["a1", "b2"]
    finally:
        await one.close()
        await two.close()


async def test_store_refuses_a_second_writer_for_one_ply(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    gid = reply.game_id
    assert gid is not None
    info = await service.play.game_info(gid)
    row = MoveRow(0, 0, "a1", ALICE.id, False, 0)
    other = MoveRow(0, 0, "b1", ALICE.id, False, 0)
    results = await asyncio.gather(
        service.ctx.store.apply(Change(gid, info.version, append=(row,))),
        service.ctx.store.apply(Change(gid, info.version, append=(other,))),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, ConflictError) for r in results) == 1
    # the (game, ply) key holds even when the version guard is bypassed
    fresh = await stored_row(service.ctx.store, gid)
    assert fresh is not None
    with pytest.raises(ConflictError):
        await service.ctx.store.apply(Change(gid, fresh.version, append=(other,)))


async def test_different_games_do_not_block_each_other(service: GameService) -> None:
    ids = []
    for _ in range(10):
        reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
        assert reply.game_id is not None
        ids.append(reply.game_id)
    # a game stuck under its lock does not hold up another game
    async with service.ctx.games.lock(ids[0]):
        await asyncio.wait_for(service.play.move(ids[1], ALICE, "a1"), timeout=5)
    results = await asyncio.gather(*(service.play.move(g, ALICE, "b2") for g in ids[2:]))
    assert all(r.key == "move.played" for r in results)
