"""The real discord.py client logs into the double, syncs to the dev guild, answers a command."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import discord
import pytest
import yarl

from bot.config import Settings
from bot.discord_app import run_bot
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble


async def test_login_sync_and_answer(harness: Harness, double: DiscordDouble) -> None:
    assert double.identifies == 1
    # Commands were synced to the development guild only, with Japanese localisations.
    assert None not in double.commands
    names = {c["name"] for c in double.commands[double.guild_id]}
    assert {"play", "move", "board", "rules", "resign", "games", "settings"} <= names
    move = double.command("move")
    assert move["name_localizations"]["ja"] == "指す"
    # A slash command is answered (ephemeral, in time) over the loopback.
    answer = await double.slash(double.alice, "rules", {"game": "rokumentai"})
    assert answer.response_time < 3.0
    assert answer.ephemeral
    assert "六面体" in answer.text or "rokumentai" in answer.text.lower()
    assert not double.unhandled
    # The token never reaches the logs of REST requests: every request carried it in a header.
    assert all(r.status < 400 for r in double.requests)


async def test_gateway_reconnect(harness: Harness, double: DiscordDouble) -> None:
    """Discord asks for a reconnect; the bot resumes its session and keeps answering."""
    await double.request_reconnect()
    await double.wait_for(lambda: double.resumes == 1)
    assert double.identifies == 1
    answer = await double.slash(double.alice, "games", {})
    assert answer.ephemeral


async def test_main_entry_points_the_client_at_the_settings(
    double: DiscordDouble, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run_bot`` (what ``python -m bot`` runs) sets the endpoints from the settings itself."""
    monkeypatch.setattr(discord.http.Route, "BASE", "https://discord.com/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL("wss://gateway.discord.gg/")
    )
    settings = Settings(
        discord_token=double.token,
        db_path=str(tmp_path / "main.db"),
        dev_guild_id=str(double.guild_id),
        discord_api_base=double.api_base,
        discord_gateway_url=double.gateway_url,
    )
    task = asyncio.create_task(run_bot(settings))
    try:
        await double.wait_connected()
        await asyncio.wait_for(double.synced.wait(), 10)
        answer = await double.slash(double.alice, "games", {})
        assert answer.ephemeral
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert (tmp_path / "main.db").exists()
