"""Vacations (issue 33): clocks stand still exactly while an absent player is to move, the
allowance bounds it, a restart keeps it, live games and forbidding servers are left alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock, to_ms
from bot.config import Settings
from bot.model import VacationRow
from bot.service import GameService, Refusal
from bot.service.correspond import vacation_rules as rules
from tests.helpers import ALICE, BOB, CAROL, snapshot, stored_row

H = timedelta(hours=1)


async def _corr(service: GameService, clock: str = "corr:2", **how: object) -> int:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock=clock, **how)  # type: ignore[arg-type]
    assert reply.game_id is not None
    return reply.game_id


async def _row_deadline(service: GameService, gid: int) -> int | None:
    row = await stored_row(service.ctx.store, gid)
    assert row is not None
    return row.deadline_ms


# -- the pure rules --------------------------------------------------------------------------
def test_the_allowance_accrues_monthly_and_is_spent_by_the_hour() -> None:
    jan = to_ms(datetime(2026, 1, 10, tzinfo=UTC))
    dec = to_ms(datetime(2026, 12, 10, tzinfo=UTC))
    assert rules.accrued_ms(30, jan) == int(2.5 * rules.DAY_MS)
    assert rules.accrued_ms(30, dec) == 30 * rules.DAY_MS
    assert rules.charged_ms(1) == rules.HOUR_MS
    assert rules.charged_ms(rules.HOUR_MS) == rules.HOUR_MS
    assert rules.charged_ms(0) == 0
    held = VacationRow("u", jan, None, 2026, used_ms=0, holding_ms=jan)
    assert rules.runs_out_at(held, 30) == jan + 60 * rules.HOUR_MS
    spent = rules.release(held, jan + 90 * 60_000)  # 1 h 30 min held: two hours spent
    assert spent.used_ms == 2 * rules.HOUR_MS and spent.holding_ms is None
    # a new year starts with nothing spent
    assert rules.left_ms(spent, 30, to_ms(datetime(2027, 1, 2, tzinfo=UTC))) == int(
        2.5 * rules.DAY_MS
    )


def test_return_dates() -> None:
    now = to_ms(datetime(2026, 3, 1, tzinfo=UTC))
    assert rules.parse_until("2026-03-05", now) == to_ms(datetime(2026, 3, 5, tzinfo=UTC))
    assert rules.parse_until("2026-03-05 18:30", now) == to_ms(
        datetime(2026, 3, 5, 18, 30, tzinfo=UTC)
    )
    assert rules.parse_until("36h", now) == now + 36 * rules.HOUR_MS
    assert rules.parse_until("3", now) == now + 3 * rules.DAY_MS
    for bad in ("soon", "2026-13-01", "-3d"):
        with pytest.raises(ValueError):
            rules.parse_until(bad, now)


# -- the service -----------------------------------------------------------------------------
async def test_vacation_moves_the_deadline_by_exactly_the_time_away(
    service: GameService, clock: FakeClock
) -> None:
    gid = await _corr(service)
    deadline = await _row_deadline(service, gid)
    assert deadline is not None
    clock.advance(H)
    answer, notice = await service.correspond.start_vacation(ALICE)
    assert answer.key == "vacation.on_open" and not answer.public
    assert notice.key == "vacation.stopped" and notice.game_id == gid and notice.public
    assert "on vacation" in notice.text("en") and notice.deadline is None
    assert service.next_timer_at() == clock.now() + 60 * H  # only the allowance's end is due
    clock.advance(timedelta(hours=10, minutes=7, seconds=3))
    assert await service.process_due() == []  # no reminder, no timeout
    answer, back = await service.correspond.end_vacation(ALICE)
    assert answer.key == "vacation.off" and back.key == "vacation.ended_back"
    moved = (
        deadline
        + to_ms(datetime(2026, 1, 1, 10, 7, 3, tzinfo=UTC))
        - to_ms(datetime(2026, 1, 1, tzinfo=UTC))
    )
    assert await _row_deadline(service, gid) == moved
    assert back.deadline is not None and to_ms(back.deadline) == moved
    # 10 h 7 min held: 11 hours of the allowance spent
    row = await service.ctx.store.vacation(ALICE.id)
    assert row is not None and row.used_ms == 11 * rules.HOUR_MS and row.since_ms is None


async def test_the_opponents_move_starts_a_stopped_turn(
    service: GameService, clock: FakeClock
) -> None:
    gid = await _corr(service)
    await service.play.move(gid, ALICE, "a1")
    (await service.correspond.start_vacation(ALICE, "2026-01-02"))[
        0
    ]  # bob is to move: nothing stops yet
    assert not (await stored_row(service.ctx.store, gid)).paused_ms  # type: ignore[union-attr]
    clock.advance(H)
    moved = await service.play.move(gid, BOB, "b1")
    assert moved.deadline is None
    assert any(line.key == "vacation.paused" for line in moved.lines)
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.paused_ms == to_ms(clock.now())
    listed = await service.play.list_games(BOB)
    assert any(line.key == "vacation.paused" for line in listed.lines)
    # the return date comes: the clock runs again from that very moment
    clock.set(datetime(2026, 1, 2, 5, tzinfo=UTC))
    notices = await service.process_due()
    assert [r.key for r in notices] == ["vacation.ended_over"]
    away = to_ms(datetime(2026, 1, 2, tzinfo=UTC)) - row.paused_ms
    assert await _row_deadline(service, gid) == (row.deadline_ms or 0) + away


async def test_the_allowance_runs_out(service: GameService, clock: FakeClock) -> None:
    gid = await _corr(service, clock="corr:30d")
    deadline = await _row_deadline(service, gid)
    assert deadline is not None
    await service.correspond.start_vacation(ALICE)
    clock.advance(100 * H)  # January holds 2.5 days: 60 hours
    (notice,) = await service.process_due()
    assert notice.key == "vacation.ended_spent" and notice.notify == (ALICE.id,)
    assert await _row_deadline(service, gid) == deadline + 60 * 3_600_000
    with pytest.raises(Refusal) as refused:
        await service.correspond.start_vacation(ALICE)
    assert refused.value.key == "refuse.vacation_none_left"
    # February brings another 2.5 days
    clock.set(datetime(2026, 2, 1, tzinfo=UTC))
    assert (await service.correspond.vacation_status(ALICE)).params["days"] == "2.5"


async def test_bad_return_dates_change_nothing(
    service: GameService, clock: FakeClock, db_path: str
) -> None:
    await _corr(service)
    before = snapshot(db_path)
    for until, key in (
        ("2025-12-31", "refuse.vacation_past"),
        ("10d", "refuse.vacation_allowance"),  # 2.5 days accrued in January
        ("whenever", "refuse.vacation_until"),
    ):
        with pytest.raises(Refusal) as refused:
            await service.correspond.start_vacation(ALICE, until)
        assert refused.value.key == key
        assert refused.value.text("ja")
    with pytest.raises(Refusal) as refused:
        await service.correspond.end_vacation(ALICE)
    assert refused.value.key == "refuse.vacation_not_on"
    assert snapshot(db_path) == before


async def test_live_games_and_forbidding_servers_run_on(
    service: GameService, clock: FakeClock
) -> None:
    live = await _corr(service, clock="live:5")
    await service.play.set_guild_setting("g2", "vacation", "off")
    strict = await _corr(service, guild_id="g2")
    kept = {gid: await _row_deadline(service, gid) for gid in (live, strict)}
    (answer,) = await service.correspond.start_vacation(ALICE)
    assert [line.key for line in answer.lines] == ["vacation.live_runs", "vacation.forbidden_runs"]
    assert "live game" in answer.text("en") and answer.text("ja")
    clock.advance(H)
    for gid, deadline in kept.items():
        row = await stored_row(service.ctx.store, gid)
        assert row is not None and row.paused_ms is None and row.deadline_ms == deadline


async def test_three_players_play_on_while_the_absent_one_waits(
    service: GameService, clock: FakeClock
) -> None:
    reply = await service.play.create_game(
        ALICE, "race-test", seated=[BOB, CAROL], players=3, clock="corr:2", seed="s"
    )
    gid = reply.game_id
    assert gid is not None
    await service.correspond.start_vacation(CAROL)
    for user in (ALICE, BOB):  # not carol's turn: the others play on, their clocks running
        row = await stored_row(service.ctx.store, gid)
        assert row is not None and row.paused_ms is None
        clock.advance(H)
        await service.play.move(gid, user, "step")
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.paused_ms == to_ms(clock.now())  # carol's turn stands still
    clock.advance(5 * H)
    await service.correspond.end_vacation(CAROL)
    assert await _row_deadline(service, gid) == (row.deadline_ms or 0) + 5 * 3_600_000


async def test_a_time_bank_loses_nothing_while_away(service: GameService, clock: FakeClock) -> None:
    gid = await _corr(service, clock="bank:2d+1h/3d")
    clock.advance(H)
    await service.correspond.start_vacation(ALICE)
    clock.advance(20 * H)
    await service.play.move(gid, ALICE, "a1")  # she moves while away: one hour of her bank used
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.paused_ms is None
    assert row.seats[0].bank_ms == (48 - 1 + 1) * 3_600_000


async def test_a_vacation_survives_a_restart(fakes: None, clock: FakeClock, db_path: str) -> None:
    settings = Settings(db_path=db_path)
    first = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        gid = await _corr(first)
        deadline = await _row_deadline(first, gid)
        assert deadline is not None
        clock.advance(H)
        await first.correspond.start_vacation(ALICE, "2026-01-02 12:00")
    finally:
        await first.close()
    clock.set(datetime(2026, 1, 3, tzinfo=UTC))  # the return date passed while it was down
    second = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        assert await second.process_due() != []
        away = to_ms(datetime(2026, 1, 2, 12, tzinfo=UTC)) - to_ms(
            datetime(2026, 1, 1, 1, tzinfo=UTC)
        )
        assert await _row_deadline(second, gid) == deadline + away
        row = await second.ctx.store.vacation(ALICE.id)
        assert row is not None and row.since_ms is None and row.used_ms == 35 * 3_600_000
    finally:
        await second.close()
