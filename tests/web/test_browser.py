"""The web pages in a real browser: Playwright for Python driving Debian's Chromium (launched by
its path; ``make test`` installs it, ``scripts/install-chromium.sh``). Skipped, saying why, only
when no Chromium can be found.

One SQLite store is enough here (the pages read through the service, whose store is tested on
both backends elsewhere)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from bot.service import GameService
from bot.web import RateLimit, create_app
from tests.helpers import (
    BOB,
    chromium,
    needs_chromium,
    pixels,
    play_on,
    signing_settings,
    start,
    suji_with,
)

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = playwright.expect


CHROMIUM = chromium()
pytestmark = needs_chromium()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return str(tmp_path / "banmen.db")


LOADED = """img => img.complete && img.naturalWidth > 0 ? true : new Promise(done =>
    img.addEventListener("load", () => done(true), { once: true }))"""


class Browser:
    """A page of the site in Chromium, with what it logged and everything it received."""

    def __init__(self, base: str, page: Any) -> None:
        self.base = base
        self.page = page
        self.errors: list[str] = []
        self.reading: list[asyncio.Future[bytes]] = []
        self.closing = False
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("response", self._received)

    def _received(self, response: Any) -> None:
        if self.closing:  # the page goes before this body could come: nobody would await it
            return
        if "/events" not in response.url:  # a stream still open has no body (test_site reads one)
            self.reading.append(asyncio.ensure_future(response.body()))

    async def received(self) -> bytes:
        """Every body received so far (pages, scripts, pictures, files), read as it came."""
        bodies = await asyncio.gather(*self.reading)
        return b"".join(bodies)

    async def goto(self, path: str) -> None:
        await self.page.goto(self.base + path)

    async def ply(self) -> int:
        return int(await self.page.get_attribute("#game", "data-ply"))

    async def current(self) -> list[str]:
        return await self.page.eval_on_selector_all(
            "#moves a[aria-current=true]", "els => els.map(e => e.dataset.ply)"
        )

    async def picture(self) -> bytes:
        """The board as shown, once its picture has loaded (waits run as functions: the page's
        CSP forbids evaluating strings)."""
        board = self.page.locator("#board")
        await board.evaluate(LOADED)
        return bytes(await board.screenshot())


@pytest.fixture
async def browser(real: GameService, tmp_path: Path) -> AsyncIterator[Browser]:
    app = create_app(real, limit=RateLimit(rate=1000.0, burst=10_000.0))
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    async with playwright.async_playwright() as p:
        chrome = await p.chromium.launch(executable_path=CHROMIUM)
        context = await chrome.new_context(locale="en-US", accept_downloads=True)
        page = await context.new_page()
        page.set_default_timeout(15_000)
        seen = Browser(str(server.make_url("")).rstrip("/"), page)
        try:
            yield seen
        finally:
            # Bodies nobody asked for: read (or failed) before the page goes, never left pending.
            # A response can still come now (the favicon the page asked for after its load
            # event): reading it would fail when the page closes, a task nobody awaits.
            seen.closing = True
            await asyncio.gather(*seen.reading, return_exceptions=True)
            await context.close()
            await chrome.close()
            await server.close()


async def test_step_through_a_finished_game(
    real: GameService, browser: Browser, tmp_path: Path
) -> None:
    gid = await start(real, "rokumentai")
    made = await play_on(real, gid, 6)
    await real.play.resign(gid, BOB)
    token = await real.review.page_token(gid)
    await browser.goto(f"/g/{token}")
    page = browser.page
    assert await browser.ply() == made and await browser.current() == [str(made)]
    last = await browser.picture()
    last_words = await page.get_attribute("#board", "alt")
    assert last_words is not None and last_words.startswith(f"Rokumentai, ply {made}. Game over")
    await page.click("#first")
    assert await browser.ply() == 0 and await browser.current() == []
    # the picture's alt follows the step: the start in words
    await expect(page.locator("#board")).to_have_attribute(
        "alt", re.compile(r"^Rokumentai, ply 0\.")
    )
    assert (await page.get_attribute("#board", "src")).startswith(f"/g/{token}/0.png")
    start_picture = await browser.picture()
    assert start_picture != last
    await page.keyboard.press("ArrowRight")
    assert await browser.ply() == 1 and await browser.current() == ["1"]
    assert await browser.picture() not in (start_picture, last)
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowLeft")
    assert await browser.ply() == 1
    await page.click("#moves a[data-ply='4']")
    assert await browser.ply() == 4 and await browser.current() == ["4"]
    assert "ply=4" in page.url
    await page.keyboard.press("End")
    assert await browser.ply() == made and await browser.picture() == last
    await page.click("#next")  # past the end stays there
    assert await browser.ply() == made
    # the record downloads
    async with page.expect_download() as info:
        await page.click("a[href$='record.kifu']")
    download = await info.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    expected = next(
        f.data for f in (await real.play.record(gid, None)).files if f.name.endswith(".kifu")
    )
    assert saved.name == f"banmen-{gid}.kifu" and saved.read_bytes() == expected
    assert browser.errors == []


async def test_a_running_game_updates_itself(real: GameService, browser: Browser) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 2)
    token = await real.review.page_token(gid)
    page = browser.page
    async with page.expect_response(lambda r: "/events" in r.url):
        await browser.goto(f"/g/{token}")
    before = await browser.picture()
    await play_on(real, gid, 1, seed=5)
    await expect(page.locator("#moves li")).to_have_count(3)
    await expect(page.locator("#game")).to_have_attribute("data-ply", "3")
    # a screen reader hears the new move: the new position in words, in the live region
    announce = page.locator("#announce[aria-live=polite]")
    await expect(announce).to_have_text(re.compile(r"^Rokumentai, ply 3\. .*Last move: "))
    await expect(page.locator("#board")).to_have_attribute(
        "alt", re.compile(r"^Rokumentai, ply 3\.")
    )
    assert await browser.current() == ["3"]
    assert await browser.picture() != before
    await real.play.resign(gid, BOB)
    await expect(page.locator("#ends p").first).to_be_visible()
    assert browser.errors == []


async def test_no_hidden_information_in_the_traffic(real: GameService, browser: Browser) -> None:
    first, second = await suji_with(real, "123/456"), await suji_with(real, "654/321")
    solitaire = await start(real, "yosuko")
    await play_on(real, solitaire, 3)
    seed = (await real.play.game_info(solitaire)).seed
    shown = []
    for gid in (first, second, solitaire):
        token = await real.review.page_token(gid)
        await browser.goto(f"/g/{token}")
        await browser.picture()
        shown.append(
            await (await browser.page.request.get(f"{browser.base}/g/{token}/0.png")).body()
        )
        await browser.page.request.get(f"{browser.base}/g/{token}/record.kifu")
    received = await browser.received()
    for secret in (b"123/456", b"654/321", seed.encode()):
        assert secret not in received
    assert pixels(shown[0]) == pixels(shown[1])  # both arrangements look the same to a spectator
    assert browser.errors == []


async def test_the_japanese_page(real: GameService, browser: Browser) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 2)
    token = await real.review.page_token(gid)
    await browser.goto(f"/g/{token}?lang=ja")
    page = browser.page
    assert await page.get_attribute("html", "lang") == "ja"
    assert await page.inner_text("h2") == "指し手"
    assert "2手目" in await page.inner_text("#where")
    await page.keyboard.press("ArrowLeft")
    assert "1手目" in await page.inner_text("#where")
    await page.click("a.lang")
    assert await page.get_attribute("html", "lang") == "en"
    assert browser.errors == []


async def test_a_long_or_right_to_left_name_neither_widens_the_page_nor_turns_it(
    real: GameService, browser: Browser
) -> None:
    from bot.service import User

    long_name = User("long", "W" * 300)
    rtl = User("rtl", "\u202eevil")
    reply = await real.play.create_game(rtl, "rokumentai", seated=[long_name], seating="listed")
    assert reply.game_id is not None
    token = await real.review.page_token(reply.game_id)
    await browser.goto(f"/g/{token}")
    page = browser.page
    width = await page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]  # the 300 letters wrap inside the page
    names = await page.eval_on_selector_all("#seats bdi, .seats bdi, li bdi", "els => els.length")
    assert names >= 2  # each name is isolated from the text around it
    status = await page.inner_text("#status")
    assert "\u2068\u202eevil\u2069" in status  # the name to move, isolated in the sentence
    assert browser.errors == []


async def test_the_analysis_board_in_the_browser(real: GameService, browser: Browser) -> None:
    """Step to a move, follow the page's link to its analysis board (the step moved the link
    too), try a move by clicking it, take it back, ask the computer: each a page of its own,
    with its picture described, and nothing logged as an error (the CSP holds)."""
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 6)
    await real.play.resign(gid, BOB)
    token = await real.review.page_token(gid)
    await browser.goto(f"/g/{token}")
    page = browser.page
    await page.click("#moves a[data-ply='2']")
    assert await page.get_attribute("#analyse", "href") == f"/g/{token}/analyse?ply=2&lang=en"
    await page.click("#analyse")
    await expect(page.locator("h1")).to_have_text("Analysis board: Rokumentai")
    await expect(page.locator("main")).to_contain_text("From move 2 of 6")
    start_picture = await browser.picture()
    await page.locator("ul.legal a").first.click()
    await expect(page.locator("main")).to_contain_text("Take the last one back")
    assert await browser.picture() != start_picture
    alt = await page.get_attribute("#board", "alt")
    assert alt is not None and alt.startswith("Rokumentai, ply 3")
    await page.click("text=Take the last one back")
    await expect(page.locator("main")).to_contain_text("None yet")
    await page.click("text=Ask for its evaluation and best line")
    await expect(page.locator("#line")).to_contain_text("its line:")
    assert browser.errors == []


async def test_sign_in_with_discord_in_the_browser(tmp_path: Path) -> None:
    """The whole sign-in in Chromium: the site, Discord's authorize page (the double's, on
    another address) and back, the visitor's own games, and signing out by the page's form."""
    from bot.clock import FakeClock
    from bot.service import User
    from tests.discord_double import DiscordDouble

    db = str(tmp_path / "signed.db")
    async with DiscordDouble() as double:
        service = await GameService.open(
            db, clock=FakeClock(), settings=signing_settings(db, double)
        )
        alice = User(str(double.alice.id), "alice")
        made = await service.play.create_game(
            alice, "rokumentai", seated=[User(str(double.bob.id), "bob")], seed="s"
        )
        assert made.game_id is not None
        double.oauth.signing_in = double.alice
        server = TestServer(create_app(service), host="127.0.0.1")
        await server.start_server()
        try:
            async with playwright.async_playwright() as p:
                chrome = await p.chromium.launch(executable_path=CHROMIUM)
                page = await chrome.new_page(locale="en-US")
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                base = str(server.make_url("")).rstrip("/")
                await page.goto(base + "/")
                await page.click("text=Sign in with Discord")
                await expect(page.locator("header")).to_contain_text("My games")  # back here
                assert page.url == base + "/"
                await page.click("header >> text=My games")
                await expect(page.locator("h1")).to_have_text("My games")
                await expect(page.locator("main")).to_contain_text("Alice")
                await expect(page.locator("ul.listed")).to_contain_text("Rokumentai")
                await page.click("button:has-text('Sign out')")
                await expect(page.locator("header")).to_contain_text("Sign in with Discord")
                assert errors == [] and double.oauth.exchanges == 1
                await chrome.close()
        finally:
            await server.close()
            await service.close()
