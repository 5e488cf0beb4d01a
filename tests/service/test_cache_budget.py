"""The game cache sized by memory: what a cached game holds (:func:`footprint`), kept within
the budget by dropping the games least recently used, and a dropped game read back whole."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService
from bot.service.footprint import Sizer, footprint
from engines.registry import get_game
from tests.helpers import ALICE, BOB


def test_a_footprint_counts_each_object_once_and_not_what_games_share() -> None:
    row = ["x" * 1000]
    assert footprint(row) >= 1000
    assert footprint([row, row]) < footprint([row, ["x" * 1000 + "y"]])  # shared: once
    game = get_game("rokumentai")
    state = game.new_game(2, {})
    assert footprint(state) < 20_000  # the rules object and its tables are not the state's
    assert footprint(game) == 0
    longer = [["y" * 100] for _ in range(50)]
    assert footprint(longer) > footprint(longer[:10])


@pytest.fixture
async def roomy(clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    settings = Settings(db_path=db_path, state_cache_mb=64)
    svc = await GameService.open(db_path, clock=clock, settings=settings, render_images=False)
    try:
        yield svc
    finally:
        await svc.close()


async def rokumentai(service: GameService) -> int:
    reply = await service.play.create_game(ALICE, "rokumentai", seated=[BOB])
    assert reply.game_id is not None
    return reply.game_id


async def play_randomly(service: GameService, gid: int, plies: int, seed: int) -> None:
    rng = random.Random(seed)
    users = {0: ALICE, 1: BOB}
    for _ in range(plies):
        await service.play.game_info(gid)  # read back from the store if it left memory
        state = service.play.current_state(gid)
        assert state is not None
        if state.is_over():
            return
        seat = state.acting_players()[0]
        move = state.format_move(rng.choice(state.legal_moves(seat)))
        await service.play.move(gid, users[seat], move)  # a refusal would raise


async def test_the_estimate_follows_the_games_footprints(roomy: GameService) -> None:
    cache = roomy.ctx.games
    games = [await rokumentai(roomy) for _ in range(3)]
    for seed in range(3):
        for k, gid in enumerate(games):
            await play_randomly(roomy, gid, 12, 10 * seed + k)
        loaded = [cache.cached(g) for g in games]
        measured = sum(footprint(x) for x in loaded if x is not None)
        assert cache.held == (3, pytest.approx(measured, rel=0.25))
    assert cache.held[1] > 3 * footprint(roomy.play.current_state(games[0]))  # the logs count too


def test_a_sizer_fits_a_base_and_a_size_per_entry() -> None:
    sizer = Sizer(every=1)
    games = [(["s" * 500], [[f"{i:03}" * 40] for i in range(n)]) for n in (0, 10, 40, 5)]
    for state, log in games:
        sizer.estimate("g", (state, log), log)
    short, long = games[3], games[2]
    assert sizer.estimate("g", short, short[1]) < sizer.estimate("g", long, long[1])
    assert sizer.estimate("g", long, long[1]) == pytest.approx(footprint(long), rel=0.1)
    assert Sizer(every=1).estimate("new", long, long[1]) == footprint(long)  # measured: exact


async def test_games_beyond_the_budget_leave_memory_least_recently_used_first(
    roomy: GameService,
) -> None:
    cache = roomy.ctx.games
    first, second = await rokumentai(roomy), await rokumentai(roomy)
    await play_randomly(roomy, first, 6, 1)
    await play_randomly(roomy, second, 6, 2)
    games, held = cache.held
    assert games == 2
    cache.budget = held + held // 4  # room for two games like these, not three
    third = await rokumentai(roomy)
    await play_randomly(roomy, third, 6, 3)
    assert cache.cached(first) is None  # the least recently used
    assert cache.cached(second) is not None and cache.cached(third) is not None
    assert cache.held[1] <= cache.budget
    await play_randomly(roomy, first, 2, 4)  # read back from the store and played on
    loaded = cache.cached(first)
    assert loaded is not None and len(loaded.entries) == 8
    assert cache.cached(second) is None
    assert cache.held[1] <= cache.budget


async def test_one_game_stays_in_memory_whatever_the_budget(roomy: GameService) -> None:
    cache = roomy.ctx.games
    cache.budget = 1
    gid = await rokumentai(roomy)
    await play_randomly(roomy, gid, 3, 5)
    assert cache.held[0] == 1 and cache.cached(gid) is not None
