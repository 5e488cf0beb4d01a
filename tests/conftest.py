"""Fixtures for every test: a known seat order, and the store backends.

``db_url`` is parametrised over both stores: a fresh SQLite file, and a fresh schema in a
throwaway PostgreSQL cluster (started once per run, on first use, and always stopped at the
end). ``BANMEN_TEST_BACKENDS=sqlite`` narrows a local run to one backend; CI runs both.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
