"""Fixtures: a Discord double, a game service on a temporary SQLite file, and the real bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.discord.client import BanmenBot
from bot.service import GameService, InlineThinker, StepClock, Thinker
from tests.discord_double import DiscordDouble


class Harness:
    """The bot connected to the double; ``restart()`` is a process restart (same database)."""

    def __init__(self, double: DiscordDouble, db_path: Path) -> None:
        self.double = double
        self.db_path = db_path
        self.clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
        self.settings = Settings(
            discord_token=double.token,
            db_path=str(db_path),
            dev_guild_id=str(double.guild_id),
            discord_api_base=double.api_base,
            discord_gateway_url=double.gateway_url,
            ai_seconds=0.05,
            identify_interval=0.0,  # one process: no login queue
            rest_per_second=0.0,  # nor a shared REST budget (test_double_limits turns it on)
        )
        self.thinker: Thinker = InlineThinker(StepClock(0.005))
        """Where the computer player searches (deterministic and instant by default)."""
        self.service: GameService | None = None
        self.bot: BanmenBot | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> BanmenBot:
        identifies = self.double.identifies
        self.service = await GameService.open(
            str(self.db_path), clock=self.clock, settings=self.settings, thinker=self.thinker
        )
        self.bot = BanmenBot(self.service, self.settings, guild_ready_timeout=0.05)
        self.task = asyncio.create_task(self.bot.start(self.double.token))
        await self.double.wait_connected(identifies + 1)
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)
        return self.bot

    async def stop(self) -> None:
        """Close the bot, see its ``start()`` end, close the service (even if that failed: an
        open store's thread would keep the test run from exiting)."""
        try:
            if self.bot is not None:
                await self.bot.close()
            if self.task is not None:
                # (not ``suppress(CancelledError)`` around an await: that would swallow the
                # cancellation of whoever stops the harness too)
                done, _ = await asyncio.wait({self.task}, timeout=10)
                assert done, "the bot's start() went on after close()"
                if not self.task.cancelled():
                    self.task.result()
        finally:
            if self.service is not None:
                await self.service.close()
            self.bot = self.task = self.service = None

    async def restart(self) -> BanmenBot:
        await self.stop()
        return await self.start()


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    async with DiscordDouble() as d:
        yield d


@pytest.fixture
async def harness(double: DiscordDouble, tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(double, tmp_path / "banmen.db")
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
