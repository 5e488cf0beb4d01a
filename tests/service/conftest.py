"""Fixtures: a service over a temporary store (SQLite and PostgreSQL), a fake clock and the
test engines."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService
from tests.helpers import REVIEW_NODES
from tests.service import fakegame


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    fakegame.install(monkeypatch)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(db_url: str) -> str:
    """The store of the test: a SQLite file or a PostgreSQL schema (every test runs on both)."""
    return db_url


@pytest.fixture
async def svc(clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    """A service whose computer reviews with few nodes a ply (the real games: the reviews,
    retries and analysis boards)."""
    settings = Settings(db_path=db_path, review_nodes=REVIEW_NODES)
    service = await GameService.open(db_path, clock=clock, settings=settings)
    try:
        yield service
    finally:
        await service.close()


@pytest.fixture
async def service(fakes: None, clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        yield svc
    finally:
        await svc.close()


@pytest.fixture
async def real(clock: FakeClock, db_path: str) -> AsyncIterator[GameService]:
    """A service over the real engines and renderers (no test engines installed)."""
    svc = await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))
    try:
        yield svc
    finally:
        await svc.close()
