"""Heavy work off the gateway processes (issue 49, 4): a queue of jobs in the store.

Past one process, a computer's move, a hint, a review's pictures or an analysis need not run in
the process that holds the Discord gateway (or serves the site): :class:`QueuedThinker` (a
:class:`~bot.service.thinking.Thinker`) queues each as a row of the store's ``jobs`` table, and
``python -m bot worker`` processes (:class:`JobWorker`) take them, most urgent first (a move, then
a hint, then drawing), run them in their own pool of spawned processes and write the result, which
the queuer reads and deletes. So a slow review in one process never holds the cores another
process's players are waiting on, and the workers scale on their own (compose's ``worker``).

- **Nobody there**: a job no worker takes within ``take_within`` seconds is withdrawn and done
  locally (the process's own pool), and for a while after that jobs are not queued at all, so a
  deployment whose workers are down (or the single-process default, which queues nothing) plays
  at full speed. **All busy** (a worker holds a job under a live lease): a drawing waits its
  turn in the queue; a move is done locally, at once.
- **A worker dies**: it holds a job with a lease it renews every third of it; a lease that
  lapses, or a move past its deadline plus grace, makes the queuer give the job up (a move: a
  quick level-1 move, as the process pool does; a drawing: drawn locally).
- **Trust**: payloads and results are pickles (a review's job is a function and its arguments),
  so each is signed (HMAC-SHA256 with ``BANMEN_JOB_KEY``, by default the bot's token, which every
  process of a deployment has): whoever can write the database cannot make a worker run code.
- **Priorities**: a worker with several slots keeps the last free one for moves, so pictures and
  reviews never take every slot while a move waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import pickle
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from bot.model import JobRow
from bot.service.thinking import (
    GRACE_SECONDS,
    HintChoice,
    Thinker,
    ThinkRequest,
    quick_move,
    search_hint,
)
from bot.store import Store

log = logging.getLogger("banmen.jobs")
T = TypeVar("T")

MOVE, HINT, DRAW = 0, 1, 2
"""The priorities of the jobs: a computer's move first, then a hint, then drawing."""
TAKE_WITHIN = 2.0
"""Seconds a job may wait for a worker before it is withdrawn and done locally."""
ABSENT_FOR = 30.0
"""Seconds after a job nobody took during which jobs are done locally without asking."""
LEASE_SECONDS = 15.0
"""A worker's lease of a job; renewed every third of it while it works."""
POLL_SECONDS = 0.05
"""How often a queuer reads its job where no notification comes (SQLite); with PostgreSQL's
it still reads it this many times less often, in case one was missed."""
IDLE_SECONDS = 0.1
"""How often an idle worker looks for jobs where no notification comes (SQLite)."""
STALE_MS = 3_600_000
"""Jobs queued this long ago are deleted by the workers (their queuer died waiting)."""
MAC_BYTES = 32


class ForgedJobError(ValueError):
    """A payload or result whose signature does not match (written by someone without the key)."""


class JobLostError(Exception):
    """A job whose worker died, or whose answer came too late."""


class _NotTakenError(Exception):
    """No worker took the job in time (it was withdrawn: do it locally)."""


def _wall_ms() -> int:
    return int(time.time() * 1000)


class Seal:
    """Signed pickles: what the queue carries between processes that share :attr:`key`."""

    def __init__(self, key: str | bytes) -> None:
        self.key = key.encode() if isinstance(key, str) else key

    def seal(self, value: object) -> bytes:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return hmac.new(self.key, data, hashlib.sha256).digest() + data

    def open(self, blob: bytes) -> Any:
        mac, data = blob[:MAC_BYTES], blob[MAC_BYTES:]
        if not hmac.compare_digest(mac, hmac.new(self.key, data, hashlib.sha256).digest()):
            raise ForgedJobError("a job signed with another key")
        return pickle.loads(data)


class _Waiters:
    """The queuer's side of the notifications: one event per job waited for."""

    def __init__(self) -> None:
        self.events: dict[int, asyncio.Event] = {}

    def done(self, job_id: int) -> None:
        event = self.events.get(job_id)
        if event is not None:
            event.set()


