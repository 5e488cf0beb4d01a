"""The site meets WCAG 2.1 AA (issue 46, 5), checked in Chromium: axe-core (the
axe-playwright-python wheel carries it; nothing is fetched) finds no violation of the WCAG 2.0
and 2.1 A and AA rules on any kind of page, in English and Japanese; and the pages work by
keyboard alone: the step-through, the move list and the language link are reached with Tab,
work with Enter and the arrow keys, keep the focus where it was, and show where it is.

One SQLite store is enough here (the pages read through the service)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from bot.clock import FakeClock
from bot.service import GameService, User
from bot.web import RateLimit, create_app
from tests.discord_double import DiscordDouble
from tests.helpers import ALICE, BOB, CAROL, chromium, play_on, signing_settings, start

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
axe_playwright = pytest.importorskip(
    "axe_playwright_python.async_playwright", reason="axe-playwright-python is not installed"
)
expect = playwright.expect

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
GUILD = "123456789012345678"


CHROMIUM = chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium to drive")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return str(tmp_path / "banmen.db")


class Site:
    """The site in Chromium, with a signed-in visitor's cookie to hand."""

    def __init__(self, base: str, service: GameService, context: Any, page: Any) -> None:
        self.base = base
        self.service = service
        self.context = context
        self.page = page

    async def violations(self, path: str) -> list[str]:
        """axe's WCAG A and AA violations of the page at ``path``, one readable line each."""
        await self.page.goto(self.base + path)
        if await self.page.locator("#play").count():  # a player's board: scanned once built
            seat_picture = re.compile(r"/seat\.png")
            await expect(self.page.locator("#game")).to_have_attribute(
                "data-seat-picture", seat_picture
            )
        results = await axe_playwright.Axe().run(
            self.page, options={"runOnly": {"type": "tag", "values": WCAG_AA}}
        )
        return [
            f"{path}: {v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            for v in results.response["violations"]
        ]


@pytest.fixture
async def site(db_url: str) -> AsyncIterator[Site]:
    async with DiscordDouble() as double:
        settings = signing_settings(db_url, double)
        service = await GameService.open(db_url, clock=FakeClock(), settings=settings)
        server = TestServer(
            create_app(service, limit=RateLimit(rate=1000.0, burst=10_000.0)), host="127.0.0.1"
        )
        await server.start_server()
        try:
            async with playwright.async_playwright() as p:
                chrome = await p.chromium.launch(executable_path=CHROMIUM)
                # axe is injected as a script: the site's CSP (no inline script) would stop it
                context = await chrome.new_context(locale="en-US", bypass_csp=True)
                page = await context.new_page()
                page.set_default_timeout(15_000)
                yield Site(str(server.make_url("")).rstrip("/"), service, context, page)
                await chrome.close()
        finally:
            await server.close()
            await service.close()


async def _pages(site: Site) -> list[str]:
    """A page of every kind the site serves."""
    svc = site.service
    running = await start(svc, "rokumentai")
    await play_on(svc, running, 5)
    three = await start(svc, "sangokushi")
    await play_on(svc, three, 6)
    await svc.play.resign(three, CAROL)
    suji = await start(svc, "suji-shogi")
    await play_on(svc, suji, 1)  # one secret setup in
    rated = await svc.play.create_game(
        ALICE, "socrates-uchu", seated=[BOB], guild_id=GUILD, seating="listed", rated=True
    )
    assert rated.game_id is not None
    await play_on(svc, rated.game_id, 4)
    await svc.play.resign(rated.game_id, BOB)
    await svc.play.set_guild_setting(GUILD, "web", "public")
    tokens = [await svc.review.page_token(g) for g in (running, three, suji, rated.game_id)]
    session = await svc.review.sign_in(User(ALICE.id, "alice"))
    await site.context.add_cookies(
        [{"name": "banmen_session", "value": session.secret, "url": site.base}]
    )
    return [
        "/",
        "/?lang=ja",
        "/rules/sangokushi",
        "/rules/rokumentai?page=2&lang=ja",
        f"/g/{tokens[0]}",
        f"/g/{tokens[0]}?ply=2&lang=ja",
        f"/g/{tokens[1]}",
        f"/g/{tokens[1]}?ply=3",
        f"/g/{tokens[2]}",
        f"/g/{tokens[1]}/analyse?ply=3",
        f"/g/{tokens[1]}/analyse?ply=3&lang=ja",
        "/explore/socrates-uchu",
        "/explore/sangokushi?lang=ja",
        "/explore/socrates-twothree?pool=computer",
        f"/s/{GUILD}",
        f"/s/{GUILD}/p/{ALICE.id}?lang=ja",
        "/me",
        "/g/no-such-page",
    ]


