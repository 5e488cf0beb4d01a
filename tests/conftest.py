"""Fixtures for every test: a known seat order, and the store backends; a hang's dump.

``db_url`` is parametrised over both stores: a fresh SQLite file, and a fresh schema in a
throwaway PostgreSQL cluster (started once per run, or per xdist worker, on first use, and
always stopped at the end). ``BANMEN_TEST_BACKENDS=sqlite`` narrows a local run to one backend;
CI runs both.

Every test has a time limit (pytest-timeout, ``timeout`` in pyproject.toml, the thread method):
a test that hangs, in its body or its fixtures' teardown, ends the run with every thread's stack
and, through :func:`pytest_timeout_set_timer` here, every asyncio task of the stuck event loop
with its own stack (a loop idle in ``epoll_wait`` says nothing; its tasks say what they await).
Under pytest-xdist (``make test`` runs ``-n auto``) a hang ends its worker instead, which the run
reports as a crashed test; the dump goes to the worker's stderr, the run's own.

Each xdist worker is a process of its own with its own session fixtures: SQLite files live in
``tmp_path`` and PostgreSQL schemas in the worker's own throwaway cluster (``tests/pgcluster.py``).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

import pytest
import pytest_timeout

import bot.service.context
from tests.pgcluster import Cluster

BACKENDS = tuple(
    b for b in os.environ.get("BANMEN_TEST_BACKENDS", "sqlite,postgres").split(",") if b
)


def seats_as_listed(seats: list[Any]) -> None:
    """A seat draw that leaves everyone where they were listed."""


@pytest.fixture(autouse=True)
def known_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats are drawn at random by default (``bot.service.context.draw_seats``); a test that
    is not about the draw plays a known order (the creator first, then as named).
    ``tests/bot/test_reading.py`` and ``tests/service/test_seats.py`` test the draw itself."""
    monkeypatch.setattr(bot.service.context, "draw_seats", seats_as_listed)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """A PostgreSQL URL whose schema is empty and this test's alone."""
    with postgres_cluster.schema() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the store lives: a SQLite file or a PostgreSQL URL (``BANMEN_DB``'s two forms)."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "banmen.db")


def running_loop(thread_id: int | None) -> asyncio.AbstractEventLoop | None:
    """The event loop that thread ``thread_id`` is running, found on its stack (another
    thread's running loop cannot be asked for)."""
    frame: FrameType | None = sys._current_frames().get(thread_id) if thread_id else None
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, asyncio.AbstractEventLoop):
            return candidate
        frame = frame.f_back
    return None


def dump_tasks(loop: asyncio.AbstractEventLoop | None, out: TextIO) -> None:
    """Every pending task of ``loop`` with the stack of what it awaits."""
    if loop is None:
        print("\n+++ no event loop is running on the main thread", file=out)
        return
    try:
        tasks = list(asyncio.all_tasks(loop))
    except RuntimeError as exc:  # the set changed under us: the loop is not stuck after all
        print(f"\n+++ asyncio tasks unreadable: {exc}", file=out)
        return
    print(f"\n+++ {len(tasks)} asyncio tasks of {loop!r}", file=out)
    for task in tasks:
        print(f"~~~ {task!r}", file=out)
        task.print_stack(file=out)
    out.flush()


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    """The thread method's timer, which first dumps the main thread's asyncio tasks and then
    does what pytest-timeout does (every thread's stack, exit 1)."""
    if settings.method != "thread":
        return None
    main = threading.main_thread().ident

    def expire() -> None:
        dump_tasks(running_loop(main), sys.stderr)
        worker = getattr(item.config, "workerinput", {}).get("workerid")
        if worker is not None:
            # An xdist worker's stdout, where pytest-timeout writes, is execnet's /dev/null; its
            # stderr is the run's. Once the capture is suspended (pytest-timeout's next step
            # too), stdout goes there as well.
            capture = item.config.pluginmanager.getplugin("capturemanager")
            if capture is not None:
                capture.suspend_global_capture(item)
            sys.stdout.flush()
            os.dup2(2, 1)
            print(f"\n+++ [{worker}] {item.nodeid} passed its time limit", file=sys.stderr)
        pytest_timeout.timeout_timer(item, settings)

    timer = threading.Timer(settings.timeout, expire)
    timer.name = f"pytest_timeout {item.nodeid}"
    timer.daemon = True

    def cancel() -> None:
        timer.cancel()
        timer.join()

    item.cancel_timeout = cancel  # type: ignore[attr-defined]
    timer.start()
    return True