class QueuedThinker:
    """A :class:`Thinker` that hands its work to the workers (see the module docstring);
    ``local`` does what no worker takes."""

    def __init__(
        self,
        store: Store,
        local: Thinker,
        key: str | bytes,
        *,
        take_within: float = TAKE_WITHIN,
        grace: float = GRACE_SECONDS,
        poll: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.local = local
        self.seal = Seal(key)
        self.take_within = take_within
        self.grace = grace
        self.poll = poll
        self._absent_until = 0.0
        self._waiters = _Waiters()
        self._listening: asyncio.Task[Callable[[], Awaitable[None]] | None] | None = None
        self.fallbacks = 0
        """Jobs lost to a dead or late worker (answered by a quick move or drawn locally)."""
        self.queued = 0
        """Jobs a worker answered."""

    async def choose(self, request: ThinkRequest) -> str:
        try:
            answer: str = await self._ask("move", MOVE, request, request.seconds)
            return answer
        except _NotTakenError:
            return await self.local.choose(request)
        except JobLostError as exc:
            self.fallbacks += 1
            log.error("AI search for game %s lost (%s): a quick move", request.game_id, exc)
            return await asyncio.to_thread(quick_move, request)

    async def hint(self, request: ThinkRequest, samples: int) -> tuple[HintChoice, ...]:
        try:
            answer: tuple[HintChoice, ...] = await self._ask(
                "hint", HINT, (request, samples), request.seconds
            )
            return answer
        except _NotTakenError:
            return await self.local.hint(request, samples)
        except JobLostError as exc:
            self.fallbacks += 1
            log.error("hint for game %s lost (%s): a brief sample", request.game_id, exc)
            return await asyncio.to_thread(search_hint, request, 1, time.monotonic())

    async def draw(self, job: Callable[[], T]) -> T:
        try:
            answer: T = await self._ask("draw", DRAW, job, None)
            return answer
        except _NotTakenError:
            return await self.local.draw(job)
        except JobLostError as exc:
            self.fallbacks += 1
            log.error("a drawing's worker was lost (%s): drawn here", exc)
            return await self.local.draw(job)

    async def warm_up(self) -> None:
        await self._listen()

    async def close(self) -> None:
        task, self._listening = self._listening, None
        if task is not None:
            stop = await task
            if stop is not None:
                await stop()
        await self.local.close()

    # -- the queue ----------------------------------------------------------------------------
    async def _listen(self) -> bool:
        """Start listening for done jobs once; whether notifications come (PostgreSQL)."""
        if self._listening is None:

            async def start() -> Callable[[], Awaitable[None]] | None:
                try:
                    return await self.store.listen_jobs(lambda: None, self._waiters.done)
                except Exception as exc:  # no notifications: the waiters read the rows more
                    log.warning("cannot listen for done jobs (%r): polling", exc)
                    return None

            self._listening = asyncio.ensure_future(start())
        return await asyncio.shield(self._listening) is not None

    async def _ask(self, kind: str, priority: int, value: object, seconds: float | None) -> Any:
        """Queue ``(kind, value)`` and wait for its answer; :class:`_NotTakenError` if no worker
        took it in time (or none did lately), :class:`JobLostError` if its worker was lost or
        it ran past ``seconds`` plus grace."""
        loop = asyncio.get_running_loop()
        if loop.time() < self._absent_until:
            raise _NotTakenError
        notified = await self._listen()
        now = _wall_ms()
        deadline = None if seconds is None else now + int(seconds * 1000)
        payload = self.seal.seal((kind, value))
        job_id = await self.store.queue_job(kind, priority, payload, now, deadline)
        event = self._waiters.events.setdefault(job_id, asyncio.Event())
        started = loop.time()
        give_up = None if seconds is None else started + seconds + self.grace
        ask_by = started + self.take_within
        idle_once = False  # a drawing found the workers idle once (it looks again first)
        try:
            while True:
                row = await self.store.job(job_id)
                answer = self._answer(row, started, give_up, loop.time())
                if answer is not None:
                    self.queued += 1
                    return answer[0]
                if row is not None and row.taken_by is None and loop.time() >= ask_by:
                    # workers busy with other jobs: a drawing waits its turn; a move is done here
                    busy = await self.store.jobs_running(_wall_ms()) > 0
                    if seconds is None and (busy or not idle_once):
                        # a worker between two jobs holds no lease for a moment: a drawing that
                        # finds none looks again before it takes the workers for gone
                        idle_once = not busy
                        ask_by = loop.time() + self.take_within
                    elif await self.store.withdraw_job(job_id):
                        if not busy:  # no worker at all: do not ask for a while
                            if loop.time() >= self._absent_until:  # said once, not per job
                                log.warning("no worker took a %s job: done here for a while", kind)
                            self._absent_until = loop.time() + ABSENT_FOR
                        raise _NotTakenError
                    else:
                        continue  # taken meanwhile
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.poll * (20 if notified else 1)):
                        await event.wait()
                event.clear()
        finally:
            self._waiters.events.pop(job_id, None)
            await self.store.drop_job(job_id)

    def _answer(
        self, row: JobRow | None, started: float, give_up: float | None, now: float
    ) -> tuple[Any] | None:
        """The job's answer as a 1-tuple once it is done; ``None`` while it may still come."""
        if row is None:
            raise JobLostError("the job was deleted")
        if row.done_ms is not None:
            if row.result is None:
                raise JobLostError(f"the worker failed: {row.failed}")
            status, value = self.seal.open(row.result)
            if status == "raised":
                raise value  # the job's own error, as a local run would raise it
            return (value,)
        if give_up is not None and now > give_up:
            raise JobLostError("past its deadline")
        if row.taken_by is not None and (row.lease_ms or 0) < _wall_ms():
            raise JobLostError(f"{row.taken_by}'s lease lapsed")
        return None


