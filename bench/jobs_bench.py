"""Heavy work in workers (issue 49, 4): the computer's moves while reviews run, with and without
a worker taking the job queue's work.

Without workers, a process's pool (one slot: ``BANMEN_AI_WORKERS=1``, a 2-core machine's
setting) runs a review's searches in the slot its computer's moves need, so a move asked during
a review waits for it. With the job queue (``BANMEN_JOB_QUEUE=1``) the process queues both, and a
worker with two slots keeps the last free one for moves. Reviews are asked without pause all
along (each a review ply's search: :func:`engines.ai.review.best_line`, ``REVIEW_NODES``
nodes); ``MOVES`` computer moves at level 3 are asked one after another meanwhile. One process
here (the worker in the same event loop, with its own pool) and one SQLite store in a temporary
folder, so the queue's waits are SQLite's polls (PostgreSQL's notifications are quicker)."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from bench.table import p50_p99, print_rows
from bot.config import Settings
from bot.service import GameService, JobWorker, ProcessThinker, QueuedThinker, Thinker
from bot.service.thinking import ThinkRequest
from engines.ai.review import best_line
from engines.core import State
from engines.registry import get_game

MOVES = 30
REVIEW_NODES = 5_000
"""About a second of searching on this machine (a review ply of a long game's)."""
KEY = "bench"


def _position() -> State[Any]:
    state: State[Any] = get_game("rokumentai").new_game(None, None)
    rng = random.Random(1)
    for _ in range(6):
        state = state.apply(rng.choice(state.legal_moves()))
    return state


async def _moves_during_reviews(thinker: Thinker) -> tuple[list[float], float]:
    """The time each of ``MOVES`` computer moves took while reviews kept coming; and how many
    reviews were done a second meanwhile."""
    position = _position()
    seat = position.current_player()
    request = ThinkRequest(1, position.observe(seat), seat, 3, 0.3, 1.0, 0)
    done = 0
    stop = asyncio.Event()

    async def reviews() -> None:
        nonlocal done
        seed = 0
        while not stop.is_set():
            seed += 1
            await thinker.draw(partial(best_line, position, nodes=REVIEW_NODES, seed=seed))
            done += 1

    reviewing = [asyncio.create_task(reviews()) for _ in range(2)]
    await asyncio.sleep(0.5)  # the reviews are under way when the first move is asked
    began = time.perf_counter()
    took: list[float] = []
    for i in range(MOVES):
        started = time.perf_counter()
        await thinker.choose(replace(request, seed=i))
        took.append(time.perf_counter() - started)
    rate = done / (time.perf_counter() - began)
    stop.set()
    await asyncio.gather(*reviewing)
    return took, rate


def _row(took: list[float], rate: float) -> str:
    return f"{p50_p99(took)}; reviews {rate:.2f} a second"


async def bench() -> list[tuple[str, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "banmen.db")
        service = await GameService.open(path, settings=Settings(db_path=path, web_port=0))
        try:
            alone = ProcessThinker(1)
            await alone.warm_up()
            took, rate = await _moves_during_reviews(alone)
            await alone.close()
            rows.append(("without workers (a pool of 1)", _row(took, rate)))

            store = service.ctx.store
            queued = QueuedThinker(store, ProcessThinker(1), KEY)
            pool = ProcessThinker(2)
            worker = JobWorker(store, pool, KEY, "bench", slots=2)
            stop = asyncio.Event()
            working = asyncio.create_task(worker.run(stop))
            took, rate = await _moves_during_reviews(queued)
            stop.set()
            await working
            await pool.close()
            await queued.close()
            rows.append(("with a worker of 2 slots", _row(took, rate)))
        finally:
            await service.close()
    return rows


def main() -> None:
    rows = asyncio.run(bench())
    print_rows(
        "a computer move (level 3) while reviews run, p50 / p99",
        f"{MOVES} moves, two reviews asked at a time of {REVIEW_NODES:,} nodes each; SQLite",
        rows,
    )
