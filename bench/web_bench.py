"""The web pages: a game's page and a picture's p50/p99 with 10,000 games in the store, and
``/move``'s p50/p99 while the site serves 50 requests a second, and while 200 visitors load
pages at once, each asking again as soon as answered (against the same moves idle; issue 45's
goal: p99 within 2x idle at 200 concurrent page loads).

One SQLite store, one process (the site runs in the service's event loop and pictures are drawn
in a worker process, as in the bot); the load comes from a client in a process of its own (the
visitors are other machines), sending 50 requests a second (pages and pictures) whatever the
answers take, then 200 visitors in closed loops."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import tempfile
import time
from collections.abc import Callable
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event as Stop
from pathlib import Path
from typing import TypeAlias

import aiohttp

from bench.table import p50_p99, print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, ProcessThinker, User
from bot.web import RateLimit, start

GAMES = 10_000
PLAYED = 200
"""Games given a few moves (the pages and pictures asked for are theirs)."""
PLIES = 6
REQUESTS = 400
MOVES = 300
RATE = 50.0
CONCURRENT = 200
"""Visitors loading pages at once in the second load (each a page or a picture, again and
again: a closed loop, so the site's own bounds decide how fast they are answered)."""


Served: TypeAlias = "Synchronized[int]"  # a shared count of the requests answered


async def _fill(db: str, settings: Settings, games: int) -> list[tuple[int, str]]:
    """``games`` running games with a page each; the first ``PLAYED`` have ``PLIES`` moves
    (written without pictures, as a store filled over time)."""
    service = await GameService.open(db, clock=FakeClock(), settings=settings, render_images=False)
    try:
        return await _filled(service, games)
    finally:
        await service.close()


async def _filled(service: GameService, games: int) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for start_at in range(0, games, 32):

        async def one(i: int) -> tuple[int, str]:
            black, white = User(f"b{i}", f"black{i}"), User(f"w{i}", f"white{i}")
            reply = await service.play.create_game(black, "rokumentai", seated=[white])
            assert reply.game_id is not None
            return reply.game_id, await service.review.page_token(reply.game_id)

        out += await asyncio.gather(*(one(i) for i in range(start_at, min(games, start_at + 32))))
    rng = random.Random(1)
    for gid, _ in out[:PLAYED]:
        await _moves(service, gid, PLIES, rng)
    return out


async def _moves(service: GameService, gid: int, count: int, rng: random.Random) -> list[float]:
    """``count`` random moves in ``gid``, each timed (``/move`` as the service answers it)."""
    took = []
    for _ in range(count):
        info = await service.play.game_info(gid)
        if info.status != "active":
            break
        state = service.play.current_state(gid)
        assert state is not None
        seat = state.acting_players()[0]
        user = User(info.seats[seat].user_id or "", info.seats[seat].name or "")
        move = state.format_move(rng.choice(state.legal_moves(seat)))
        t0 = time.perf_counter()
        await service.play.move(gid, user, move)
        took.append(time.perf_counter() - t0)
    return took


async def _timed_gets(base: str, paths: list[str]) -> list[float]:
    out = []
    async with aiohttp.ClientSession() as http:
        for path in paths:
            t0 = time.perf_counter()
            async with http.get(base + path) as got:
                await got.read()
                assert got.status == 200, (path, got.status)
            out.append(time.perf_counter() - t0)
    return out


def _load(base: str, paths: list[str], stop: Stop, served: Served) -> None:
    """(In a process of its own.) ``RATE`` requests a second over ``paths`` until ``stop``,
    each sent on time whether or not the ones before have been answered."""

    async def run() -> None:
        async with aiohttp.ClientSession() as http:

            async def get(path: str) -> None:
                async with http.get(base + path) as got:
                    await got.read()
                with served.get_lock():
                    served.value += 1

            sent: set[asyncio.Task[None]] = set()
            n = 0
            begin = time.perf_counter()
            while not stop.is_set():
                task = asyncio.create_task(get(paths[n % len(paths)]))
                sent.add(task)
                task.add_done_callback(sent.discard)
                n += 1
                await asyncio.sleep(max(0.0, begin + n / RATE - time.perf_counter()))
            await asyncio.gather(*sent)

    asyncio.run(run())


def _crowd(base: str, paths: list[str], stop: Stop, served: Served) -> None:
    """(In a process of its own.) ``CONCURRENT`` visitors, each loading one of ``paths`` after
    another (whatever the answer: a busy site's 503 is an answer too) until ``stop``."""

    async def run() -> None:
        connector = aiohttp.TCPConnector(limit=CONCURRENT)
        async with aiohttp.ClientSession(connector=connector) as http:

            async def visitor(n: int) -> None:
                while not stop.is_set():
                    async with http.get(base + paths[n % len(paths)]) as got:
                        await got.read()
                    with served.get_lock():
                        served.value += 1
                    n += CONCURRENT

            await asyncio.gather(*(visitor(i) for i in range(CONCURRENT)))

    asyncio.run(run())


async def _moves_under(
    service: GameService,
    load: Callable[[str, list[str], Stop, Served], None],
    url: str,
    paths: list[str],
    targets: list[int],
    mover: random.Random,
) -> tuple[list[float], float]:
    """``/move`` timed while ``load`` asks the site from a process of its own (the visitors are
    other machines: a client in this process would take the interpreter's lock from the server
    it measures): the moves and the requests a second the site answered meanwhile."""
    spawn = multiprocessing.get_context("spawn")
    stop, served = spawn.Event(), spawn.Value("q", 0)
    visitors = spawn.Process(target=load, args=(url, paths, stop, served), daemon=True)
    visitors.start()
    while not served.value and visitors.is_alive():  # (a bench may poll: it asserts nothing)
        await asyncio.sleep(0.05)  # the visitors' process is up and answered
    began = time.perf_counter()
    try:
        took = [s for gid in targets for s in await _moves(service, gid, 2, mover)]
    finally:
        stop.set()
        await asyncio.to_thread(visitors.join)
    return took, served.value / (time.perf_counter() - began)


async def bench(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "web.db")
        settings = Settings(db_path=db, max_active_per_guild=10**9, max_active_per_user=10**6)
        t0 = time.perf_counter()
        games = await _fill(db, settings, count)
        filled = time.perf_counter() - t0
        # pictures drawn in a worker process, as the bot draws them
        thinker = ProcessThinker(1)
        service = await GameService.open(db, clock=FakeClock(), settings=settings, thinker=thinker)
        try:
            await service.warm_up_pictures()
            await service.play.warm_up_ai()
            site = await start(service, "127.0.0.1", 0, limit=RateLimit(rate=1e6, burst=1e6))
            try:
                rng = random.Random(2)
                played = games[:PLAYED]
                pages = [f"/g/{rng.choice(games)[1]}" for _ in range(REQUESTS)]
                pictures = [
                    f"/g/{rng.choice(played)[1]}/{rng.randrange(PLIES + 1)}.png"
                    for _ in range(REQUESTS)
                ]
                page_s = await _timed_gets(site.url, pages)
                picture_s = await _timed_gets(site.url, pictures)
                mover = random.Random(3)
                pool = [gid for gid, _ in games[PLAYED:]] or [gid for gid, _ in games]
                targets = [pool[i % len(pool)] for i in range(MOVES // 2)]
                idle = [
                    s for gid in targets[: MOVES // 6] for s in await _moves(service, gid, 2, mover)
                ]
                quarter = MOVES // 6
                busy, rate = await _moves_under(
                    service,
                    _load,
                    site.url,
                    pages + pictures,
                    targets[quarter : 2 * quarter],
                    mover,
                )
                crowded, crowd_rate = await _moves_under(
                    service, _crowd, site.url, pages + pictures, targets[2 * quarter :], mover
                )
            finally:
                await site.stop()
        finally:
            await service.close()
    idle_p99 = sorted(idle)[int(0.99 * len(idle))]
    ratio = sorted(busy)[int(0.99 * len(busy))] / idle_p99
    crowd_ratio = sorted(crowded)[int(0.99 * len(crowded))] / idle_p99
    print_rows(
        f"## Web pages ({count:,} games in the store, SQLite, one process)",
        f"filled in {filled:.0f} s; p50 / p99; {REQUESTS} requests each",
        [
            ("a game's page", p50_p99(page_s)),
            ("a picture (cold and cached)", p50_p99(picture_s)),
            (f"/move idle ({len(idle)} moves)", p50_p99(idle)),
            (f"/move with the site at {rate:.0f} req/s ({len(busy)} moves)", p50_p99(busy)),
            ("/move p99 busy / idle", f"{ratio:.2f}x (goal: within 1.5x)"),
            (
                f"/move with {CONCURRENT} page loads at once, {crowd_rate:.0f} req/s "
                f"({len(crowded)} moves)",
                p50_p99(crowded),
            ),
            ("/move p99 crowded / idle", f"{crowd_ratio:.2f}x (goal: within 2x)"),
        ],
    )


def main(args: list[str]) -> None:
    """``--web-games N``: another number of games in the store (a quick try)."""
    count = GAMES
    if "--web-games" in args:
        count = int(args[args.index("--web-games") + 1])
    asyncio.run(bench(count))
