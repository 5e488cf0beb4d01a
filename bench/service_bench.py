"""Service throughput: "play a move" (parse, validate, persist, render) with 1,000 active games in
one SQLite file, and the time to rebuild a 300-ply game from its log.

Uses 六面体 (rokumentai) with its real renderer when it is registered, else the service tests'
noughts and crosses. Prints a table; asserts nothing. Goal on a 2-core machine: p99 under 100 ms
including the render, and at least 200 moves/s sustained.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.table import p50_p99, print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, User
from engines.core import SIMULTANEOUS
from engines.record import Entry, Record
from engines.registry import all_games

GAMES = 1000
MOVES = 2000
REBUILD_PLIES = 300
USERS = (User("1", "alice"), User("2", "bob"))


def _pick_game() -> str:
    ids = {g.id for g in all_games()}
    if "rokumentai" in ids:
        return "rokumentai"
    from tests.service import fakegame

    class _Patch:
        def setattr(self, obj: Any, name: str, value: Any) -> None:
            setattr(obj, name, value)

    fakegame.install(_Patch())
    return "ttt-test"


def _pair(i: int) -> tuple[User, User]:
    """The two players of the i-th game (2,000 users, so the per-user limit is not reached)."""
    return User(f"b{i}", f"black{i}"), User(f"w{i}", f"white{i}")


async def _setup(db: str, game_type: str) -> list[int]:
    service = await GameService.open(
        db, clock=FakeClock(), settings=Settings(db_path=db), render_images=False
    )
    ids = []
    try:
        for i in range(GAMES):
            black, white = _pair(i)
            reply = await service.create_game(black, game_type, seated=[white], clock="corr:3")
            assert reply.game_id is not None
            ids.append(reply.game_id)
    finally:
        await service.close()
    return ids


async def _play(
    db: str, game_type: str, ids: list[int], concurrency: int, cache: int, sync: str
) -> tuple[float, list[float], int]:
    """Play MOVES moves round-robin over the games; returns (seconds, latencies, new games)."""
    settings = Settings(db_path=db, state_cache_size=cache, sqlite_synchronous=sync)
    service = await GameService.open(db, clock=FakeClock(), settings=settings)
    rng = random.Random(1)
    latencies: list[float] = []
    queue = list(ids)
    replaced = 0

    async def one(gid: int) -> int:
        """One move in game ``gid``: timed from the request (cold games are loaded and
        replayed) to the reply with its picture."""
        nonlocal replaced
        t0 = time.perf_counter()
        info = await service.game_info(gid)  # loads and replays the game if it is not cached
        users = tuple(User(s.user_id or "", s.name or "") for s in info.seats)
        if info.status != "active":
            reply = await service.create_game(users[0], game_type, seated=[users[1]])
            assert reply.game_id is not None
            replaced += 1
            return reply.game_id
        state = service.current_state(gid)
        assert state is not None
        seat = state.acting_players()[0]
        move = state.format_move(rng.choice(state.legal_moves(seat)))
        if state.current_player() == SIMULTANEOUS:
            await service.setup(gid, users[seat], move)
        else:
            await service.play(gid, users[seat], move)
        latencies.append(time.perf_counter() - t0)
        return gid

    start = time.perf_counter()
    try:
        while len(latencies) < MOVES:
            batch, queue = queue[:concurrency], queue[concurrency:]
            done = await asyncio.gather(*(one(g) for g in batch))
            queue += done
    finally:
        await service.close()
    return time.perf_counter() - start, latencies, replaced


def _long_record(game_type: str) -> Record:
    """A random game of at least REBUILD_PLIES plies (repetition and cap off)."""
    from engines.registry import get_game

    game = get_game(game_type)
    options = {"repetition": "off", "cap": "off"}
    for seed in range(1000):
        rng = random.Random(seed)
        state = game.new_game(None, options)
        entries: list[Entry] = []
        while len(entries) < REBUILD_PLIES and not state.is_over():
            move = rng.choice(state.legal_moves())
            entries.append(Entry(state.current_player(), state.format_move(move)))
            state = state.apply(move)
        if len(entries) == REBUILD_PLIES:
            return Record(game.id, 2, game.resolve_options(options), "bench", tuple(entries))
    raise RuntimeError("no long game found")


async def _rebuild(db: str, game_type: str) -> tuple[float, int]:
    record = _long_record(game_type)
    service = await GameService.open(
        db, clock=FakeClock(), settings=Settings(db_path=db), render_images=False
    )
    try:
        reply = await service.import_record(USERS[0], record.to_json(), seats=USERS)
        assert reply.game_id is not None
        times = []
        for _ in range(5):
            service.ctx.games.forget(reply.game_id)  # cold: read the log and replay it
            t0 = time.perf_counter()
            await service.ctx.games.read(reply.game_id)
            times.append(time.perf_counter() - t0)
        return statistics.median(times), len(record.entries)
    finally:
        await service.close()


async def _main() -> list[tuple[str, str]]:
    game_type = _pick_game()
    rows: list[tuple[str, str]] = [("game", game_type)]
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        t0 = time.perf_counter()
        ids = await _setup(db, game_type)
        rows.append((f"create {GAMES} games", f"{time.perf_counter() - t0:.1f} s"))
        for concurrency, cache, sync in (
            (1, 512, "FULL"),
            (1, 2048, "FULL"),
            (8, 2048, "FULL"),
            (1, 2048, "NORMAL"),
            (8, 2048, "NORMAL"),
        ):
            seconds, lat, replaced = await _play(db, game_type, ids, concurrency, cache, sync)
            label = f"{concurrency} at once, cache {cache}, sync {sync}"
            rows.append((label + ": moves/s", f"{len(lat) / seconds:.0f}"))
            rows.append((label + ": p50 / p99", p50_p99(lat)))
            if replaced:
                rows.append((label + ": finished games replaced", str(replaced)))
        seconds, plies = await _rebuild(db, game_type)
        rows.append((f"rebuild a {plies}-ply game from the log", f"{seconds * 1e3:.1f} ms"))
    return rows


def main() -> None:
    print_rows(
        "service benchmark (goal: p99 < 100 ms with the render, >= 200 moves/s)",
        f"{MOVES} moves per row, round-robin over {GAMES} active games in one SQLite file",
        asyncio.run(_main()),
    )


if __name__ == "__main__":
    main()
