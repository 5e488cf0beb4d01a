"""Per-user and per-server limits hold under concurrency: the store checks them in the same
transaction that adds the game or the seat."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Refusal, User
from tests.helpers import ALICE, BOB, snapshot


@pytest.fixture
async def limited(fakes: None, clock: FakeClock, db_path: str) -> GameService:
    settings = Settings(db_path=db_path, max_active_per_user=20, max_active_per_guild=25)
    return await GameService.open(db_path, clock=clock, settings=settings)


async def test_sixty_concurrent_creates_make_twenty_games(limited: GameService) -> None:
    try:
        results = await asyncio.gather(
            *(limited.play.create_game(ALICE, "ttt-test", open_seats=1) for _ in range(60)),
            return_exceptions=True,
        )
        made = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, Refusal)]
        assert len(made) == 20 and len(refused) == 40
        assert all(r.key == "refuse.limit_user" and "20" in r.text("en") for r in refused)
    finally:
        await limited.close()


async def test_thirty_concurrent_joins_take_twenty_seats(
    limited: GameService, db_path: str
) -> None:
    try:
        lobbies = []
        for i in range(30):
            host = User(f"host{i}", f"host{i}")
            reply = await limited.play.create_game(host, "ttt-test", open_seats=1, guild_id=f"g{i}")
            assert reply.game_id is not None
            lobbies.append(reply.game_id)
        results = await asyncio.gather(
            *(limited.play.join(gid, ALICE) for gid in lobbies), return_exceptions=True
        )
        joined = [r for r in results if not isinstance(r, BaseException)]
        assert len(joined) == 20
        assert all(isinstance(r, Refusal) for r in results if r not in joined)
        before = snapshot(db_path)
        with pytest.raises(Refusal) as exc:
            await limited.play.create_game(ALICE, "ttt-test", open_seats=1)
        assert exc.value.key == "refuse.limit_user"
        assert snapshot(db_path) == before
    finally:
        await limited.close()


async def test_server_limit_holds_concurrently(limited: GameService) -> None:
    try:
        users = [User(f"u{i}", f"u{i}") for i in range(40)]
        results = await asyncio.gather(
            *(limited.play.create_game(u, "ttt-test", open_seats=1, guild_id="g") for u in users),
            return_exceptions=True,
        )
        made = [r for r in results if not isinstance(r, BaseException)]
        assert len(made) == 25
        keys = {r.key for r in results if isinstance(r, Refusal)}
        assert keys == {"refuse.limit_guild"}
    finally:
        await limited.close()


async def test_abort_only_in_the_games_own_server(service: GameService) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", open_seats=1, guild_id="ours")
    gid = reply.game_id
    assert gid is not None
    with pytest.raises(Refusal) as exc:
        await service.play.abort(gid, User("mod", "mod"), "theirs")
    assert exc.value.key == "refuse.other_server"
    assert (await service.play.game_info(gid)).status == "open"
    aborted = await service.play.abort(gid, User("mod", "mod"), "ours")
    assert aborted.key == "game.aborted"


# -- repeated takebacks and draw offers -----------------------------------------------------------


async def _rokumentai(service: GameService) -> int:
    reply = await service.play.create_game(ALICE, "rokumentai", seated=[BOB])
    assert reply.game_id is not None
    return reply.game_id


async def _move(service: GameService, gid: int) -> User:
    """The player to move plays the first legal move; returns who moved."""
    await service.play.moves(gid)
    state = service.play.current_state(gid)
    assert state is not None
    user = (ALICE, BOB)[state.current_player()]
    await service.play.move(gid, user, state.format_move(state.legal_moves()[0]))
    return user


async def test_a_move_takeback_loop_stops_at_the_limit(real: GameService, db_path: str) -> None:
    service = real
    gid = await _rokumentai(service)
    limit = service.settings.takeback_limit
    for _ in range(limit):
        mover = await _move(service, gid)
        await service.play.request_takeback(gid, mover)
    mover = await _move(service, gid)
    before = snapshot(db_path)
    with pytest.raises(Refusal) as refused:
        await service.play.request_takeback(gid, mover)
    assert refused.value.key == "refuse.takeback_limit"
    assert f"at most {limit} a game" in refused.value.text("en")
    assert "待ったは使い切りました" in refused.value.text("ja")
    assert snapshot(db_path) == before
    # the other player still has theirs
    other = await _move(service, gid)
    assert other != mover
    assert (await service.play.request_takeback(gid, other)).key == "takeback.done"


async def test_a_declined_draw_is_not_offered_again_at_once(
    real: GameService, db_path: str
) -> None:
    service = real
    gid = await _rokumentai(service)
    await service.play.offer_draw(gid, ALICE)
    await service.play.decline_draw(gid, BOB)
    before = snapshot(db_path)
    with pytest.raises(Refusal) as refused:
        await service.play.offer_draw(gid, ALICE)
    assert refused.value.key == "refuse.draw_again"
    assert "from move 11" in refused.value.text("en")
    assert snapshot(db_path) == before
    assert (await service.play.offer_draw(gid, BOB)).key == "draw.offered"  # Bob has not offered
    await service.play.decline_draw(gid, ALICE)
    for _ in range(service.settings.draw_reoffer):
        await _move(service, gid)
    assert (await service.play.offer_draw(gid, ALICE)).key == "draw.offered"
