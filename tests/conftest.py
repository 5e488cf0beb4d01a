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

The ``slow`` mark (``make test-fast`` leaves it out) is set here, by :data:`SLOW`, not in the
test modules.
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


SLOW: dict[str, frozenset[str] | None] = {
    # killed and restarted again and again, or a server stopped under the service
    "tests/bot/test_outbox_crash.py": None,
    "tests/service/test_crash.py": None,
    "tests/service/test_outage.py": None,  # a PostgreSQL cluster per test, stopped mid-game
    "tests/bot/test_shards.py": None,  # two bot processes on one PostgreSQL, one SIGKILLed
    "tests/bot/test_closing.py": frozenset({"test_close_with_everything_in_flight"}),
    # Chromium
    "tests/web/test_browser.py": None,
    "tests/web/test_accessibility.py": None,
    "tests/web/test_activity_browser.py": None,
    # ``python -m bot`` and other subprocesses
    "tests/bot/test_ops.py": frozenset(
        {
            "test_wrong_token_is_one_line_and_exit_2",
            "test_unreachable_api_is_one_line_and_exit_1",
            "test_signal_closes_the_bot_and_the_service",
            "test_sigterm_mid_move_closes_in_time_and_keeps_what_was_committed",
        }
    ),
    "tests/service/test_ops_cli.py": frozenset(
        {
            "test_healthcheck_command",
            "test_no_token_and_no_terminal_stops_with_exit_2",
            "test_explicit_sandbox_still_runs_without_a_terminal",
            "test_sync_global_without_a_token",
        }
    ),
    "tests/service/test_sandbox.py": frozenset(
        {"test_cli_sandbox_plays_rokumentai", "test_no_token_starts_the_sandbox"}
    ),
    # four bot processes, two sites and a worker playing 200 games (about two minutes)
    "tests/bot/test_at_scale.py": None,
    "tests/service/test_jobs.py": frozenset(
        {"test_a_worker_process_answers_a_service_with_the_queue_on"}
    ),
    "tests/engines/test_purity.py": frozenset({"test_importing_every_game_loads_no_impure_module"}),
    # worker processes of the computer player and the replays
    "tests/service/test_thinking.py": frozenset(
        {
            "test_a_pooled_search_returns_a_legal_move_within_its_deadline",
            "test_a_worker_that_overruns_or_dies_is_replaced",
        }
    ),
    "tests/service/test_replays.py": frozenset({"test_the_process_pool_draws_the_same_replay"}),
    # the AI ladder: every level's search on one position
    "tests/engines/ai/test_ai.py": frozenset({"test_every_level_guards_e5_in_sangokushi"}),
    # long randomised tests (hypothesis, 2-4 s for each game)
    "tests/service/test_fuzz_entry_points.py": frozenset(
        {"test_mutated_moves_through_the_service", "test_mutated_records_through_import"}
    ),
}
"""The tests marked ``slow``: a module's path and its test functions, or ``None`` for all of it.
(``tests/test_marks.py`` checks that every name here is a test of that module.)"""


ALONE = frozenset({"tests/bot/test_at_scale.py"})
"""Modules whose tests run by themselves after the others (``make pytest``: ``-m alone``): eight
processes at once fill every core, and a timing-sensitive test beside them would starve."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            module = item.path.relative_to(config.rootpath).as_posix()
        except ValueError:
            continue
        if module in ALONE:
            item.add_marker(pytest.mark.alone)
        if module not in SLOW:
            continue
        names = SLOW[module]
        if names is None or getattr(item, "originalname", item.name) in names:
            item.add_marker(pytest.mark.slow)


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
