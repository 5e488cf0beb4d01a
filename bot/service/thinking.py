"""Thinkers: where the computer player's search runs, behind one small interface.

The service never starts a process: it hands a :class:`Thinker` what the AI's seat may see (the
state as ``observe(seat)`` returns it: no seed, no hidden arrangement, no talon order) and gets
back a move in the game's notation. Two implementations:

- :class:`ProcessThinker` (the bot): a ``ProcessPoolExecutor`` of spawned workers, at most as
  many searches at once as it has workers. Each search gets a deadline (``time.monotonic`` is
  system-wide, so the worker reads it itself and stops in time) and is wrapped in
  ``asyncio.timeout``; a worker that overruns its deadline by more than ``grace`` seconds, or a
  pool that breaks, is replaced and the move is a quick level-1 one instead. The event loop never
  waits on a search, so other users' commands stay fast while the AI thinks, and closing never
  waits for one either (:meth:`ProcessThinker.close` ends a worker still searching).
- :class:`InlineThinker` (tests, the terminal sandbox): the same search on the calling thread,
  with an injectable clock, so a test is fast and deterministic.

The same workers draw replays (:meth:`Thinker.draw`: a long game's animation is seconds of
Pillow work that would hold the event loop's threads and the GIL): a drawing takes a worker's
slot like a search, so a search never waits in the queue with its clock running.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, TypeVar

from bot.worker import follow_parent
from engines import ai
from engines.core import State

log = logging.getLogger("banmen.thinking")

Clock = Callable[[], float]
T = TypeVar("T")

STOP_SECONDS = 1.0
"""How long closing waits for the workers to exit by themselves before ending them."""
GRACE_SECONDS = 3.0
"""How long past its deadline a pooled search may take (a worker's start-up, pickling) before it
is given up and replaced."""


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """One question for the computer player: its move (or secret setup) at ``view``.

    ``view`` is the state as the AI's seat sees it; ``seconds`` is the hard limit for this move
    (the search's deadline is the thinker's clock plus ``seconds`` when the search starts);
    ``budget_scale`` stretches the level's own time budget; ``seed`` seeds the AI's own
    randomness (never the game's seed, which deals the chance outcomes)."""

    game_id: int
    view: State[Any]
    seat: int
    level: int
    seconds: float
    budget_scale: float
    seed: int


@dataclass(frozen=True, slots=True)
class HintChoice:
    """A choice of a solitaire's player with its estimated win chance over ``samples`` sampled
    futures (the real talon is never read: the thinker sees only the observed state)."""

    move: str
    win_chance: float
    samples: int


class Thinker(Protocol):
    """Where searches run; see the module docstring."""

    async def choose(self, request: ThinkRequest) -> str:
        """The move (canonical notation) for ``request.seat``; always legal at ``request.view``."""
        ...

    async def hint(self, request: ThinkRequest, samples: int) -> tuple[HintChoice, ...]:
        """Every legal choice at ``request.view`` with its win chance, best first."""
        ...

    async def draw(self, job: Callable[[], T]) -> T:
        """``job()``, CPU work that is no search (a replay's pictures), off the event loop:
        ``job`` is picklable (a ``functools.partial`` of a module's function)."""
        ...

    async def warm_up(self) -> None:
        """Get ready before the first request (start workers); nothing for an inline one."""
        ...

    async def close(self) -> None: ...


# --- what a search does (run in a worker process or inline) ----------------------------------


def search_move(request: ThinkRequest, deadline: float, clock: Clock = time.monotonic) -> str:
    """The AI's move for ``request`` by ``deadline`` (a ``clock()`` value), as text."""
    move = ai.choose_move(
        request.view,
        request.seat,
        request.level,
        random.Random(request.seed),
        deadline=deadline,
        clock=clock,
        budget_scale=request.budget_scale,
    )
    return request.view.format_move(move)


def search_hint(
    request: ThinkRequest, samples: int, deadline: float, clock: Clock = time.monotonic
) -> tuple[HintChoice, ...]:
    hints = ai.hint(
        request.view, random.Random(request.seed), samples, deadline=deadline, clock=clock
    )
    return hint_choices(request.view, hints)


def hint_choices(view: State[Any], hints: Sequence[ai.Hint]) -> tuple[HintChoice, ...]:
    return tuple(HintChoice(view.format_move(h.move), h.win_chance, h.samples) for h in hints)


def quick_move(request: ThinkRequest) -> str:
    """A legal move at once (level 1, no time left): the answer when a pooled search failed."""
    return search_move(replace(request, level=1, seconds=0.0), time.monotonic())


# --- the thinkers ------------------------------------------------------------------------------


class InlineThinker:
    """Searches on the calling thread (tests and the one-user sandbox). With a stepping
    ``clock`` (each read advances it) the search is deterministic and takes no real time."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.requests: list[ThinkRequest] = []
        """Every request seen (tests check what the AI was shown)."""

    async def choose(self, request: ThinkRequest) -> str:
        self.requests.append(request)
        return search_move(request, self.clock() + request.seconds, self.clock)

    async def hint(self, request: ThinkRequest, samples: int) -> tuple[HintChoice, ...]:
        self.requests.append(request)
        return search_hint(request, samples, self.clock() + request.seconds, self.clock)

    async def draw(self, job: Callable[[], T]) -> T:
        return await asyncio.to_thread(job)

    async def warm_up(self) -> None:
        return None

    async def close(self) -> None:
        return None


class StepClock:
    """A clock that advances by ``step`` seconds at every read (deterministic searches)."""

    def __init__(self, step: float = 0.001) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class ProcessThinker:
    """Searches in a pool of ``workers`` spawned processes (see the module docstring).

    A worker runs :func:`engines.ai.choose_move` (or :func:`engines.ai.hint`) itself, so it
    imports the engines and nothing of the bot; ``move_fn`` and ``hint_fn`` (same signatures,
    importable functions) are for tests."""

    def __init__(
        self,
        workers: int = 1,
        *,
        grace: float = GRACE_SECONDS,
        move_fn: Callable[..., Any] = ai.choose_move,
        hint_fn: Callable[..., Any] = ai.hint,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a process thinker needs at least one worker, not {workers}")
        self.workers = workers
        self.grace = grace
        self.move_fn = move_fn
        self.hint_fn = hint_fn
        self._pool: ProcessPoolExecutor | None = None
        # One search per worker at a time: a queued search would find its deadline spent.
        self._slots = asyncio.Semaphore(workers)
        self.fallbacks = 0
        """Searches answered in-process because the pool failed or overran."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=follow_parent,  # a killed bot leaves no search behind
            )
        return self._pool

    async def warm_up(self) -> None:
        """Start the workers and import the AI in each (so no first move pays for it)."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(
            *(loop.run_in_executor(pool, ai.level, 1) for _ in range(self.workers))
        )

    async def _run(self, seconds: float, call: Callable[[float], partial[Any]]) -> Any:
        """``call(deadline)`` in a worker; ``TimeoutError`` past the deadline + grace."""
        async with self._slots:
            loop = asyncio.get_running_loop()
            pool = self._executor()
            deadline = time.monotonic() + seconds
            future = loop.run_in_executor(pool, call(deadline))
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation
                # (the bot closing) that arrives as the search ends.
                async with asyncio.timeout(seconds + self.grace):
                    return await future
            except (TimeoutError, BrokenProcessPool):
                self._replace(pool)
                raise

    async def choose(self, request: ThinkRequest) -> str:
        def call(deadline: float) -> partial[Any]:
            return partial(
                self.move_fn,
                request.view,
                request.seat,
                request.level,
                random.Random(request.seed),
                deadline=deadline,
                budget_scale=request.budget_scale,
            )

        try:
            move = await self._run(request.seconds, call)
            return request.view.format_move(move)
        except (TimeoutError, BrokenProcessPool, OSError) as exc:
            self.fallbacks += 1
            log.error("AI search for game %s failed (%r): a quick move", request.game_id, exc)
            return await asyncio.to_thread(quick_move, request)

    async def hint(self, request: ThinkRequest, samples: int) -> tuple[HintChoice, ...]:
        def call(deadline: float) -> partial[Any]:
            return partial(
                self.hint_fn, request.view, random.Random(request.seed), samples, deadline=deadline
            )

        try:
            hints = await self._run(request.seconds, call)
            return hint_choices(request.view, hints)
        except (TimeoutError, BrokenProcessPool, OSError) as exc:
            self.fallbacks += 1
            log.error("hint for game %s failed (%r): a brief sample", request.game_id, exc)
            return await asyncio.to_thread(search_hint, request, 1, time.monotonic())

    async def draw(self, job: Callable[[], T]) -> T:
        """``job()`` in a worker, holding a slot as a search does; if the pool breaks it is
        replaced and ``job`` runs in a thread instead (an error ``job`` raises comes back)."""
        async with self._slots:
            loop = asyncio.get_running_loop()
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, job)
            except BrokenProcessPool as exc:
                log.error("drawing in the worker pool failed (%r): in a thread", exc)
                self._replace(pool)
        return await asyncio.to_thread(job)

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Stop ``pool``, whose worker overran or died (its processes are ended: a search that
        ignores its deadline must not hold a core); the next search starts a fresh one. (Other
        searches in it fail over to a quick move; a newer pool is left alone.)"""
        if self._pool is pool:
            self._pool = None
        for process in _processes(pool):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers within :data:`STOP_SECONDS`: queued searches are dropped, idle
        workers exit, and a search still running (its turn was cancelled as the bot closed:
        nothing of it is committed) has its process ended instead of being waited for up to
        its deadline."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_stop, pool, STOP_SECONDS)


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (``ProcessPoolExecutor`` keeps them private)."""
    return list(dict(getattr(pool, "_processes", None) or {}).values())


def _stop(pool: ProcessPoolExecutor, timeout: float) -> None:
    """Shut ``pool`` down, waiting at most ``timeout`` seconds before ending its workers."""
    processes = _processes(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(timeout)