class JobWorker:
    """What ``python -m bot worker`` runs: takes jobs from the store and does them with
    ``thinker`` (its own process pool), ``slots`` at a time (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        thinker: Thinker,
        key: str | bytes,
        name: str,
        slots: int = 1,
        *,
        lease: float = LEASE_SECONDS,
        idle: float = IDLE_SECONDS,
    ) -> None:
        self.store = store
        self.thinker = thinker
        self.seal = Seal(key)
        self.name = name
        self.slots = slots
        self.lease = lease
        self.idle = idle
        self._running: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self.done = 0
        """Jobs this worker finished (answered or failed)."""

    def _max_priority(self) -> int:
        free = self.slots - len(self._running)
        return MOVE if self.slots > 1 and free == 1 else DRAW

    async def run(self, stop: asyncio.Event) -> None:
        """Take and do jobs until ``stop`` is set; then finish those running."""
        unlisten = await self.store.listen_jobs(self._wake.set, lambda job_id: None)
        await self.thinker.warm_up()
        log.info("worker %s: taking jobs, %d at a time", self.name, self.slots)
        swept = 0.0
        loop = asyncio.get_running_loop()
        try:
            while not stop.is_set():
                if loop.time() - swept > 60:
                    swept = loop.time()
                    await self.store.drop_stale_jobs(_wall_ms() - STALE_MS)
                while len(self._running) < self.slots and await self.take_one():
                    pass
                self._wake.clear()
                signals = {
                    asyncio.ensure_future(stop.wait()),
                    asyncio.ensure_future(self._wake.wait()),
                }
                await asyncio.wait(
                    signals | self._running,  # a job ending frees a slot
                    timeout=self.idle * (20 if unlisten is not None else 1),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                for signal in signals:
                    signal.cancel()
        finally:
            if unlisten is not None:
                await unlisten()
            await self.drain()

    async def drain(self) -> None:
        """Wait for the jobs this worker is doing."""
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def take_one(self) -> bool:
        """Take one job if there is one this worker may take now and start it."""
        now = _wall_ms()
        row = await self.store.take_job(
            self.name, self._max_priority(), now, now + int(self.lease * 1000)
        )
        if row is None:
            return False
        task = asyncio.create_task(self._do(row), name=f"banmen-job-{row.id}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return True

    async def _do(self, row: JobRow) -> None:
        """Do ``row``'s job, renewing its lease meanwhile; its result, or why it failed."""
        work = asyncio.ensure_future(self._work(row))
        try:
            while True:
                done, _ = await asyncio.wait({work}, timeout=self.lease / 3)
                if done:
                    break
                renewed = await self.store.renew_job(
                    row.id, self.name, _wall_ms() + int(self.lease * 1000)
                )
                if not renewed:  # its queuer gave it up
                    work.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await work
                    return
            result, failed = work.result()
        except asyncio.CancelledError:
            work.cancel()
            raise
        await self.store.finish_job(row.id, self.name, _wall_ms(), result, failed)
        self.done += 1

    async def _work(self, row: JobRow) -> tuple[bytes | None, str | None]:
        """The signed result of ``row``'s job, or ``(None, why)``."""
        try:
            kind, value = self.seal.open(row.payload)
        except (ForgedJobError, pickle.UnpicklingError, ValueError, TypeError) as exc:
            log.error("job %s refused: %s", row.id, exc)
            return None, f"refused: {exc}"
        try:
            answer = await self._run(kind, value, row)
        except Exception as exc:  # the job's own error goes back to whoever asked
            log.info("job %s (%s) raised %r", row.id, kind, exc)
            try:
                return self.seal.seal(("raised", exc)), None
            except (pickle.PicklingError, TypeError, AttributeError):
                return None, repr(exc)
        return self.seal.seal(("ok", answer)), None

    async def _run(self, kind: str, value: Any, row: JobRow) -> Any:
        if kind == "draw":
            return await self.thinker.draw(value)
        left = 0.0 if row.deadline_ms is None else (row.deadline_ms - _wall_ms()) / 1000
        if kind == "move":
            request: ThinkRequest = value
            return await self.thinker.choose(replace(request, seconds=max(0.0, left)))
        if kind == "hint":
            asked, samples = value
            return await self.thinker.hint(replace(asked, seconds=max(0.0, left)), samples)
        raise ValueError(f"no such kind of job: {kind!r}")
