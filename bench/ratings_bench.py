"""Ratings at scale: ``/leaderboard`` with 100,000 rated games and 10,000 players in the store.

The games are bulk-inserted straight into SQLite (finished, rated, with results: 80% 六面体
between two players, 20% 三国志三人将棋 between three, in 20 servers, winners drawn by a hidden
strength); then the service's rebuild computes every rating and the history from them (timed),
and the leaderboard use case is called for random pages of each scope. A rated end (a
resignation) is timed too. Prints a table; asserts nothing. Goal: ``/leaderboard`` p99 <= 50 ms.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from bench.table import p50_p99, print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, Scope, User
from bot.store import SqliteStore

GAMES = 100_000
PLAYERS = 10_000
GUILDS = 20
CALLS = 1_000
ENDS = 200
DUEL, TRIO = "rokumentai", "sangokushi"


def _result(ranks: list[int]) -> str:
    winners = [i for i, r in enumerate(ranks) if r == 1] if len(set(ranks)) > 1 else []
    termination = "rule" if winners else "agreement"
    return json.dumps(
        {"termination": termination, "winners": winners, "ranks": ranks, "en": "", "ja": ""}
    )


def _games(rng: random.Random) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Rows of ``games`` and ``seats``: players meet mostly in their own server."""
    strength = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    members = [list(range(g, PLAYERS, GUILDS)) for g in range(GUILDS)]
    games: list[tuple[object, ...]] = []
    seats: list[tuple[object, ...]] = []
    for gid in range(1, GAMES + 1):
        guild = rng.randrange(GUILDS)
        pool = members[guild] if rng.random() < 0.9 else range(PLAYERS)
        trio = rng.random() < 0.2
        users = rng.sample(pool, 3 if trio else 2)
        if not trio and rng.random() < 0.05:
            ranks = [1, 1]
        else:
            play = [strength[u] + rng.gauss(0, 1) for u in users]
            best = max(range(len(users)), key=lambda i: play[i])
            ranks = [1 if i == best else 2 for i in range(len(users))]
        at = 1_700_000_000_000 + gid * 1000
        games.append(
            (gid, TRIO if trio else DUEL, len(users), "{}", "bench", "finished", f"g{guild}",
             "u0", at - 60_000, at - 60_000, at, _result(ranks), 1)
        )  # fmt: skip
        seats += [(gid, i, "human", f"u{u}") for i, u in enumerate(users)]
    return games, seats


async def _fill(db: str) -> tuple[float, float]:
    """Bulk-insert the users and finished games (the store's tables, one transaction)."""
    rng = random.Random(15)
    t0 = time.perf_counter()
    games, seats = _games(rng)
    store = SqliteStore(db, synchronous="NORMAL")
    await store.open()
    try:
        con = store.db
        await con.execute("BEGIN")
        await con.executemany(
            "INSERT INTO users (id, name, updated_ms) VALUES (?, ?, 0)",
            [(f"u{i}", f"player{i}") for i in range(PLAYERS)],
        )
        await con.executemany(
            "INSERT INTO games (id, game_type, players, options, seed, status, guild_id, "
            "creator_id, created_ms, started_ms, finished_ms, result, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        await con.executemany(
            "INSERT INTO seats (game_id, seat, kind, user_id) VALUES (?, ?, ?, ?)", seats
        )
        await con.execute("COMMIT")
    finally:
        await store.close()
    filled = time.perf_counter() - t0
    service = await _service(db)
    try:
        t0 = time.perf_counter()
        reply = await service.compete.rebuild_ratings()
        rebuilt = time.perf_counter() - t0
        assert reply.params["games"] == GAMES, reply.params
    finally:
        await service.close()
    return filled, rebuilt


async def _service(db: str) -> GameService:
    settings = Settings(db_path=db, sqlite_synchronous="NORMAL")
    return await GameService.open(db, clock=FakeClock(), settings=settings, render_images=False)


async def _boards(db: str) -> list[tuple[str, str]]:
    rng = random.Random(1)
    service = await _service(db)
    rows: list[tuple[str, str]] = []
    try:
        for scope in (Scope.GLOBAL, Scope.SERVER):
            for game in (DUEL, TRIO):
                first = await service.compete.leaderboard(game, "g0", scope)
                assert first.page is not None
                pages, players = first.page.count, first.params["players"]
                latencies = []
                for _ in range(CALLS):
                    page = 1 if rng.random() < 0.5 else rng.randint(1, pages)
                    guild = f"g{rng.randrange(GUILDS)}"
                    t0 = time.perf_counter()
                    await service.compete.leaderboard(game, guild, scope, page)
                    latencies.append(time.perf_counter() - t0)
                label = f"/leaderboard {game} {scope.value} ({players} players, {pages} pages)"
                rows.append((label + ": p50 / p99", p50_p99(latencies, 2)))
        latencies = []
        for _ in range(ENDS):
            a, b = rng.sample(range(PLAYERS), 2)
            reply = await service.play.create_game(
                User(f"u{a}", "a"), DUEL, seated=[User(f"u{b}", "b")]
            )
            assert reply.game_id is not None
            t0 = time.perf_counter()
            await service.play.resign(reply.game_id, User(f"u{b}", "b"))
            latencies.append(time.perf_counter() - t0)
        rows.append(("a rated end (resign, no picture): p50 / p99", p50_p99(latencies, 2)))
    finally:
        await service.close()
    return rows


async def _main() -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "ratings.db")
        filled, rebuilt = await _fill(db)
        rows = [
            (f"bulk-insert {GAMES} finished games, {PLAYERS} players", f"{filled:.1f} s"),
            (f"rebuild every rating from the {GAMES} games", f"{rebuilt:.1f} s"),
        ]
        return rows + await _boards(db)


def main() -> None:
    print_rows(
        "ratings benchmark (goal: /leaderboard p99 <= 50 ms)",
        f"{CALLS} calls per row: half first pages, half random pages, random servers",
        asyncio.run(_main()),
    )


if __name__ == "__main__":
    main()
