"""The typed seams between the use cases, the cache and the store: a row's :class:`Update`, the
stored result (:class:`StoredOutcome`), and the game cache's indexes behind its methods (one
commit path for created, changed and imported games; places kept only while a game is live or
in memory)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import fields

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.model import (
    UNCHANGED,
    Change,
    Conditional,
    GameRow,
    GameStatus,
    Offer,
    OfferKind,
    OfferMade,
    StoredOutcome,
    Update,
    updated,
)
from bot.service import GameService
from bot.service.cache import Claims
from tests.helpers import ALICE, BOB, CAROL, stored_row, ttt

RESIGNED = StoredOutcome("resignation", (1,), (2, 1), "alice resigned", "aliceさんが投了")
OLD_TEXT = (
    '{"en": "alice resigned", "ja": "aliceさんが投了", "ranks": [2, 1], '
    '"termination": "resignation", "winners": [1]}'
)
"""A result as the host has always stored it (JSON, keys sorted)."""

EVERYTHING = Update(
    status=GameStatus.FINISHED,
    channel_id="c1",
    thread_id="t1",
    message_id="m1",
    started_ms=11,
    finished_ms=12,
    result=RESIGNED,
    turn_started_ms=13,
    deadline_ms=14,
    reminders_sent=(60, 30),
    offer=Offer(OfferKind.DRAW, 0, 3),
    expires_ms=15,
    offers_made=(OfferMade(OfferKind.DRAW, 0, 1), OfferMade(OfferKind.TAKEBACK, 1, 2)),
    paused_ms=16,
    paused_until_ms=17,
    conditional=Conditional(1, (("a1", "b1"),), due="b2"),
    reach="interaction",
)


# --- the row's update -------------------------------------------------------------------------


def test_every_update_field_is_a_game_row_column_of_the_same_type() -> None:
    row_types = {f.name: f.type for f in fields(GameRow)}
    for f in fields(Update):
        assert f.name in row_types, f.name
        assert f.type == f"Settable[{row_types[f.name]}]", f.name
    assert set(EVERYTHING.given()) == {f.name for f in fields(Update)}


def test_an_update_then_another_keeps_what_the_second_leaves_unchanged() -> None:
    first = Update(offer=None, deadline_ms=5)
    both = first | Update(deadline_ms=7, turn_started_ms=1)
    assert both == Update(offer=None, deadline_ms=7, turn_started_ms=1)
    assert Update().given() == {} and Update().status is UNCHANGED
    assert Update(offer=None).given() == {"offer": None}  # None is a value: it clears


async def test_an_update_writes_every_column_it_sets_and_no_other(service: GameService) -> None:
    store = service.ctx.store
    gid = await ttt(service)
    row = await stored_row(store, gid)
    assert row is not None
    await store.apply(Change(gid, row.version, update=EVERYTHING))
    written = await stored_row(store, gid)
    assert written == updated(row, EVERYTHING)
    cleared = Update(channel_id=None, result=None, offer=None, deadline_ms=None)
    await store.apply(Change(gid, row.version + 1, update=cleared))
    assert await stored_row(store, gid) == updated(updated(row, EVERYTHING), cleared)
    await store.apply(Change(gid, row.version + 2))  # nothing set: only the version moves on
    again = await stored_row(store, gid)
    assert again is not None and again.version == row.version + 3
    assert again == updated(updated(updated(row, EVERYTHING), cleared), Update())


# --- the stored result ------------------------------------------------------------------------


def test_a_stored_result_keeps_the_format_it_always_had() -> None:
    assert StoredOutcome.from_json(json.loads(OLD_TEXT)) == RESIGNED
    written = json.dumps(RESIGNED.to_json(), ensure_ascii=False, sort_keys=True)
    assert written == OLD_TEXT


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ([1, 2], "not an object"),
        ({"winners": [], "ranks": [1]}, "'termination'"),
        ({"termination": "rule", "winners": ["0"], "ranks": [1]}, "'winners'"),
        ({"termination": "rule", "winners": [], "ranks": [True]}, "'ranks'"),
        ({"termination": "rule", "winners": [], "ranks": [1], "en": 3}, "'en'"),
    ],
)
def test_one_parser_says_which_part_of_a_result_is_wrong(data: object, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        StoredOutcome.from_json(data)


def test_a_result_fits_a_game_when_every_seat_has_a_place() -> None:
    assert RESIGNED.fits(2)
    assert not RESIGNED.fits(3)  # a place missing
    assert not StoredOutcome("resignation", (2,), (1, 2), "", "").fits(2)  # no such winner


async def test_an_ended_game_reads_back_its_result(service: GameService) -> None:
    gid = await ttt(service)
    await service.play.resign(gid, ALICE)
    row = await stored_row(service.ctx.store, gid)
    assert row is not None and row.result is not None
    assert (row.result.termination, row.result.winners, row.result.ranks) == (
        "resignation",
        (1,),
        (2, 1),
    )


# --- the cache's indexes ----------------------------------------------------------------------


@pytest.fixture
async def small(fakes: None, clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    """A service that keeps one game in memory."""
    settings = Settings(db_path=db_path, state_cache_size=1)
    svc = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        yield svc
    finally:
        await svc.close()


async def test_a_games_place_is_kept_while_it_is_live_or_in_memory(small: GameService) -> None:
    done = await ttt(small)
    await small.play.set_game_location(done, "c1", "t1")
    await small.play.resign(done, ALICE)
    assert small.play.location(done) is not None  # over, but still in memory
    live = await ttt(small)  # pushes the finished game out of memory
    await small.play.set_game_location(live, "c1", "t2")
    assert small.play.location(done) is None
    place = await small.play.place(done)  # read back with the game
    assert place is not None and place.thread_id == "t1"
    await ttt(small)  # pushes the live game out of memory: its place stays
    still = small.play.location(live)
    assert still is not None and still.thread_id == "t2"


async def test_created_and_imported_games_reach_the_listeners(service: GameService) -> None:
    told: list[int] = []
    service.ctx.games.listen(lambda row: told.append(row.id))
    lobby = (await service.play.create_game(CAROL, "ttt-test", open_seats=1)).game_id
    gid = await ttt(service)
    await service.play.move(gid, ALICE, "a1")
    data = next(f for f in (await service.play.record(gid)).files if f.name.endswith(".json"))
    imported = (
        await service.play.import_record(ALICE, data.data.decode(), seats=[ALICE, BOB])
    ).game_id
    assert imported is not None
    assert told == [lobby, gid, gid, imported]
    games = service.ctx.games
    assert [g for g, _ in games.live_games(BOB.id)] == [imported, gid]
    assert BOB.id in games.players(imported) and games.players(10**6) == frozenset()


def test_claims_end_when_their_time_is_up() -> None:
    claims = Claims()
    claims.claim("1.1.0", 100)
    claims.claim("1.2.0", 50)
    assert "1.1.0" in claims and len(claims) == 2 and claims.next_end() == 50
    claims.expire(50)
    assert "1.2.0" not in claims and claims.next_end() == 100
    claims.release("1.1.0")
    assert len(claims) == 0 and claims.next_end() is None
