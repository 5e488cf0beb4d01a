"""Issue 45, 4: the digests of many users due in the same hour. A user's games come from an
index (not a look at every live game); the digests are a kind of the outbox, each written with
its mark and handed out a batch a turn of the delivery loop (after the games' announcements, and
never in the way of a reminder or a timeout), so a kill loses none and doubles none."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.clock import FakeClock, to_ms
from bot.service import Event, GameService, User
from bot.service.outbox import Kind
from bot.store import SqlStore
from tests.helpers import ALICE, BOB, digests, open_service

PEOPLE = 30


async def _many(service: GameService, clock: FakeClock) -> list[str]:
    """``PEOPLE`` users with a digest at 09:00 UTC, paired in games; the first of each pair is to
    move (the others have nothing to be told): those users, sorted."""
    clock.set(datetime(2026, 1, 1, 1, tzinfo=UTC))
    people = [User(f"p{i:02d}", f"p{i:02d}") for i in range(PEOPLE)]
    for i in range(0, PEOPLE, 2):
        await service.play.create_game(
            people[i], "ttt-test", seated=[people[i + 1]], clock="corr:3"
        )
    for person in people:
        await service.correspond.configure_notices(person, digest=True, hour=9, timezone="UTC")
    assert await digests(service) == []
    return sorted(p.id for p in people[::2])


async def test_many_digests_come_a_batch_a_turn_each_once(
    service: GameService, clock: FakeClock
) -> None:
    movers = await _many(service, clock)
    clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
    told: list[str] = []
    turns = 0
    notices = service.correspond.notices
    while (due := notices.next_due_ms()) is not None and due <= to_ms(clock.now()):
        got = await service.outbox.pending(limit=4, kind=Kind.DIGEST)
        assert len(got) <= 4  # a batch a turn of the delivery loop (empty ones: marks alone)
        for reply in got:
            assert reply.event is Event.DIGEST and reply.outbox is not None
            told.append(reply.audience or "")
            await service.announced(reply.outbox)
        turns += 1
    assert sorted(told) == movers and turns >= len(movers) // 4  # each once, none lost
    clock.set(datetime(2026, 1, 1, 23, tzinfo=UTC))
    assert await digests(service) == []


async def test_a_games_announcements_go_before_the_digests(
    service: GameService, clock: FakeClock
) -> None:
    await _many(service, clock)
    clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
    for posted in await service.pending_announcements(kind=Kind.GAME):  # the games' starts
        assert posted.outbox is not None
        await service.announced(posted.outbox)
    made = await service.play.create_game(ALICE, "ttt-test", seated=[BOB])
    assert made.game_id is not None
    moved = await service.play.move(made.game_id, ALICE, "a1")
    assert moved.outbox is not None
    await service.announcement_failed(moved.outbox)  # its post failed: handed out again
    clock.advance(seconds=10)
    first = await service.outbox.pending(limit=3)
    assert first[0].outbox == moved.outbox and first[0].game_id == made.game_id
    assert [r.event for r in first[1:]] == [Event.DIGEST, Event.DIGEST]


class Killed(BaseException):
    """The process dies here (nothing after it runs; nothing is cleaned up)."""


async def test_a_kill_loses_no_digest_and_doubles_none(
    fakes: None, clock: FakeClock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process is killed again and again while the digests go out: before a batch's marks
    are written, right after they are written, and after a digest was sent but before that was
    noted. Every user is told exactly once: what was written is handed out after the restart,
    and the adapter finds what it had sent already (as it looks in the direct messages)."""
    first = await open_service(db_path, clock)
    try:
        movers = await _many(first, clock)
    finally:
        await first.close()
    clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
    sent: list[str] = []  # the keys in the users' direct messages
    original = SqlStore.write_digests
    for life in range(12):
        service = await open_service(db_path, clock)
        mode = ("before", "after", "sent")[life % 3]

        async def dying(
            self: SqlStore, marks: Sequence[tuple[str, int, str | None]], mode: str = mode
        ) -> None:
            if mode == "after":
                await original(self, marks)
            raise Killed

        try:
            with monkeypatch.context() as patch:
                if mode != "sent":
                    patch.setattr(SqlStore, "write_digests", dying)
                got = await service.outbox.pending(limit=3, kind=Kind.DIGEST)
                keys = [reply.outbox for reply in got if reply.outbox is not None]
                for key in keys:
                    if key not in sent:  # looked first: sent only if not there yet
                        sent.append(key)
                if mode == "sent":
                    raise Killed  # the batch sent, not noted
                await service.announced(*keys)  # the batch noted at once, as the adapter does
        except Killed:
            pass
        finally:
            await service.close()
    last = await open_service(db_path, clock)
    try:
        while got := await last.outbox.pending(limit=5, kind=Kind.DIGEST):
            for reply in got:
                assert reply.outbox is not None
                if reply.outbox not in sent:
                    sent.append(reply.outbox)
                await last.announced(reply.outbox)
    finally:
        await last.close()
    told = sorted(key.split(":")[1] for key in sent)
    assert told == movers  # each mover once: none lost, none doubled


