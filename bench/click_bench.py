"""Click to move (issue 51, 2): a move sent from the site's board (``POST /g/<token>/move``),
from the request to every watching page's update (its server-sent event), beside ``/move``'s
(the service's own call, as the Discord adapter makes it) to the same updates.

One SQLite store, one process, as by default (the site in the service's event loop, pictures
in a worker process); ``GAMES`` running 六面体 games, each watched by ``WATCHERS`` pages (its
two players and a spectator: live-update streams). The watchers are clients in the same
process (an upper bound: their reading shares the loop with the moves)."""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
from aiohttp import web

from bench.table import p50_p99, print_rows
from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, ProcessThinker, User
from bot.web import RateLimit, create_app
from bot.web.app import Bounds

GAMES = 40
WATCHERS = 3
MOVES = 200
"""Moves of each kind (clicked, typed), round-robin over the games."""


class Watched:
    """The version each watcher of each game has seen last, and a wake-up when one moves."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], int] = {}
        self.moved = asyncio.Condition()

    async def watch(self, http: aiohttp.ClientSession, base: str, token: str, n: int) -> None:
        async with http.get(f"{base}/g/{token}/events") as stream:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    async with self.moved:
                        self.seen[(token, n)] = version
                        self.moved.notify_all()

    async def all_past(self, token: str, version: int) -> None:
        """Until every watcher of ``token`` has seen a version past ``version``."""
        async with self.moved:
            await self.moved.wait_for(
                lambda: all(self.seen.get((token, n), -1) > version for n in range(WATCHERS))
            )


async def _round(
    service: GameService,
    games: list[tuple[int, str]],
    watched: Watched,
    move: Callable[[int, str, User, str, int], Awaitable[None]],
    rng: random.Random,
) -> tuple[list[float], list[float]]:
    """``MOVES`` moves by ``move``: each one's answer and its time to every watcher."""
    answered: list[float] = []
    reached: list[float] = []
    turn = 0
    while len(answered) < MOVES:
        gid, token = games[turn % len(games)]
        turn += 1
        info = await service.play.game_info(gid)
        state = service.play.current_state(gid)
        if state is None or info.status != "active":
            continue  # (a random game may end: the others go on)
        seat = state.acting_players()[0]
        user = User(info.seats[seat].user_id or "", info.seats[seat].name or "")
        notation = state.format_move(rng.choice(state.legal_moves(seat)))
        t0 = time.perf_counter()
        await move(gid, token, user, notation, len(await service.play.entries(gid)))
        answered.append(time.perf_counter() - t0)
        await watched.all_past(token, info.version)
        reached.append(time.perf_counter() - t0)
    return answered, reached


async def bench() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "click.db")
        settings = Settings(
            db_path=db, oauth_client_id="bench", oauth_client_secret="bench", web_port=0
        )
        service = await GameService.open(
            db, clock=FakeClock(), settings=settings, thinker=ProcessThinker(1)
        )
        try:
            rows = await _measure(service)
        finally:
            await service.close()
    print_rows(
        f"## Click to move ({GAMES} games, {WATCHERS} pages watching each, SQLite, one process)",
        f"p50 / p99; {MOVES} moves each",
        rows,
    )


async def _measure(service: GameService) -> list[tuple[str, str]]:
    """Both kinds of moves, timed, with the site served and its pages watching."""
    await service.warm_up_pictures()
    bounds = Bounds(streams_per_address=10_000, streams_max=10_000)
    app = create_app(service, limit=RateLimit(rate=1e6, burst=1e6), bounds=bounds)
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    games: list[tuple[int, str]] = []
    sessions: dict[str, tuple[str, str]] = {}
    for i in range(GAMES):
        black, white = User(f"b{i}", f"black{i}"), User(f"w{i}", f"white{i}")
        made = await service.play.create_game(black, "rokumentai", seated=[white])
        assert made.game_id is not None
        games.append((made.game_id, await service.review.page_token(made.game_id)))
        for user in (black, white):
            opened = await service.review.sign_in(user)
            sessions[user.id] = (opened.secret, opened.user.csrf)
    watched = Watched()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        watchers = [
            asyncio.create_task(watched.watch(http, base, token, n))
            for _, token in games
            for n in range(WATCHERS)
        ]
        for _, token in games:
            await watched.all_past(token, -1)

        async def clicked(gid: int, token: str, user: User, notation: str, ply: int) -> None:
            secret, csrf = sessions[user.id]
            async with http.post(
                f"{base}/g/{token}/move",
                data={"move": notation, "csrf": csrf, "ply": str(ply)},
                headers={"Accept": "application/json"},
                cookies={"banmen_session": secret},
            ) as answer:
                assert answer.status == 200, await answer.text()

        async def typed(gid: int, token: str, user: User, notation: str, ply: int) -> None:
            await service.play.move(gid, user, notation)

        rng = random.Random(5)
        click_answer, click_reach = await _round(service, games, watched, clicked, rng)
        move_answer, move_reach = await _round(service, games, watched, typed, rng)
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
    await runner.cleanup()
    return [
        ("POST /g/<token>/move answered", p50_p99(click_answer)),
        ("POST /g/<token>/move to every watching page", p50_p99(click_reach)),
        ("/move (the service's call) answered", p50_p99(move_answer)),
        ("/move to every watching page", p50_p99(move_reach)),
    ]


def main() -> None:
    asyncio.run(bench())
