"""A site process reads a game once a move, and follows the notifications through a lost
connection (issue 49, 3; :mod:`bot.service.review.following`).

A site process keeps a copy of each game it reads, trusted only while PostgreSQL's
notifications say no newer version was committed; without them (SQLite, or the connection lost
until it is back) every read goes to the store. A bot process that heard nothing for a while
checks the games it holds against the store once it hears again."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest

from bot.config import Settings
from bot.service import GameService
from tests.helpers import ALICE, BOB


async def _open(url: str, **settings: Any) -> GameService:
    return await GameService.open(
        url, settings=Settings(db_path=url, web_port=0, **settings), render_images=False
    )


@pytest.fixture
async def writer(db_url: str) -> AsyncIterator[GameService]:
    """A bot process: it makes the moves."""
    service = await _open(db_url)
    yield service
    await service.close()


@pytest.fixture
async def site(db_url: str) -> AsyncIterator[GameService]:
    """A site process over the same store (its game cache keeps nothing)."""
    service = await _open(db_url, site_process=True, state_cache_size=0)
    yield service
    await service.close()


def count_reads(service: GameService) -> list[int]:
    """The games ``service`` reads from its store, as they are read."""
    store: Any = service.ctx.store
    reads: list[int] = []
    original = store.load_record

    async def load_record(game_id: int) -> Any:
        reads.append(game_id)
        return await original(game_id)

    store.load_record = load_record
    return reads


async def _game(writer: GameService) -> int:
    made = await writer.play.create_game(
        ALICE, "rokumentai", seated=[BOB], seating="listed", guild_id="1"
    )
    assert made.game_id is not None
    return made.game_id


async def _move(writer: GameService, gid: int) -> None:
    state = (await writer.ctx.games.read(gid)).state
    mover = ALICE if state.current_player() == 0 else BOB
    await writer.play.move(gid, mover, state.format_move(state.legal_moves()[0]))


async def test_a_site_process_reads_a_game_once_a_move(
    db_url: str, writer: GameService, site: GameService
) -> None:
    gid = await _game(writer)
    token = await writer.review.page_token(gid)
    reads = count_reads(site)
    first = await site.review.game_page(token)
    for _ in range(3):  # pages and their streams, looking again
        assert (await site.review.game_update(token)).version == first.version
    postgres = db_url.startswith("postgresql")
    # PostgreSQL tells of every change: the copy is the game; SQLite: each look reads it
    looks = reads.count(gid)
    assert looks <= 2 if postgres else looks >= 4  # (the record's kinds read it once)
    reads.clear()
    await _move(writer, gid)
    if postgres:  # the page's wait ends with the notification, and says the new version
        assert await asyncio.wait_for(site.review.game_changed(token, first.version), 10) > (
            first.version
        )
    for _ in range(3):
        update = await site.review.game_update(token)
        assert update.total == first.total + 1 and update.version > first.version
    assert reads.count(gid) == 1 if postgres else reads.count(gid) >= 3


async def test_a_site_process_trusts_no_copy_while_it_hears_nothing(
    postgres_url: str,
) -> None:
    writer, site = (
        await _open(postgres_url),
        await _open(postgres_url, site_process=True, state_cache_size=0),
    )
    try:
        gid = await _game(writer)
        token = await writer.review.page_token(gid)
        following = site.review.site.following
        await site.review.game_update(token)
        reads = count_reads(site)
        following._heard_all(False)  # as the store says when its connection is lost
        await _move(writer, gid)  # committed while nobody heard it
        assert (await site.review.game_update(token)).total == 1
        assert (await site.review.game_update(token)).total == 1
        assert reads.count(gid) >= 2  # every look read the store
        following._heard_all(True)  # listening again
        reads.clear()
        for _ in range(3):
            assert (await site.review.game_update(token)).total == 1
        assert reads.count(gid) == 1
    finally:
        await writer.close()
        await site.close()


async def test_the_notifications_come_back_after_a_lost_connection(postgres_url: str) -> None:
    """The server ends the listening session (a restart, a proxy's cut): the store says so,
    listens again on a new connection, says that too, and the changes are heard again."""
    writer, listener = await _open(postgres_url), await _open(postgres_url)
    heard: asyncio.Queue[int] = asyncio.Queue()
    hearing: asyncio.Queue[bool] = asyncio.Queue()
    stop = await listener.ctx.store.listen_games(
        lambda gid, v, g, s: heard.put_nowait(gid), hearing.put_nowait
    )
    assert stop is not None
    try:
        async with await psycopg.AsyncConnection.connect(postgres_url, autocommit=True) as admin:
            ended = await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s",
                (f"banmen banmen_games {os.getpid()}",),
            )
            assert [row[0] for row in await ended.fetchall()] == [True]
        assert await asyncio.wait_for(hearing.get(), 10) is False
        assert await asyncio.wait_for(hearing.get(), 30) is True
        gid = await _game(writer)
        await _move(writer, gid)
        assert await asyncio.wait_for(heard.get(), 10) == gid
    finally:
        await stop()
        await writer.close()
        await listener.close()


async def test_a_bot_process_catches_up_with_what_it_did_not_hear(postgres_url: str) -> None:
    bot, other = await _open(postgres_url), await _open(postgres_url)
    try:
        await bot.follow_other_processes()
        gid = await _game(bot)
        held = bot.ctx.games.cached(gid)
        assert held is not None
        stop = bot._following
        assert stop is not None
        await stop()  # deaf: what the other process commits now goes unheard
        await _move(other, gid)
        cached = bot.ctx.games.cached(gid)
        assert cached is not None and cached.row.version == held.row.version
        bot.timer_changed.clear()
        bot._hearing_again(True)  # as the store says once it listens again
        await asyncio.wait_for(bot.timer_changed.wait(), 10)  # the game read again
        cached = bot.ctx.games.cached(gid)
        assert cached is not None and len(cached.entries) == len(held.entries) + 1
    finally:
        bot._following = None
        await bot.close()
        await other.close()