async def test_no_wcag_aa_violation_on_any_page(site: Site) -> None:
    found: list[str] = []
    for path in await _pages(site):
        found += await site.violations(path)
    assert not found, "\n".join(found)


async def test_the_scan_finds_what_it_should(site: Site) -> None:
    """The scan itself works here (no network, the page's CSP): text of too little contrast
    and an image without alt, put on a page, are both found."""
    await site.page.goto(site.base + "/")
    await site.page.evaluate(
        """() => {
            const p = document.createElement("p");
            p.textContent = "faint words";
            p.style.color = "#bbbbbb";
            p.style.background = "#ffffff";
            document.querySelector("main").appendChild(p);
            const img = document.createElement("img");
            img.src = "/static/favicon.svg";
            document.querySelector("main").appendChild(img);
        }"""
    )
    results = await axe_playwright.Axe().run(
        site.page, options={"runOnly": {"type": "tag", "values": WCAG_AA}}
    )
    found = {v["id"] for v in results.response["violations"]}
    assert {"color-contrast", "image-alt"} <= found


async def _tab_to(page: Any, selector: str, most: int = 80) -> None:
    """Press Tab until ``selector`` has the focus (the keyboard's way there)."""
    for _ in range(most):
        await page.keyboard.press("Tab")
        if await page.evaluate(
            "s => document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
    raise AssertionError(f"Tab never reached {selector}")


async def _outline(page: Any) -> tuple[str, float]:
    """The focused element's outline: its style and width in pixels."""
    style, width = await page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"""
    )
    return str(style), float(width)


async def test_the_game_page_by_keyboard_alone(site: Site) -> None:
    svc = site.service
    gid = await start(svc, "rokumentai")
    await play_on(svc, gid, 6)
    await svc.play.resign(gid, BOB)
    token = await svc.review.page_token(gid)
    page = site.page
    await page.goto(f"{site.base}/g/{token}")

    async def ply() -> int:
        return int(await page.get_attribute("#game", "data-ply"))

    assert await ply() == 6
    await _tab_to(page, "#first")
    assert await _outline(page) == ("solid", 3.0)  # the focus shows
    await page.keyboard.press("Enter")
    assert await ply() == 0
    await _tab_to(page, "#next")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    assert await ply() == 2
    assert await page.evaluate("() => document.activeElement.id") == "next"  # focus kept
    await page.keyboard.press("ArrowRight")
    assert await ply() == 3
    await page.keyboard.press("End")
    assert await ply() == 6
    await page.keyboard.press("Home")
    assert await ply() == 0
    # the move list: each move a link, Enter shows it and marks it (in words too: aria-current)
    await _tab_to(page, "#moves a[data-ply='4']")
    await page.keyboard.press("Enter")
    assert await ply() == 4
    assert await page.get_attribute("#moves a[data-ply='4']", "aria-current") == "true"
    assert await page.evaluate("() => document.activeElement.dataset.ply") == "4"
    # the keys are said on the page, for whoever cannot see them guessed
    assert "← and → step through the moves" in await page.inner_text("#keys")
    # the language link, by keyboard: the same move, in Japanese
    await _tab_to(page, "header a.lang")
    assert await _outline(page) == ("solid", 3.0)
    await page.keyboard.press("Enter")
    await expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert "ply=4" in page.url


async def test_home_and_end_scroll_the_page_outside_the_board(site: Site) -> None:
    """Home and End step only from the board, its steps or the move list: elsewhere they are
    the page's own keys (a keyboard user scrolls with them)."""
    svc = site.service
    gid = await start(svc, "rokumentai")
    await play_on(svc, gid, 6)
    token = await svc.review.page_token(gid)
    page = site.page
    await page.goto(f"{site.base}/g/{token}?ply=3")
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    await page.keyboard.press("End")
    assert await page.get_attribute("#game", "data-ply") == "3"
