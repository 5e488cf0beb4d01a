"""Restart: close everything mid-game, reopen the same file, finish; nothing is lost or repeated."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import FakeClock
from bot.service import GameService
from engines.record import Record
from tests.helpers import ALICE, BOB, open_service


async def _play_until_over(service: GameService, gid: int, limit: int) -> int:
    """Always ``step`` (the dice race); returns the number of moves made."""
    made = 0
    while made < limit and (await service.play.game_info(gid)).status == "active":
        state = service.play.current_state(gid)
        assert state is not None
        await service.play.move(gid, (ALICE, BOB)[state.current_player()], "step")
        made += 1
    return made


async def _reference(db_path: str, clock: FakeClock) -> Record:
    service = await open_service(db_path, clock)
    try:
        reply = await service.play.create_game(ALICE, "race-test", seated=[BOB], seed="s")
        assert reply.game_id is not None
        await _play_until_over(service, reply.game_id, 1000)
        return await service.play.export_record(reply.game_id)
    finally:
        await service.close()


async def test_restart_gives_the_identical_record(fakes: None, tmp_path: object) -> None:
    from pathlib import Path

    base = Path(str(tmp_path))
    clock = FakeClock()
    expected = await _reference(str(base / "ref.db"), clock)
    db = str(base / "restart.db")
    first = await open_service(db, clock)
    reply = await first.play.create_game(ALICE, "race-test", seated=[BOB], seed="s", clock="corr:2")
    gid = reply.game_id
    assert gid is not None
    assert await _play_until_over(first, gid, 5) == 5
    await first.close()
    second = await open_service(db, clock)
    try:
        await _play_until_over(second, gid, 1000)
        assert (await second.play.game_info(gid)).status == "finished"
        got = await second.play.export_record(gid)
        assert got.entries == expected.entries and got.seed == expected.seed
        assert got.to_json() == expected.to_json()
    finally:
        await second.close()


async def test_clocks_and_reminders_survive_a_restart(fakes: None, db_path: str) -> None:
    clock = FakeClock()
    first = await open_service(db_path, clock)
    reply = await first.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    gid = reply.game_id
    assert gid is not None
    await first.play.move(gid, ALICE, "a1")
    deadline = (await first.play.game_info(gid)).deadline_ms
    assert deadline is not None
    clock.advance(timedelta(days=1, minutes=1))  # past the 24 h point of bob's deadline
    assert [r.key for r in await first.process_due()] == ["clock.reminder"]
    await first.close()

    second = await open_service(db_path, clock)
    try:
        assert await second.process_due() == []  # the 24 h reminder is not sent again
        nxt = second.next_timer_at()
        assert nxt is not None and int(nxt.timestamp() * 1000) == deadline - 3_600_000
        clock.set(nxt)
        assert [r.key for r in await second.process_due()] == ["clock.reminder"]
        clock.set(nxt + timedelta(hours=1, milliseconds=1))
        assert [r.key for r in await second.process_due()] == ["game.timeout"]
        info = await second.play.game_info(gid)
        assert info.result is not None and info.result.winners == (0,)
    finally:
        await second.close()
