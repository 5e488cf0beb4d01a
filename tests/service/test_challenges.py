"""Challenges belong to the service: a seat is kept for each invited user until it lapses."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import Event, GameService, Refusal
from tests.helpers import ALICE, BOB, CAROL, DAVE, offered, snapshot


async def challenge(service: GameService, *invited: object, **kw: object) -> int:
    reply = await service.play.create_game(ALICE, "ttt-test", invite=invited, **kw)  # type: ignore[arg-type]
    assert reply.game_id is not None
    assert reply.event is Event.CREATED and reply.key == "challenge.created"
    assert offered(reply) == ("accept", "decline")
    assert reply.notify == tuple(u.id for u in invited)  # type: ignore[attr-defined]
    return reply.game_id


async def test_only_the_invited_player_takes_the_seat(service: GameService, db_path: str) -> None:
    gid = await challenge(service, BOB)
    before = snapshot(db_path)
    with pytest.raises(Refusal) as exc:
        await service.play.join(gid, CAROL)
    assert exc.value.key == "refuse.not_invited"
    assert "invited" in exc.value.text("en") and "招待" in exc.value.text("ja")
    assert snapshot(db_path) == before  # the refusal wrote nothing
    started = await service.play.join(gid, BOB)
    assert started.event is Event.STARTED
    seats = (await service.play.game_info(gid)).seats
    assert [s.user_id for s in seats] == [ALICE.id, BOB.id]


async def test_decline_withdraws_for_everyone(service: GameService) -> None:
    gid = await challenge(service, BOB)
    with pytest.raises(Refusal) as exc:
        await service.play.decline(gid, CAROL)
    assert exc.value.key == "refuse.not_invited"
    declined = await service.play.decline(gid, BOB)
    assert declined.event is Event.CANCELLED and "bob declined" in declined.text("en")
    assert declined.notify == () and offered(declined) == ("board", "moves", "record")
    assert (await service.play.game_info(gid)).status == "cancelled"
    with pytest.raises(Refusal) as late:
        await service.play.join(gid, BOB)
    assert late.value.key == "refuse.already_started"


async def test_a_lobby_seat_beside_a_kept_one(service: GameService) -> None:
    """Three seats, one kept for bob: anyone may take the other; bob's stays his."""
    reply = await service.play.create_game(ALICE, "race-test", invite=[BOB], open_seats=1)
    gid = reply.game_id
    assert gid is not None
    joined = await service.play.join(gid, CAROL)
    assert joined.event is Event.JOINED
    with pytest.raises(Refusal) as exc:
        await service.play.join(gid, DAVE)
    assert exc.value.key == "refuse.not_invited"
    assert (await service.play.join(gid, BOB)).event is Event.STARTED


async def test_challenge_lapses_and_the_timers_say_so(
    service: GameService, clock: FakeClock
) -> None:
    gid = await challenge(service, BOB)
    assert service.next_timer_at() is not None
    clock.advance(hours=23)
    assert await service.process_due() == []
    clock.advance(hours=2)
    (expired,) = await service.process_due()
    assert expired.event is Event.CANCELLED and expired.game_id == gid
    assert expired.key == "challenge.expired"
    assert (await service.play.game_info(gid)).status == "cancelled"
    assert service.next_timer_at() is None
    with pytest.raises(Refusal):
        await service.play.join(gid, BOB)


async def test_accept_after_the_deadline_withdraws(service: GameService, clock: FakeClock) -> None:
    gid = await challenge(service, BOB)
    clock.advance(hours=25)
    late = await service.play.join(gid, BOB)  # before the timers ran
    assert late.event is Event.CANCELLED and late.key == "challenge.expired"
    assert (await service.play.game_info(gid)).status == "cancelled"


async def test_expiry_survives_a_restart(fakes: None, clock: FakeClock, db_path: str) -> None:
    settings = Settings(db_path=db_path)
    first = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        gid = await challenge(first, BOB)
    finally:
        await first.close()
    clock.advance(hours=25)
    second = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        (expired,) = await second.process_due()
        assert expired.game_id == gid and expired.key == "challenge.expired"
    finally:
        await second.close()


async def test_no_player_twice(service: GameService) -> None:
    for invite in ([ALICE], [BOB, BOB]):
        with pytest.raises(Refusal) as exc:
            await service.play.create_game(ALICE, "ttt-test", invite=invite)
        assert exc.value.key == "refuse.same_player_twice"
