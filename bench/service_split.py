"""Where a move's CPU goes: the split printed by ``python -m bench service``.

One process plays moves as the throughput rows do (cached games, eight in flight), twice: once
plain, for the CPU a move costs in all (``time.process_time``: every thread) and on the event
loop's thread alone (``time.thread_time``); once under cProfile with the thread's CPU clock as
its timer, for how the loop thread's share divides between the layers (by the module each
function lives in). The profile's proportions are scaled to the plain run's figure, since
profiling slows pure-Python code more than C. The picture is drawn in a worker thread: its
CPU is counted as it is drawn (``render.render_png`` wrapped to read the thread's clock); the
rest of the other threads' CPU (the SQLite connection's thread) is what is left.
"""

from __future__ import annotations

import asyncio
import cProfile
import functools
import multiprocessing
import pstats
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, User
from engines.core import SIMULTANEOUS
from engines.registry import get_game

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("parse + apply (engines)", ("/engines/",)),
    ("store: SQL and its driver", ("/bot/store", "aiosqlite", "psycopg", "sqlite3")),
    ("cache + outbox", ("/bot/service/cache.py", "/bot/service/outbox.py")),
    (
        "reply building + JSON",
        ("/bot/service/present.py", "/bot/service/values.py", "/bot/i18n.py", "/json/"),
    ),
    ("logging", ("/logging/",)),
    (
        "event loop + thread hops",
        (
            "/asyncio/",
            "selectors.py",
            "threading.py",
            "/concurrent/",
            "queue.py",
            "<method 'put",
            "<method 'recv'",
            "<method 'send'",
            "<method 'poll'",
            "contextvars",
        ),
    ),
    ("other service code (bot/)", ("/bot/",)),
    ("the benchmark's own driver", ("/bench/",)),
)
OTHER = "other (builtins, dataclasses, ...)"


def layer_of(where: str) -> str:
    for name, marks in LAYERS:
        if any(m in where for m in marks):
            return name
    return OTHER


@dataclass(frozen=True)
class Split:
    moves: int
    cpu_ms: float
    """All threads, per move."""
    loop_ms: float
    """The event loop's thread, per move."""
    picture_ms: float
    """The pictures of the plain run, per move, as the worker threads drew them."""
    layers: dict[str, float]
    """The loop thread's ms per move by layer (scaled to ``loop_ms``)."""


async def play_one(
    service: GameService, gid: int, game_type: str, rng: random.Random
) -> tuple[int, bool]:
    """A random legal move in game ``gid`` (loaded and replayed if it is not cached); a game
    that is over is replaced by a new one between the same players. Returns the game to play
    next and whether a move was played."""
    info = await service.play.game_info(gid)
    users = tuple(User(s.user_id or "", s.name or "") for s in info.seats)
    if info.status != "active":
        reply = await service.play.create_game(users[0], game_type, seated=[users[1]])
        assert reply.game_id is not None
        return reply.game_id, False
    state = service.play.current_state(gid)
    assert state is not None
    seat = state.acting_players()[0]
    move = state.format_move(rng.choice(state.legal_moves(seat)))
    if state.current_player() == SIMULTANEOUS:
        await service.play.setup(gid, users[seat], move)
    else:
        await service.play.move(gid, users[seat], move)
    return gid, True


class _PictureClock:
    """The CPU the worker threads spend in ``render.render_png`` (wraps it for this process)."""

    def __init__(self) -> None:
        import render

        self.seconds = 0.0
        self._lock = threading.Lock()
        inner = render.render_png

        @functools.wraps(inner)
        def timed(*args: Any, **kwargs: Any) -> bytes:
            t0 = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                with self._lock:
                    self.seconds += time.thread_time() - t0

        render.render_png = timed


async def _play(
    db: str, game_type: str, ids: list[int], moves: int, settings: Callable[[str], Settings]
) -> tuple[float, float, float, Counter[str]]:
    pictures = _PictureClock()
    service = await GameService.open(db, clock=FakeClock(), settings=settings(db))
    await service.warm_up_pictures()
    rng = random.Random(7)
    queue = list(ids)

    async def one(gid: int) -> int:
        return (await play_one(service, gid, game_type, rng))[0]

    async def run(count: int) -> int:
        nonlocal queue
        played = 0
        while played < count:
            batch, queue = queue[:8], queue[8:]
            queue += await asyncio.gather(*(one(g) for g in batch))
            played += len(batch)
        return played

    try:
        await run(len(ids))  # every game read once: the cache is warm, as in steady play
        c0, t0, p0 = time.process_time(), time.thread_time(), pictures.seconds
        played = await run(moves)
        cpu, loop = time.process_time() - c0, time.thread_time() - t0
        drawn = pictures.seconds - p0
        profile = cProfile.Profile(time.thread_time)
        profile.enable()
        profiled = await run(moves)
        profile.disable()
    finally:
        await service.close()
    by_layer: Counter[str] = Counter()
    stats: Any = pstats.Stats(profile).stats  # type: ignore[attr-defined]  # (not in the stubs)
    for (path, line, name), (_, _, own, _, _) in stats.items():
        by_layer[layer_of(f"{path}:{line}:{name}")] += own / profiled
    return cpu / played, loop / played, drawn / played, by_layer


def _worker(db: str, game_type: str, ids: list[int], moves: int, settings: Any, out: Any) -> None:
    get_game(game_type)
    cpu, loop, picture, layers = asyncio.run(_play(db, game_type, ids, moves, settings))
    total = sum(layers.values()) or 1.0
    scaled = {k: loop * 1e3 * v / total for k, v in layers.items()}
    out.put(Split(moves, cpu * 1e3, loop * 1e3, picture * 1e3, scaled))


def measure(
    db: str, game_type: str, ids: list[int], moves: int, settings: Callable[[str], Settings]
) -> Split:
    """The split of ``moves`` moves over ``ids`` (in a process of its own)."""
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_worker, args=(db, game_type, ids, moves, settings, out))
    proc.start()
    split: Split = out.get()
    proc.join()
    return split


def print_split(name: str, split: Split) -> None:
    threads = max(0.0, split.cpu_ms - split.loop_ms - split.picture_ms)
    ratio = split.cpu_ms / split.picture_ms if split.picture_ms else float("nan")
    print(
        f"  {name}: {split.cpu_ms:.2f} ms of CPU a move ({1e3 / split.cpu_ms:.0f} moves/s a "
        f"core), {ratio:.1f}x its picture ({split.picture_ms:.2f} ms; goal: at most 2x)"
    )
    rows = sorted(split.layers.items(), key=lambda kv: -kv[1])
    rows.append(("the picture (a worker thread)", split.picture_ms))
    rows.append(("other threads (SQLite's connection; executors)", threads))
    for layer, ms in rows:
        print(f"    {layer:<52} {ms:6.2f} ms  {100 * ms / split.cpu_ms:4.0f}%")
