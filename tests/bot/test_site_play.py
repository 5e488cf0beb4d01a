"""A move clicked on the site reaches the game's thread (issue 51, 2): the bot and its site in
one process, as by default; the move is played by the service as ``/move`` plays it, and the
delivery loop posts what it announces (its picture, the next player's ping) in the thread on
the Discord double, at once (no retry delay). The same through the Discord Activity (issue 51,
3): the game's card in its thread offers "Open the board"; a click answers with
``LAUNCH_ACTIVITY`` (callback 12), which starts an Activity in the thread with the clicking
player in it; the Activity's page (the SDK's mock client in Chromium, its code the double's)
makes a move; the bot posts it in the thread. ``/open`` in the thread launches it too, and with
Activities off it answers with the game's page instead."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

import pytest
from aiohttp.test_utils import TestServer

from bot.service import GameService, User
from bot.web import RateLimit, create_app
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double import User as DoubleUser
from tests.discord_double.oauth import CLIENT_ID, CLIENT_SECRET
from tests.helpers import chromium, needs_chromium, start_challenge

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = playwright.expect
pytestmark = needs_chromium()


async def _click_a_move(
    service: GameService, path: str, session: str | None = None, shows: str | None = None
) -> None:
    """The site served, ``path`` opened in Chromium (signed in with the session's cookie when
    given; once ``#people`` shows ``shows``, when given), the first target clicked (六面体's
    cube is picked already) and the answer received."""
    server = TestServer(create_app(service, limit=RateLimit(1000.0, 10_000.0)), host="127.0.0.1")
    await server.start_server()
    base = str(server.make_url("")).rstrip("/")
    try:
        async with playwright.async_playwright() as p:
            chrome = await p.chromium.launch(executable_path=chromium())
            context = await chrome.new_context(locale="en-US")
            if session is not None:
                cookie = {"name": "banmen_session", "value": session, "url": base}
                await context.add_cookies([cookie])
            page = await context.new_page()
            await page.goto(base + path)
            if shows is not None:
                await expect(page.locator("#people")).to_contain_text(re.compile(shows, re.I))
            await page.locator("#cells button.target").first.click()
            await expect(page.locator("#play-said")).to_have_attribute("data-answers", "1")
            await chrome.close()
    finally:
        await server.close()


async def _posted(
    service: GameService, double: DiscordDouble, game_id: int, thread_id: int, turn: Any
) -> Any:
    """The thread's message of the game's first move (its picture, the next player called),
    delivered once."""
    made = (await service.play.entries(game_id))[0].move
    posted = await double.wait_for_message(
        thread_id, lambda m: made in double.text_of(m), after=int(turn["id"])
    )
    assert posted["attachments"]  # the new position's picture
    assert await service.pending_announcements() == []  # nothing left to hand out
    return posted


def _signing(harness: Harness, **more: Any) -> GameService:
    """The harness's service with the site's Discord sign-in (and ``more`` settings) on."""
    service = harness.service
    assert service is not None
    service.ctx.settings = replace(
        service.ctx.settings, oauth_client_id=CLIENT_ID, oauth_client_secret=CLIENT_SECRET, **more
    )
    return service


def _players(double: DiscordDouble, turn: Any) -> tuple[DoubleUser, DoubleUser]:
    """Who is to move in the game whose first turn message is ``turn``, and the other."""
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    return to_move, double.bob if to_move is double.alice else double.alice


async def test_a_move_clicked_on_the_site_is_posted_in_the_thread(
    harness: Harness, double: DiscordDouble
) -> None:
    service = _signing(harness)
    thread_id, turn = await start_challenge(double)
    to_move, other = _players(double, turn)
    game_id = (await service.play.game_at(str(to_move.id), str(thread_id), str(thread_id))) or 0
    token = await service.review.page_token(game_id)
    session = await service.review.sign_in(User(str(to_move.id), to_move.name))
    await _click_a_move(service, f"/g/{token}", session=session.secret)
    posted = await _posted(service, double, game_id, thread_id, turn)
    assert double.pinged(posted) == [other.id]  # the next player is called
    assert re.search(re.escape(to_move.name), double.text_of(posted), re.IGNORECASE)


async def test_open_the_board_launches_the_activity_and_its_move_is_posted(
    harness: Harness, double: DiscordDouble
) -> None:
    service = _signing(harness, activity=True)
    thread_id, turn = await start_challenge(double)
    to_move, other = _players(double, turn)
    buttons = double.buttons(turn)
    assert "Open the board" in buttons
    opened = await double.click(to_move, turn, buttons["Open the board"])
    assert opened.callback is not None and opened.callback.type == 12  # LAUNCH_ACTIVITY
    instance = double.activities.launches[-1]
    assert instance.channel_id == thread_id and instance.users == [to_move.id]
    # /open in the thread, by the other player: the same Activity, now with both in it
    again = await double.slash(other, "open", channel=thread_id)
    assert again.callback is not None and again.callback.type == 12
    assert double.activities.launches[-1] is instance and instance.users == [to_move.id, other.id]
    game_id = (await service.play.game_at(str(to_move.id), str(thread_id), str(thread_id))) or 0
    code = double.oauth.activity_code(to_move)
    query = urlencode({"instance_id": instance.instance_id, "mock_code": code})
    await _click_a_move(service, f"/activity?{query}", shows=f"{other.name}, here")
    posted = await _posted(service, double, game_id, thread_id, turn)
    assert double.pinged(posted) == [other.id]
    # Activities off: /open answers with the game's page, privately
    service.ctx.settings = replace(
        service.ctx.settings, activity=False, public_url="https://banmen.example"
    )
    linked = await double.slash(other, "open", channel=thread_id)
    assert linked.ephemeral and "https://banmen.example/g/" in linked.text
    assert len(double.activities.launches) == 2