async def test_a_users_games_come_from_the_index(service: GameService) -> None:
    alice, bob, carol = User("a", "A"), User("b", "B"), User("c", "C")
    first = await service.play.create_game(alice, "ttt-test", seated=[bob])
    second = await service.play.create_game(carol, "ttt-test", seated=[alice])
    other = await service.play.create_game(bob, "ttt-test", seated=[carol])
    cache = service.ctx.games
    assert [g for g, _ in cache.live_games("a")] == [second.game_id, first.game_id]
    assert [g for g, _ in cache.live_games("c")] == [other.game_id, second.game_id]
    assert first.game_id is not None
    await service.play.resign(first.game_id, alice)  # over: out of both players' lists
    assert [g for g, _ in cache.live_games("a")] == [second.game_id]
    assert [g for g, _ in cache.live_games("b")] == [other.game_id]
    await cache.restore()  # read again from the store: the same index
    assert [g for g, _ in cache.live_games("a")] == [second.game_id]
    assert [g for g, _ in cache.live_games()] == [other.game_id, second.game_id]


async def test_a_batch_is_noted_delivered_in_one_write(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delivery loop reports its whole batch at once: one write for the batch's digests,
    one for its games' announcements, not one a row."""
    movers = await _many(service, clock)
    clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
    store = service.ctx.store
    calls: list[tuple[str, int]] = []
    for name in ("digests_delivered", "announcements_delivered"):
        original = getattr(store, name)

        async def counted(
            rows: Any, *rest: Any, name: str = name, original: Any = original
        ) -> None:
            calls.append((name, len(rows)))
            await original(rows, *rest)

        monkeypatch.setattr(store, name, counted)
    got = await service.outbox.pending(limit=100)
    games = [r for r in got if r.event is not Event.DIGEST]
    told = [r for r in got if r.event is Event.DIGEST]
    assert sorted(r.audience or "" for r in told) == movers and games
    await service.announced(*(r.outbox or "" for r in got))
    assert sorted(calls) == [
        ("announcements_delivered", len(games)),
        ("digests_delivered", len(movers)),
    ]
    assert await service.outbox.pending(limit=100) == []  # none handed out again


async def test_digests_read_their_games_without_filling_the_memory(
    fakes: None, db_path: str, clock: FakeClock
) -> None:
    """A batch of digests reads its games from one look at the store and does not keep them:
    the games being played stay in memory, and a digest from memory reads as its stored copy
    (the one handed out again after a failed send or a restart)."""
    first = await open_service(db_path, clock)
    try:
        movers = await _many(first, clock)
        for posted in await first.pending_announcements():  # the games' starts
            await first.announced(posted.outbox or "")
    finally:
        await first.close()
    service = await open_service(db_path, clock)
    try:
        held = service.ctx.games.held[0]
        clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
        got = await service.outbox.pending(limit=100, kind=Kind.DIGEST)
        assert sorted(r.audience or "" for r in got) == movers
        assert service.ctx.games.held[0] == held
        for reply in got:
            await service.announcement_failed(reply.outbox or "")
        clock.advance(minutes=5)
        again = {r.audience: r for r in await service.outbox.pending(limit=100, kind=Kind.DIGEST)}
        for reply in got:
            stored = again[reply.audience]
            assert stored.outbox == reply.outbox
            for lang in ("en", "ja"):
                assert stored.text(lang) == reply.text(lang)
    finally:
        await service.close()
