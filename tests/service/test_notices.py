"""How a player is told (issue 33): preferences, the daily digest (the right games, once a day
at the user's hour in their time zone), quiet hours and closed direct messages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock, to_ms
from bot.model import NotifyPrefs
from bot.service import GameService, Refusal
from bot.service.correspond import notify_rules as rules
from tests.helpers import ALICE, BOB, CAROL, digests, snapshot


def _ms(*args: int) -> int:
    return to_ms(datetime(*args, tzinfo=UTC))  # type: ignore[misc]


# -- the pure rules --------------------------------------------------------------------------
def test_quiet_hours_in_the_users_own_time() -> None:
    tokyo = NotifyPrefs("u", tz="Asia/Tokyo", quiet_from=22, quiet_to=7)
    assert rules.quiet(tokyo, _ms(2026, 1, 1, 14))  # 23:00 in Tokyo
    assert rules.quiet(tokyo, _ms(2026, 1, 1, 21))  # 06:00
    assert not rules.quiet(tokyo, _ms(2026, 1, 1, 22))  # 07:00
    day = NotifyPrefs("u", quiet_from=9, quiet_to=17)
    assert rules.quiet(day, _ms(2026, 1, 1, 9)) and not rules.quiet(day, _ms(2026, 1, 1, 17))
    assert rules.parse_quiet("22-7") == (22, 7) and rules.parse_quiet("off") is None
    assert rules.parse_quiet("23:00〜6:00") == (23, 6)
    for bad in ("22", "7-7", "25-3", "soon"):
        with pytest.raises(ValueError):
            rules.parse_quiet(bad)


def test_the_digest_is_due_once_a_local_day_at_the_hour() -> None:
    p = NotifyPrefs("u", digest=True, digest_hour=9, tz="Asia/Tokyo")
    assert rules.next_digest_ms(p, _ms(2026, 1, 1, 3)) == _ms(2026, 1, 1, 0)  # due: 09:00 passed
    sent = NotifyPrefs("u", True, True, 9, "Asia/Tokyo", last_digest_ms=_ms(2026, 1, 1, 3))
    assert rules.next_digest_ms(sent, _ms(2026, 1, 1, 10)) == _ms(2026, 1, 2, 0)
    assert rules.next_digest_ms(NotifyPrefs("u"), _ms(2026, 1, 1)) is None  # opt-in
    closed = NotifyPrefs("u", digest=True, dm_closed=True)
    assert rules.next_digest_ms(closed, _ms(2026, 1, 1)) is None


def test_digest_selection() -> None:
    games = [
        rules.DigestGame(1, "active", ("u",), deadline_ms=50),
        rules.DigestGame(2, "active", ("v",), deadline_ms=10),
        rules.DigestGame(3, "active", ("u",), deadline_ms=20),
        rules.DigestGame(4, "finished", finished_ms=100),
        rules.DigestGame(5, "finished", finished_ms=5),
        rules.DigestGame(6, "open", invited=("u",)),
        rules.DigestGame(7, "open", invited=("v",)),
    ]
    digest = rules.select("u", games, since_ms=10)
    assert [g.id for g in digest.turn] == [3, 1]
    assert [g.id for g in digest.ended] == [4]
    assert [g.id for g in digest.challenges] == [6]
    assert rules.select("w", games[:2], None).empty


# -- the service -----------------------------------------------------------------------------
async def test_bad_preferences_change_nothing(service: GameService, db_path: str) -> None:
    before = snapshot(db_path)
    for kwargs, key in (
        ({"timezone": "Mars/Olympus"}, "refuse.notify_tz"),
        ({"quiet": "all day"}, "refuse.notify_quiet"),
        ({"hour": 24}, "refuse.notify_hour"),
    ):
        with pytest.raises(Refusal) as refused:
            await service.correspond.configure_notices(ALICE, **kwargs)  # type: ignore[arg-type]
        assert refused.value.key == key and refused.value.text("ja")
    assert snapshot(db_path) == before
    shown = await service.correspond.configure_notices(ALICE)
    assert shown.key == "notify.show" and "on" in shown.text("en") and not shown.public


async def test_the_daily_digest(service: GameService, clock: FakeClock) -> None:
    clock.set(datetime(2026, 1, 1, 12, tzinfo=UTC))  # 21:00 in Tokyo: today's 09:00 has passed
    saved = await service.correspond.configure_notices(
        ALICE, digest=True, hour=9, timezone="Asia/Tokyo"
    )
    assert saved.key == "notify.saved"
    clock.advance(minutes=1)
    mine = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    theirs = await service.play.create_game(ALICE, "ttt-test", seated=[BOB], clock="corr:2")
    ended = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert mine.game_id and theirs.game_id and ended.game_id
    await service.play.move(theirs.game_id, ALICE, "a1")
    await service.play.resign(ended.game_id, BOB)
    challenge = await service.play.create_game(CAROL, "ttt-test", invite=[ALICE])
    assert challenge.game_id
    assert not await digests(service)
    nine = datetime(2026, 1, 2, 0, tzinfo=UTC)  # 09:00 in Tokyo
    next_at = await service.next_announcement_at()
    assert next_at is not None and next_at <= nine
    clock.set(nine)
    (digest,) = await digests(service)
    assert digest.audience == ALICE.id and not digest.public
    keys = [(line.key, line.params["id"]) for line in digest.lines]
    assert keys == [
        ("digest.turn", mine.game_id),
        ("digest.ended", ended.game_id),
        ("digest.challenge", challenge.game_id),
    ]
    assert isinstance(digest.lines[0].params["deadline"], datetime)  # <t:…:R> on Discord
    clock.advance(hours=3)
    assert not await digests(service)  # once a day
    clock.set(nine + timedelta(days=1))
    (second,) = await digests(service)
    # nothing ended since; the challenge lapsed after a day unanswered
    assert [line.key for line in second.lines] == ["digest.turn"]


async def test_closed_direct_messages_are_noted_once(
    service: GameService, clock: FakeClock
) -> None:
    await service.correspond.configure_notices(ALICE, digest=True, hour=0)
    await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    clock.advance(days=1)
    assert await digests(service)
    await service.correspond.dm_closed(ALICE.id)
    clock.advance(days=1)
    assert not await digests(service)
    shown = await service.correspond.configure_notices(ALICE)
    assert [line.key for line in shown.lines] == ["notify.dm_closed"]
    await service.correspond.configure_notices(
        ALICE, hour=1
    )  # a change tries direct messages again
    clock.advance(hours=1)
    assert await digests(service)


async def test_pings_follow_the_preferences(service: GameService, clock: FakeClock) -> None:
    reply = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert reply.game_id
    moved = await service.play.move(reply.game_id, ALICE, "a1")
    assert moved.notify == (BOB.id,)
    assert service.correspond.shape(moved) == moved  # defaults: a ping, never silent
    await service.correspond.configure_notices(BOB, quiet="0-6")  # 00:00-06:00 UTC
    quiet = service.correspond.shape(moved)
    assert quiet.notify == (BOB.id,) and quiet.silent
    clock.advance(hours=7)
    assert not service.correspond.shape(moved).silent
    await service.correspond.configure_notices(BOB, ping=False)
    assert service.correspond.shape(moved).notify == ()
