"""The opening explorer at 100,000 finished games (issue 50): ``/explore``'s latency at the
start position and deeper, beside ``/move``'s on the same store.

The games are synthetic random-legal games of 六面体 (popular moves early, any legal move
later, so the tree is wide at the root and thin below, as a real one), counted into the
explorer table through the store in one bulk write (the counts a real game writes when it
ends, in both pools: every server and its server). Asserts nothing; prints a table.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import time
from typing import Any

from bench import service_split
from bench.table import p50_p99, print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.model import ExplorerCount
from bot.service import GameService, User
from engines.explore import walk
from engines.registry import get_game

GAME = "rokumentai"
GUILD = "bench"
PLIES = (8, 16)
"""A synthetic game's length (random, in this range)."""


def _game(rng: random.Random) -> tuple[list[tuple[int, str]], int]:
    """A random legal game: its log and its winner (-1: drawn)."""
    state: Any = get_game(GAME).new_game()
    log: list[tuple[int, str]] = []
    for ply in range(rng.randint(*PLIES)):
        legal = state.legal_moves()
        if not legal or state.is_over():
            break
        move = rng.choice(legal[:4] if ply < 6 and rng.random() < 0.8 else legal)
        seat = state.current_player()
        log.append((seat, state.format_move(move)))
        state = state.apply(move)
    return log, rng.choice((0, 1, 0, 1, -1))


def _counts(games: int, seed: int = 50) -> tuple[list[ExplorerCount], list[list[str]]]:
    """The explorer's rows for ``games`` synthetic games, merged; and a few of the lines."""
    rng = random.Random(seed)
    start = get_game(GAME).new_game()
    merged: dict[tuple[int, str, str], list[int]] = {}
    lines: list[list[str]] = []
    for i in range(games):
        log, winner = _game(rng)
        if i < 50:
            lines.append([m for _, m in log])
        for step in {(s.key, s.move) for s in walk(GAME, start, log)}:
            for scope in ("", GUILD):
                row = merged.setdefault((step[0], step[1], scope), [0, 0, 0, 0])
                row[0] += 1
                row[1] += winner < 0
                if winner >= 0:
                    row[2 + winner] += 1
    rows = [
        ExplorerCount(GAME, key, move, scope, False, g, d, (w0, w1, 0))
        for (key, move, scope), (g, d, w0, w1) in merged.items()
    ]
    return rows, lines


async def _measure(db: str, games: int) -> list[tuple[str, str]]:
    t0 = time.perf_counter()
    rows, lines = _counts(games)
    made = time.perf_counter() - t0
    service = await GameService.open(
        db, clock=FakeClock(), settings=Settings(db_path=db, max_active_per_guild=10**9)
    )
    out: list[tuple[str, str]] = []
    try:
        t0 = time.perf_counter()
        await service.ctx.store.replace_explorer(rows)
        stored = time.perf_counter() - t0
        out.append(("games / explorer rows", f"{games:,} / {len(rows):,}"))
        out.append(("made / stored", f"{made:.1f} s / {stored:.1f} s"))
        for label, depth in (("/explore start", 0), ("/explore 2 plies", 2), ("/explore 6", 6)):
            times: list[float] = []
            for i in range(300):
                line = " ".join(lines[i % len(lines)][:depth])
                t = time.perf_counter()
                await service.review.explore(GAME, line, GUILD if i % 2 else None)
                times.append(time.perf_counter() - t)
            out.append((label, p50_p99(times)))
        await service.warm_up_pictures()
        rng = random.Random(1)
        ids = []
        for i in range(20):
            a, b = User(f"b{i}", f"b{i}"), User(f"w{i}", f"w{i}")
            reply = await service.play.create_game(a, GAME, seated=[b], guild_id=GUILD)
            assert reply.game_id is not None
            ids.append(reply.game_id)
        times = []
        while len(times) < 300:
            gid = ids[len(times) % len(ids)]
            t = time.perf_counter()
            after, moved = await service_split.play_one(service, gid, GAME, rng)
            if moved:
                times.append(time.perf_counter() - t)
            else:
                ids[ids.index(gid)] = after
        out.append(("/move (with its picture)", p50_p99(times)))
    finally:
        await service.close()
    return out


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = next((int(a.split("=", 1)[1]) for a in args if a.startswith("--games=")), 100_000)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.environ.get("BANMEN_BENCH_PG") or os.path.join(tmp, "explorer.db")
        rows = asyncio.run(_measure(db, games))
    print_rows(
        "explorer benchmark (goal: /explore p99 at /move's p99 or better)",
        "SQLite, one process; p50 / p99 of 300 lookups each",
        rows,
    )


if __name__ == "__main__":
    main()
