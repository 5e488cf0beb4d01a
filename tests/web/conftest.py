"""Fixtures of the web pages' tests: a service over the real games and its site, served by
aiohttp's test server on 127.0.0.1 (a free port)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService
from bot.web import RateLimit, create_app
from tests.discord_double import DiscordDouble
from tests.helpers import activity_settings, signing_settings

PUBLIC = "https://banmen.example"


@pytest.fixture
async def real(db_url: str) -> AsyncIterator[GameService]:
    settings = Settings(db_path=db_url, public_url=PUBLIC)
    svc = await GameService.open(db_url, clock=FakeClock(), settings=settings)
    try:
        yield svc
    finally:
        await svc.close()


@pytest.fixture
async def client(real: GameService) -> AsyncIterator[TestClient[object, object]]:
    app = create_app(real, limit=RateLimit(rate=1000.0, burst=10_000.0))
    async with TestClient(TestServer(app, host="127.0.0.1")) as c:
        yield c


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble() as d:
        yield d


@contextlib.asynccontextmanager
async def _served(
    db_url: str, settings: Settings
) -> AsyncIterator[tuple[GameService, TestClient[Any, Any]]]:
    service = await GameService.open(db_url, clock=FakeClock(), settings=settings)
    app = create_app(service, limit=RateLimit(rate=1000.0, burst=10_000.0))
    try:
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            yield service, client
    finally:
        await service.close()


@pytest.fixture
async def site(
    db_url: str, double: DiscordDouble
) -> AsyncIterator[tuple[GameService, TestClient[Any, Any]]]:
    """A service whose site signs in with Discord (the double's OAuth2), and its client."""
    async with _served(db_url, signing_settings(db_url, double)) as served:
        yield served


@pytest.fixture
async def activity_site(
    db_url: str, double: DiscordDouble
) -> AsyncIterator[tuple[GameService, TestClient[Any, Any]]]:
    """A service whose site also serves the board as a Discord Activity (issue 51, 3) against
    the double (its OAuth2 and its Activity instances), and its client."""
    async with _served(db_url, activity_settings(db_url, double)) as served:
        yield served
