"""Heavy work off the gateway processes (issue 49, 4): the store's job queue, the thinker that
queues (``QueuedThinker``) and the worker that takes (``JobWorker``, ``python -m bot worker``).

Two stores over one database stand for two processes. A job is taken once, most urgent first; a
worker keeps its last slot for moves; nobody there: done here (and for a while without asking);
a worker lost: a quick move; a job signed with another key: refused, never unpickled."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.service import GameService, InlineThinker, JobWorker, QueuedThinker, StepClock
from bot.service.jobs import DRAW, MOVE, Seal
from bot.service.thinking import ThinkRequest
from bot.store import Store
from engines.core import CHANCE, chance_pick
from engines.registry import get_game
from tests.helpers import ALICE, bot_env, python_m_bot

KEY = "a key every process of the deployment has"


def _request(game: str = "rokumentai", seconds: float = 0.5) -> ThinkRequest:
    state = get_game(game).new_game(None, None)
    while state.current_player() == CHANCE:  # 略式易双六's deal
        state = state.apply(chance_pick(state, "test", state.ply))
    return ThinkRequest(1, state.observe(0), 0, 3, seconds, 1.0, 7)


def _legal(request: ThinkRequest, text: str) -> bool:
    view = request.view
    return view.parse_move(text, request.seat) in view.legal_moves(request.seat)


class Refusing(InlineThinker):
    """A local thinker a test expects never to be asked."""

    async def choose(self, request: ThinkRequest) -> str:
        raise AssertionError("asked locally")


@asynccontextmanager
async def _stores(db_url: str, count: int) -> AsyncIterator[list[Store]]:
    services = [
        await GameService.open(db_url, settings=Settings(db_path=db_url, web_port=0))
        for _ in range(count)
    ]
    try:
        yield [s.ctx.store for s in services]
    finally:
        for service in services:
            await service.close()


@asynccontextmanager
async def _working(worker: JobWorker) -> AsyncIterator[JobWorker]:
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop))
    try:
        yield worker
    finally:
        stop.set()
        await task


RELEASE: dict[str, threading.Event] = {}


def _held(name: str) -> str:
    """A drawing that lasts until the test releases it (run in a thread of this process)."""
    RELEASE[name].wait(30)
    return name


async def test_the_queue_hands_each_job_out_once_most_urgent_first(db_url: str) -> None:
    async with _stores(db_url, 2) as (one, two):
        drawing = await one.queue_job("draw", DRAW, b"d", 1_000, None)
        late = await one.queue_job("move", MOVE, b"late", 1_000, 1_500)
        move = await one.queue_job("move", MOVE, b"m", 1_000, 9_000)
        # a job past its deadline is left to its queuer; the move comes before the drawing
        taken = await two.take_job("w1", DRAW, 2_000, 3_000)
        assert taken is not None and (taken.id, taken.payload) == (move, b"m")
        assert await one.take_job("w2", MOVE, 2_000, 3_000) is None  # moves only: none left
        other = await one.take_job("w2", DRAW, 2_000, 3_000)
        assert other is not None and other.id == drawing
        assert await two.take_job("w1", DRAW, 2_000, 3_000) is None  # nothing taken twice
        assert not await one.withdraw_job(move)  # a worker has it
        assert await one.withdraw_job(late)  # nobody had it
        assert await two.renew_job(move, "w1", 4_000)
        assert not await two.renew_job(move, "w2", 4_000)  # not w2's
        assert not await one.finish_job(move, "w2", 2_500, b"x", None)
        assert await two.finish_job(move, "w1", 2_500, b"answer", None)
        row = await one.job(move)
        assert row is not None and (row.done_ms, row.result, row.failed) == (2_500, b"answer", None)
        assert not await two.renew_job(move, "w1", 5_000)  # done
        await one.drop_job(move)
        assert await one.job(move) is None
        assert await two.finish_job(drawing, "w2", 2_600, None, "x")  # it failed
        assert await one.drop_stale_jobs(1_001) == 1  # the drawing, queued at 1,000
        assert await one.job(drawing) is None


async def test_postgres_tells_of_jobs_queued_and_done(db_url: str) -> None:
    async with _stores(db_url, 2) as (one, two):
        queued: asyncio.Queue[None] = asyncio.Queue()
        done: asyncio.Queue[int] = asyncio.Queue()
        stop = await two.listen_jobs(lambda: queued.put_nowait(None), done.put_nowait)
        if not db_url.startswith("postgresql"):
            assert stop is None  # SQLite: the workers and the queuers poll
            return
        assert stop is not None
        job = await one.queue_job("move", MOVE, b"m", 1_000, None)
        await asyncio.wait_for(queued.get(), 10)
        assert await one.take_job("w", DRAW, 1_000, 9_000) is not None
        assert await one.finish_job(job, "w", 1_100, b"r", None)
        assert await asyncio.wait_for(done.get(), 10) == job
        await stop()


async def test_a_worker_answers_moves_hints_and_drawings(db_url: str) -> None:
    async with _stores(db_url, 2) as (here, there):
        thinker = QueuedThinker(here, Refusing(), KEY, take_within=30.0, poll=0.01)
        worker = JobWorker(there, InlineThinker(StepClock()), KEY, "w1", slots=2, idle=0.01)
        async with _working(worker):
            for game in ("rokumentai", "suji-shogi"):
                request = _request(game)
                assert _legal(request, await thinker.choose(request))
            hints = await thinker.hint(_request("yosuko"), 5)
            assert hints and all(0.0 <= h.win_chance <= 1.0 for h in hints)
            assert await thinker.draw(partial(pow, 2, 10)) == 1024
            with pytest.raises(ValueError, match="invalid literal"):
                await thinker.draw(partial(int, "not a number"))  # its own error comes back
        assert (thinker.queued, thinker.fallbacks, worker.done) == (4, 0, 5)
        assert await here.take_job("w9", DRAW, 0, 1) is None  # every answered job deleted
        await thinker.close()


async def test_with_no_worker_the_work_is_done_here(db_url: str) -> None:
    async with _stores(db_url, 1) as (here,):
        local = InlineThinker(StepClock())
        thinker = QueuedThinker(here, local, KEY, take_within=0.05, poll=0.01)
        request = _request()
        assert _legal(request, await thinker.choose(request))  # withdrawn, then asked here
        assert await thinker.draw(partial(pow, 3, 2)) == 9  # at once: nobody was there lately
        assert len(local.requests) == 1 and thinker.queued == 0
        assert await here.take_job("w", DRAW, 0, 1) is None  # nothing left queued
        await thinker.close()


async def test_a_lost_worker_or_a_forged_job_gives_a_quick_move(db_url: str) -> None:
    async with _stores(db_url, 2) as (here, there):
        thinker = QueuedThinker(here, Refusing(), KEY, take_within=30.0, poll=0.01)
        request = _request(seconds=30.0)

        async def vanish() -> None:  # a worker takes the move and dies: its lease lapses
            while await there.take_job("gone", DRAW, 0, 1) is None:
                await asyncio.sleep(0)  # the queuer's insert is on its way

        taker = asyncio.create_task(vanish())
        assert _legal(request, await thinker.choose(request))
        await taker
        assert thinker.fallbacks == 1

        # a job signed with another key is refused by the worker, unread
        forger = QueuedThinker(here, Refusing(), "another key", take_within=30.0, poll=0.01)
        worker = JobWorker(there, InlineThinker(StepClock()), KEY, "w1", idle=0.01)
        async with _working(worker):
            assert _legal(request, await forger.choose(replace(request, seconds=1.0)))
        assert forger.fallbacks == 1 and worker.done == 1
        await thinker.close()
        await forger.close()


def test_a_seal_opens_only_with_its_key() -> None:
    blob = Seal(KEY).seal(("move", 1))
    assert Seal(KEY).open(blob) == ("move", 1)
    with pytest.raises(ValueError):
        Seal("another").open(blob)
    with pytest.raises(ValueError):
        Seal(KEY).open(blob[:-1] + b"!")


async def test_a_worker_keeps_its_last_slot_for_moves(db_url: str) -> None:
    async with _stores(db_url, 2) as (here, there):
        seal = Seal(KEY)
        RELEASE["first"], RELEASE["second"] = threading.Event(), threading.Event()
        now = int(time.time() * 1000)
        for name in ("first", "second"):
            await here.queue_job("draw", DRAW, seal.seal(("draw", partial(_held, name))), now, None)
        worker = JobWorker(there, InlineThinker(StepClock()), KEY, "w1", slots=2)
        assert await worker.take_one()  # the first drawing: one slot left, kept for moves
        assert not await worker.take_one()
        move = await here.queue_job(
            "move", MOVE, seal.seal(("move", _request())), now, now + 60_000
        )
        assert await worker.take_one()
        row = await there.job(move)
        assert row is not None and row.taken_by == "w1"
        RELEASE["first"].set()
        await worker.drain()  # the first drawing and the move
        assert worker.done == 2
        row = await here.job(move)
        assert row is not None and row.result is not None
        assert await worker.take_one()  # both slots free: the second drawing
        RELEASE["second"].set()
        await worker.drain()
        assert worker.done == 3


async def test_a_worker_process_answers_a_service_with_the_queue_on(
    db_url: str, tmp_path: Path
) -> None:
    """``python -m bot worker`` takes the computer's moves of a service whose settings queue
    them (``BANMEN_JOB_QUEUE``); without a key it does not start."""
    async with python_m_bot(bot_env(tmp_path, BANMEN_DB=db_url), tmp_path, "worker") as keyless:
        assert await keyless.finish() == 2
        assert any("BANMEN_JOB_KEY" in line for line in keyless.lines)
    settings = Settings(db_path=db_url, web_port=0, job_queue=True, job_key=KEY, ai_seconds=0.3)
    service = await GameService.open(db_url, settings=settings)
    env = bot_env(tmp_path, BANMEN_DB=db_url, BANMEN_JOB_KEY=KEY)
    try:
        thinker = service.play.computer.thinker
        assert isinstance(thinker, QueuedThinker)
        thinker.take_within = 60.0  # the worker's start-up (its pool spawns)
        async with python_m_bot(env, tmp_path, "worker") as worker:
            await worker.wait_line(lambda line: "taking jobs" in line)
            made = await service.play.create_game(ALICE, "rokumentai", ai=[1], seed="fixed")
            gid = made.game_id
            assert gid is not None
            state = service.play.current_state(gid)
            assert state is not None
            if state.current_player() == 0:  # the seats are drawn: ALICE may come second
                await service.play.move(gid, ALICE, state.format_move(state.legal_moves()[0]))
            await service.play.computer.settle()
            after = service.play.current_state(gid)
            assert after is not None and after.current_player() == 0  # the computer answered
            assert (thinker.queued, thinker.fallbacks) == (1, 0)
            worker.proc.send_signal(signal.SIGTERM)
            assert await worker.finish() == 0
            assert "Traceback" not in "\n".join(worker.lines)
    finally:
        await service.close()


class NoDrawing(InlineThinker):
    """A local thinker that must not be asked to draw."""

    async def draw(self, job: Any) -> Any:
        raise AssertionError("drawn locally")


async def test_a_drawing_looks_twice_before_taking_the_workers_for_gone(db_url: str) -> None:
    """A worker between two jobs holds no lease for a moment: a drawing that finds no worker
    busy when its time to be taken is up looks once more, and a worker that takes it
    meanwhile draws it; nobody is taken for gone."""
    async with _stores(db_url, 2) as (here, there):
        local = NoDrawing(StepClock())
        # a second between the looks: time enough for the worker, however loaded the machine
        thinker = QueuedThinker(here, local, KEY, take_within=1.0, poll=0.01)
        worker = JobWorker(there, InlineThinker(StepClock()), KEY, "w1", slots=1, idle=0.01)
        looked = asyncio.Event()
        running = here.jobs_running

        async def first_look(now_ms: int) -> int:
            looked.set()  # the first look: no worker holds a lease
            return await running(now_ms)

        here.jobs_running = first_look  # type: ignore[method-assign]
        drawing = asyncio.create_task(thinker.draw(partial(pow, 2, 7)))
        await looked.wait()
        here.jobs_running = running  # type: ignore[method-assign]
        async with _working(worker):  # a worker comes back to the queue before the second look
            assert await drawing == 128
        assert local.requests == [] and thinker._absent_until == 0.0
        await thinker.close()


async def test_busy_workers_keep_the_drawings_and_leave_the_moves_here(db_url: str) -> None:
    """While every worker's slot is busy, a drawing waits its turn in the queue (it is not
    withdrawn: the workers are there), and a move that waits too long is done here, without
    taking the workers for gone."""
    async with _stores(db_url, 2) as (here, there):
        RELEASE["busy"] = threading.Event()
        local = NoDrawing(StepClock())
        thinker = QueuedThinker(here, local, KEY, take_within=0.05, poll=0.01)
        worker = JobWorker(there, InlineThinker(StepClock()), KEY, "w1", slots=1, idle=0.01)
        async with _working(worker):
            held = asyncio.create_task(thinker.draw(partial(_held, "busy")))
            while await here.jobs_running(int(time.time() * 1000)) == 0:
                await asyncio.sleep(0.01)  # the worker has taken the first drawing
            second = asyncio.create_task(thinker.draw(partial(pow, 2, 5)))
            request = _request()
            assert _legal(request, await thinker.choose(request))  # done here
            assert len(local.requests) == 1
            RELEASE["busy"].set()
            assert await held == "busy" and await second == 32  # both drawn by the worker
        assert thinker._absent_until == 0.0  # nobody took the workers for gone
        await thinker.close()
