"""Vacations that hold (issue 45, 1-3): a game that starts while its first player is away
starts with its clock stopped; a process that dies inside ``/vacation off`` loses the player no
time; a vacation over New Year charges each year its own days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock, to_ms
from bot.config import Settings
from bot.model import VacationRow
from bot.service import GameService
from bot.service.correspond import vacation_rules as rules
from bot.service.correspond.vacation import Vacations
from tests.helpers import ALICE, BOB, stored_row

H = timedelta(hours=1)


async def _deadline(service: GameService, gid: int) -> tuple[int | None, int | None]:
    row = await stored_row(service.ctx.store, gid)
    assert row is not None
    return row.deadline_ms, row.paused_ms


async def test_a_game_made_running_while_its_first_player_is_away_starts_stopped(
    service: GameService, clock: FakeClock
) -> None:
    await service.correspond.start_vacation(ALICE)
    made = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:1")
    gid = made.game_id
    assert gid is not None
    deadline, paused = await _deadline(service, gid)
    assert paused == to_ms(clock.now()) and deadline is not None
    assert any(line.key == "vacation.paused_open" for line in made.lines)  # its first message
    clock.advance(timedelta(days=2))  # past its one day: no reminder, no timeout
    assert [r for r in await service.process_due() if r.game_id == gid] == []
    _, back = await service.correspond.end_vacation(ALICE)
    assert back.game_id == gid and back.key == "vacation.ended_back"
    assert await _deadline(service, gid) == (deadline + to_ms(clock.now()) - paused, None)
    status = await service.correspond.vacation_status(ALICE)
    assert status.params["days"] == "0.5"  # January's 2.5 days less the two held


async def test_a_game_made_while_the_second_player_is_away_runs_until_it_is_their_turn(
    service: GameService, clock: FakeClock
) -> None:
    await service.correspond.start_vacation(BOB)
    made = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    assert made.game_id is not None
    assert (await _deadline(service, made.game_id))[1] is None  # alice is to move: it runs
    await service.play.move(made.game_id, ALICE, "a1")
    assert (await _deadline(service, made.game_id))[1] == to_ms(clock.now())  # bob's: stopped


class Killed(BaseException):
    """The process dies here (nothing after it runs; nothing is cleaned up)."""


async def test_a_kill_inside_vacation_off_loses_the_player_no_time(
    fakes: None, clock: FakeClock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(db_path=db_path)
    first = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        made = await first.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
        gid = made.game_id
        assert gid is not None
        deadline, _ = await _deadline(first, gid)
        assert deadline is not None
        clock.advance(H)  # alice used one hour of her turn
        await first.correspond.start_vacation(ALICE)
        clock.advance(10 * H)

        async def die(*args: object) -> None:
            raise Killed

        with monkeypatch.context() as patch:
            patch.setattr(Vacations, "_run_again", die)
            with pytest.raises(Killed):
                await first.correspond.end_vacation(ALICE)  # the end is stored, the clock not
        off_at = to_ms(clock.now())
    finally:
        await first.close()
    clock.advance(9 * H)  # down for nine hours
    second = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        # the clock runs again from the moment she came back: she has used one hour, not ten
        after, paused = await _deadline(second, gid)
        assert paused is None and after == deadline + 10 * 3_600_000
        assert after - off_at == deadline - to_ms(datetime(2026, 1, 1, 1, tzinfo=UTC))
        row = await second.ctx.store.vacation(ALICE.id)
        assert row is not None and row.since_ms is None and row.used_ms == 10 * 3_600_000
        assert not second.correspond.vacations.is_away(ALICE.id)
        pending = [r for r in await second.pending_announcements() if r.game_id == gid]
        assert "vacation.ended_back" in [r.key for r in pending]  # its thread is told
    finally:
        await second.close()


def test_a_vacation_over_new_year_charges_each_year_its_own_hours() -> None:
    dec29 = to_ms(datetime(2026, 12, 29, tzinfo=UTC))
    jan1 = to_ms(datetime(2027, 1, 1, tzinfo=UTC))
    jan2 = to_ms(datetime(2027, 1, 2, tzinfo=UTC))
    held = VacationRow("u", dec29, to_ms(datetime(2027, 1, 3, tzinfo=UTC)), 2026, 0, dec29)
    back = rules.release(held, jan2)
    assert back.year == 2027 and back.used_ms == 24 * rules.HOUR_MS  # 1 January only
    assert rules.left_ms(back, 30, jan2) == int(2.5 * rules.DAY_MS) - 24 * rules.HOUR_MS
    assert rules.held_left_ms(held, 30, jan2) == rules.left_ms(back, 30, jan2)
    # December's allowance outlasts the year: from New Year the new year's counts
    assert rules.runs_out_at(held, 30) == jan1 + 60 * rules.HOUR_MS
    # a holding that spends its year before New Year runs out then, as before
    spent = VacationRow("u", dec29, None, 2026, 30 * rules.DAY_MS - 5 * rules.HOUR_MS, dec29)
    assert rules.runs_out_at(spent, 30) == dec29 + 5 * rules.HOUR_MS


async def test_back_on_the_second_of_january_after_new_year_away(
    service: GameService, clock: FakeClock
) -> None:
    clock.set(datetime(2026, 12, 29, tzinfo=UTC))
    made = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:7")
    assert made.game_id is not None
    await service.correspond.start_vacation(ALICE, "2027-01-02")
    clock.set(datetime(2027, 1, 2, tzinfo=UTC))
    ended = await service.process_due()
    assert [r.key for r in ended if r.game_id == made.game_id] == ["vacation.ended_over"]
    row = await service.ctx.store.vacation(ALICE.id)
    assert row is not None and row.year == 2027 and row.used_ms == 24 * rules.HOUR_MS
    again = await service.correspond.start_vacation(ALICE, "12h")  # not refused: 36 h are left
    assert again[0].key == "vacation.on"


async def test_the_notices_say_it_once_and_ping_only_who_needs_it(
    service: GameService, clock: FakeClock
) -> None:
    """Issue 52: the stopped notice said "on vacation" twice, and "Bob is back" pinged Bob."""
    made = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    assert made.game_id is not None
    _, stopped = await service.correspond.start_vacation(ALICE, "2026-01-03")
    for lang in ("en", "ja"):
        said = stopped.text(lang)
        assert said.count("alice") == 1, said
    assert stopped.notify == ()
    _, back = await service.correspond.end_vacation(ALICE)  # she typed it: no ping for her
    assert back.key == "vacation.ended_back" and back.notify == ()
    await service.correspond.start_vacation(ALICE, "2026-01-02")
    clock.set(datetime(2026, 1, 2, 1, tzinfo=UTC))
    over = [r for r in await service.process_due() if r.game_id == made.game_id]
    assert [r.key for r in over] == ["vacation.ended_over"] and over[0].notify == (ALICE.id,)
