"""A move clicked on the site reaches the game's thread (issue 51, 2): the bot and its site in
one process, as by default; the move is played by the service as ``/move`` plays it, and the
delivery loop posts what it announces (its picture, the next player's ping) in the thread on
the Discord double, at once (no retry delay)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from aiohttp.test_utils import TestServer

from bot.service import User
from bot.web import RateLimit, create_app
from tests.bot.conftest import Harness
from tests.discord_double import DiscordDouble
from tests.discord_double.oauth import CLIENT_ID, CLIENT_SECRET
from tests.helpers import chromium, needs_chromium, start_challenge

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = playwright.expect
pytestmark = needs_chromium()


async def test_a_move_clicked_on_the_site_is_posted_in_the_thread(
    harness: Harness, double: DiscordDouble
) -> None:
    service = harness.service
    assert service is not None
    service.ctx.settings = replace(
        service.ctx.settings, oauth_client_id=CLIENT_ID, oauth_client_secret=CLIENT_SECRET
    )
    thread_id, turn = await start_challenge(double)
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    other = double.bob if to_move is double.alice else double.alice
    game_id = (await service.play.game_at(str(to_move.id), str(thread_id), str(thread_id))) or 0
    token = await service.review.page_token(game_id)
    session = await service.review.sign_in(User(str(to_move.id), to_move.name))
    server = TestServer(create_app(service, limit=RateLimit(1000.0, 10_000.0)), host="127.0.0.1")
    await server.start_server()
    base = str(server.make_url("")).rstrip("/")
    try:
        async with playwright.async_playwright() as p:
            chrome = await p.chromium.launch(executable_path=chromium())
            context = await chrome.new_context(locale="en-US")
            await context.add_cookies(
                [{"name": "banmen_session", "value": session.secret, "url": base}]
            )
            page = await context.new_page()
            await page.goto(f"{base}/g/{token}")
            target = page.locator("#cells button.target").first  # the cube is picked already
            await target.click()
            await expect(page.locator("#play-said")).to_have_attribute("data-answers", "1")
            await chrome.close()
    finally:
        await server.close()
    made = (await service.play.entries(game_id))[0].move
    posted = await double.wait_for_message(
        thread_id, lambda m: made in double.text_of(m), after=int(turn["id"])
    )
    assert posted["attachments"]  # the new position's picture
    assert double.pinged(posted) == [other.id]  # the next player is called
    assert re.search(re.escape(to_move.name), double.text_of(posted), re.IGNORECASE)
    # posted once: the delivery loop reported it, nothing is left to hand out
    assert await service.pending_announcements() == []
