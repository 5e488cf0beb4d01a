"""The site as a process of its own (issue 49, 3): ``python -m bot site`` over the store the
bot processes use. A move committed by another process (here: a service in the test) reaches
a page's live stream on the site process; the site keeps no game in memory, so every page
shows the store as it is; SIGTERM ends it cleanly."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.config import Settings
from bot.service import GameService
from tests.helpers import ALICE, BOB, bot_env, python_m_bot


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _next_event(stream: aiohttp.ClientResponse) -> dict[str, Any]:
    """The next ``data:`` event of a server-sent stream (keep-alive comments skipped)."""
    while True:
        line = (await stream.content.readline()).decode()
        assert line, "the stream ended"
        if line.startswith("data: "):
            data: dict[str, Any] = json.loads(line.removeprefix("data: "))
            return data


async def test_a_site_process_sees_the_moves_of_another(db_url: str, tmp_path: Path) -> None:
    service = await GameService.open(db_url, settings=Settings(db_path=db_url, web_port=0))
    port = _free_port()
    env = bot_env(tmp_path, BANMEN_DB=db_url, BANMEN_WEB_PORT=str(port))
    try:
        made = await service.play.create_game(
            ALICE, "rokumentai", seated=[BOB], seating="listed", guild_id="123456789012345678"
        )
        gid = made.game_id
        assert gid is not None
        token = await service.review.page_token(gid)
        async with python_m_bot(env, tmp_path, "site") as site:
            await site.wait_line(lambda line: "the site alone, on" in line)
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/g/{token}") as page:
                    assert page.status == 200
                async with http.get(f"{base}/g/{token}/events", timeout=None) as stream:
                    first = await _next_event(stream)
                    assert first["total"] == 0 and first["live"]
                    seen: list[float] = []
                    for _ in range(3):
                        state = service.play.current_state(gid)
                        assert state is not None
                        move = state.format_move(state.legal_moves()[0])
                        mover = ALICE if state.current_player() == 0 else BOB
                        moved_at = time.perf_counter()
                        await service.play.move(gid, mover, move)
                        now = await asyncio.wait_for(_next_event(stream), 10)
                        seen.append(time.perf_counter() - moved_at)
                        assert now["total"] == first["total"] + len(seen)
                        assert now["moves"][-1]  # the move, as the page writes it
                    # a page read now is the store's game, not a copy kept from before
                    async with http.get(f"{base}/g/{token}") as again:
                        assert again.status == 200
                print(f"move to page: {', '.join(f'{s * 1000:.0f} ms' for s in seen)}")
            site.proc.send_signal(signal.SIGTERM)
            assert await site.finish() == 0
            assert "Traceback" not in "\n".join(site.lines)
    finally:
        await service.close()


async def test_a_site_process_needs_a_port(tmp_path: Path) -> None:
    env = bot_env(tmp_path)  # BANMEN_WEB_PORT=0
    async with python_m_bot(env, tmp_path, "site") as site:
        assert await site.finish() == 2
        assert any("needs a port" in line for line in site.lines)


async def test_postgres_tells_of_a_change_with_its_commit(db_url: str) -> None:
    """PostgreSQL's store notifies every listening process of a committed change (its game's
    id, and whether its page shows it; nothing for a change rolled back); SQLite's has no
    notifications (a site polls)."""
    writer = await GameService.open(db_url, settings=Settings(db_path=db_url, web_port=0))
    listener = await GameService.open(db_url, settings=Settings(db_path=db_url, web_port=0))
    heard: asyncio.Queue[tuple[int, bool]] = asyncio.Queue()
    try:
        stop = await listener.ctx.store.listen_games(
            lambda gid, v, g, shown: heard.put_nowait((gid, shown))
        )
        if db_url.startswith("postgresql"):
            assert stop is not None
            made = await writer.play.create_game(
                ALICE, "rokumentai", seated=[BOB], seating="listed", guild_id="1"
            )
            assert made.game_id is not None
            state = writer.play.current_state(made.game_id)
            assert state is not None
            await writer.play.move(made.game_id, ALICE, state.format_move(state.legal_moves()[0]))
            assert await asyncio.wait_for(heard.get(), 10) == (made.game_id, True)
            # the message of its card recorded: a change the page does not show
            await writer.play.set_game_location(made.game_id, "5", "6", "7")
            assert await asyncio.wait_for(heard.get(), 10) == (made.game_id, False)
            await stop()
        else:
            assert stop is None
    finally:
        await writer.close()
        await listener.close()


async def test_a_bot_process_follows_a_move_made_elsewhere(db_url: str) -> None:
    """A move committed by another process (a click on a site process) in a game this process
    delivers for: on PostgreSQL the notification makes it read the game again, its delivery
    loop wakes at once and finds what the move announced, and its computer answers; SQLite
    has no notifications (one process runs there)."""
    settings = Settings(db_path=db_url, web_port=0)
    bot = await GameService.open(db_url, settings=settings, render_images=False)
    site = await GameService.open(db_url, settings=settings, render_images=False)
    try:
        await bot.follow_other_processes()
        made = await bot.play.create_game(ALICE, "rokumentai", ai=[1], seed="fixed")
        gid = made.game_id
        assert gid is not None
        await bot.play.computer.settle()  # the computer's first move, if it plays first
        await bot.announced(*[r.outbox for r in await bot.pending_announcements() if r.outbox])
        before = await site.ctx.games.read(gid)
        state = before.state
        bot.timer_changed.clear()
        moved = await site.play.move(gid, ALICE, state.format_move(state.legal_moves()[0]))
        if not db_url.startswith("postgresql"):
            return
        await asyncio.wait_for(bot.timer_changed.wait(), 10)
        cached = bot.ctx.games.cached(gid)
        assert cached is not None and len(cached.entries) == len(before.entries) + 1
        # what the move announced is the bot's to post (the site process posts nothing)
        pending = await bot.pending_announcements()
        assert moved.outbox is not None and [r.outbox for r in pending] == [moved.outbox]
        answered = await bot.play.computer.settle()  # its turn was noticed: it answers
        after = bot.ctx.games.cached(gid)
        assert answered and after is not None and after.is_turn_of(ALICE.id)
    finally:
        await bot.close()
        await site.close()
