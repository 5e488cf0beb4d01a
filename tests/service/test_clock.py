"""Clocks with the fake clock: reminders fire once, deadlines are inclusive, timeouts end games."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.clock import ClockError, ClockSpec, FakeClock, parse_clock
from bot.service import GameService, Refusal
from tests.helpers import ALICE, BOB, CAROL

MS = timedelta(milliseconds=1)


def test_parse_clock() -> None:
    assert parse_clock(None) == ClockSpec()
    assert parse_clock("live:5") == ClockSpec("live", per_move=300, reminders=(60,))
    assert parse_clock("corr:3").per_move == 3 * 86400
    assert parse_clock("corr:3").reminders == (86400, 3600)
    assert parse_clock("corr:12h").reminders == (3600,)
    bank = parse_clock("bank:7d+1d/14d")
    assert (bank.bank, bank.bonus, bank.cap) == (7 * 86400, 86400, 14 * 86400)
    for spec in ("live:5", "corr:3", "bank:7d+1d/14d", "none", "live:90s"):
        assert parse_clock(parse_clock(spec).text()) == parse_clock(spec)
    for bad in ("soon", "live:x", "bank:1d", "bank:7d+1d/1d", "live:0"):
        with pytest.raises(ClockError):
            parse_clock(bad)


async def test_reminders_fire_once_each(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    deadline = reply.deadline
    assert service.next_timer_at() == deadline - timedelta(hours=24)
    clock.set(deadline - timedelta(hours=24) - MS)
    assert await service.process_due() == []
    clock.advance(MS)
    due = await service.process_due()
    assert [r.key for r in due] == ["clock.reminder"]
    assert due[0].notify == (ALICE.id,) and due[0].deadline == deadline
    assert "alice" in due[0].text("en") and "1d" in due[0].text("en")
    assert await service.process_due() == []
    assert service.next_timer_at() == deadline - timedelta(hours=1)
    clock.set(deadline - timedelta(minutes=30))
    assert [r.key for r in await service.process_due()] == ["clock.reminder"]
    assert await service.process_due() == []
    assert service.next_timer_at() == deadline + MS


async def test_late_start_sends_only_the_nearest_reminder(
    service: GameService, clock: FakeClock
) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    assert reply.deadline is not None
    clock.set(reply.deadline - timedelta(minutes=10))  # both points have passed
    assert len(await service.process_due()) == 1
    assert await service.process_due() == []


async def test_move_at_the_deadline_counts(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="live:5")
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    clock.set(reply.deadline)
    played = await service.play.move(gid, ALICE, "a1")
    assert played.key == "move.played"
    assert played.deadline == reply.deadline + timedelta(minutes=5)
    assert await service.process_due() == []  # in time: no timeout, bob's reminder not yet due


async def test_timeout_just_after_the_deadline(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="live:5")
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    await service.play.move(gid, ALICE, "a1")
    deadline = reply.deadline  # set at the same fake instant, so bob's is the same
    clock.set(deadline + MS)
    with pytest.raises(Refusal) as exc:
        await service.play.move(gid, BOB, "b1")
    assert exc.value.key == "refuse.game_over"
    due = await service.process_due()
    assert [r.key for r in due] == ["game.timeout"]
    assert due[0].notify == (BOB.id,)
    assert "bob" in due[0].text("en")
    info = await service.play.game_info(gid)
    assert info.status == "finished" and info.result is not None
    assert info.result.termination == "timeout" and info.result.winners == (0,)
    assert await service.process_due() == []
    assert service.next_timer_at() is None


async def test_timeout_by_the_timer_loop(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="live:5")
    assert reply.deadline is not None
    service.timer_changed.clear()
    clock.set(reply.deadline)
    assert [r.key for r in await service.process_due()] == ["clock.reminder"]  # late, once
    clock.advance(MS)
    assert [r.key for r in await service.process_due()] == ["game.timeout"]
    assert service.timer_changed.is_set()


async def test_three_player_timeout_ranks(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "race-test", seated=[BOB, CAROL], clock="live:1")
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    await service.play.move(gid, ALICE, "step")
    clock.advance(minutes=2)
    await service.process_due()
    info = await service.play.game_info(gid)
    assert info.result is not None and info.result.ranks == (1, 3, 1)


async def test_solitaire_timeout_is_a_loss(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "race-test", players=1, clock="live:1")
    gid = reply.game_id
    assert gid is not None
    clock.advance(minutes=2)
    await service.process_due()
    assert (await service.play.stats(ALICE)).lines[0].params["losses"] == 1


async def test_setup_timeout(service: GameService, clock: FakeClock) -> None:
    one = await service.play.create_game(
        ALICE, "ttt-test", seated=[BOB], options={"setup": "on"}, clock="live:5"
    )
    none = await service.play.create_game(
        ALICE, "ttt-test", seated=[BOB], options={"setup": "on"}, clock="live:5"
    )
    assert one.game_id is not None and none.game_id is not None
    await service.play.setup(one.game_id, BOB, "s1")
    clock.advance(minutes=6)
    due = await service.process_due()
    assert sorted(r.game_id or 0 for r in due if r.key == "game.timeout") == [
        one.game_id,
        none.game_id,
    ]
    first = await service.play.game_info(one.game_id)
    assert first.result is not None and first.result.winners == (1,)  # alice never sent hers
    void = await service.play.game_info(none.game_id)
    assert void.status == "aborted"


async def test_time_bank(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="bank:10m+1m/12m")
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    start = clock.now()
    assert reply.deadline == start + timedelta(minutes=10)
    clock.advance(minutes=3)
    played = await service.play.move(gid, ALICE, "a1")
    info = await service.play.game_info(gid)
    assert info.seats[0].bank_ms == 8 * 60_000  # 10 - 3 + 1
    assert played.deadline == clock.now() + timedelta(minutes=10)  # bob's bank
    clock.advance(seconds=10)
    await service.play.move(gid, BOB, "b1")
    assert (await service.play.game_info(gid)).seats[1].bank_ms == 650_000  # 10m - 10s + 1m
    for seat, move in ((0, "c1"), (1, "b2"), (0, "b3"), (1, "a2")):
        await service.play.move(gid, (ALICE, BOB)[seat], move)  # at once: +1m each
    info = await service.play.game_info(gid)
    assert info.seats[0].bank_ms == 10 * 60_000
    assert info.seats[1].bank_ms == 12 * 60_000  # capped (12m50s)
    clock.advance(minutes=10)
    assert [r.key for r in await service.process_due()] == ["clock.reminder"]
    clock.advance(MS)
    assert [r.key for r in await service.process_due()] == ["game.timeout"]


async def test_deadline_change_wakes_the_loop(service: GameService) -> None:
    service.timer_changed.clear()
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="live:5")
    assert service.timer_changed.is_set()
    service.timer_changed.clear()
    assert reply.game_id is not None
    await service.play.move(reply.game_id, ALICE, "a1")
    assert service.timer_changed.is_set()


async def test_time_bank_at_a_secret_step(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(
        ALICE, "ttt-test", seated=[BOB], options={"setup": "on"}, clock="bank:10m+1m/30m"
    )
    gid = reply.game_id
    assert gid is not None and reply.deadline is not None
    start = clock.now()
    clock.advance(minutes=4)
    _, public = await service.play.setup(gid, ALICE, "s1")
    info = await service.play.game_info(gid)
    assert info.seats[0].bank_ms == 7 * 60_000  # 10 - 4 + 1
    assert public.deadline == start + timedelta(minutes=10)  # bob's bank, from the step's start
    clock.advance(minutes=3)
    _, revealed = await service.play.setup(gid, BOB, "s2")
    info = await service.play.game_info(gid)
    assert info.seats[1].bank_ms == 4 * 60_000  # 10 - 7 + 1
    assert revealed.deadline == clock.now() + timedelta(minutes=7)  # alice's bank now
