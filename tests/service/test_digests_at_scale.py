"""Issue 45, 4: the digests of many users due in the same hour. A user's games come from an
index (not a look at every live game), and the timers hand the digests out a batch a turn, so a
reminder or a timeout due meanwhile is never held up behind thousands of them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.clock import FakeClock
from bot.service import Event, GameService, User
from bot.service.correspond import notices

PEOPLE = 30


async def test_many_digests_come_a_batch_a_turn_each_once(
    service: GameService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notices, "DIGEST_BATCH", 4)
    clock.set(datetime(2026, 1, 1, 1, tzinfo=UTC))
    people = [User(f"p{i:02d}", f"p{i:02d}") for i in range(PEOPLE)]
    for i in range(0, PEOPLE, 2):
        await service.play.create_game(
            people[i], "ttt-test", seated=[people[i + 1]], clock="corr:3"
        )
    for person in people:
        await service.correspond.configure_notices(person, digest=True, hour=9, timezone="UTC")
    assert [r for r in await service.process_due() if r.event is Event.DIGEST] == []
    clock.set(datetime(2026, 1, 1, 9, 30, tzinfo=UTC))
    told: list[str] = []
    turns = 0
    while (due := service.next_timer_at()) is not None and due <= clock.now():
        got = [r for r in await service.process_due() if r.event is Event.DIGEST]
        assert len(got) <= 4  # a batch a turn of the timers' loop
        told += [r.audience or "" for r in got]
        turns += 1
    movers = sorted(p.id for p in people[::2])  # the others have nothing to be told
    assert sorted(told) == movers and turns >= PEOPLE // 4  # each once, none lost
    clock.set(datetime(2026, 1, 1, 23, tzinfo=UTC))
    assert [r for r in await service.process_due() if r.event is Event.DIGEST] == []


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
