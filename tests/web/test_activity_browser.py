"""The board as a Discord Activity in a real browser (issue 51, 3): Playwright driving Debian's
Chromium over ``/activity`` outside Discord's frame, where the page runs the Embedded App SDK's
own mock client (the bundled SDK, as in Discord); its ``authorize`` answers with a code the
Discord double gave for the participant, which the site trades at the double. A seated
participant clicks a move; a spectator in the same Activity sees it arrive live; both pages
load without a console error. One SQLite store (the Activity's rules run on both stores in
test_activity.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.service import GameService, User
from tests.discord_double import DiscordDouble
from tests.discord_double import User as DoubleUser
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    activity_settings,
    needs_chromium,
    placed,
    site_in_chromium,
)
from tests.helpers import start as start_game

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = playwright.expect

pytestmark = needs_chromium()
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
THREAD, CHANNEL, GUILD = 1_400_000_000_000_000_011, 1_400_000_000_000_000_012, 1_400_000_000_013


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return str(tmp_path / "banmen.db")


@dataclass
class Activity:
    """The site in Chromium beside the Discord double, and an Activity launched in a game's
    thread."""

    service: GameService
    double: DiscordDouble
    base: str
    chrome: Any
    errors: list[str]
    asked: list[tuple[str, dict[str, str]]]
    """Every request the pages made: its address and headers."""

    async def open(
        self,
        user: User,
        instance: str,
        locale: str = "en-US",
        shows: str = "#game",
        bypass_csp: bool = False,
    ) -> Any:
        """``user``'s Activity page (a browser context of its own) once it shows ``shows`` (the
        game): the mock client's ``authorize`` gives the code Discord gave ``user``
        (``bypass_csp``: for axe, injected as a script the page's CSP would stop)."""
        code = self.double.oauth.activity_code(DoubleUser(int(user.id), user.name))
        context = await self.chrome.new_context(locale=locale, bypass_csp=bypass_csp)
        page = await context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: self.asked.append((r.url, r.headers)))
        query = urlencode({"instance_id": instance, "mock_code": code, "channel_id": THREAD})
        await page.goto(f"{self.base}/activity?{query}")
        await expect(page.locator(shows)).to_be_visible()
        return page


@pytest.fixture
async def activity(db_url: str) -> AsyncIterator[Activity]:
    async with site_in_chromium(db_url, activity_settings) as (service, double, base, chrome):
        yield Activity(service, double, base, chrome, [], [])


async def test_a_participant_plays_and_a_spectator_watches_it_live(activity: Activity) -> None:
    service, double = activity.service, activity.double
    gid = await start_game(service, "rokumentai")
    await placed(service, gid, CHANNEL, THREAD)
    first = (await service.play.game_info(gid)).seats[0].user_id
    mover, waiting = (ALICE, BOB) if first == ALICE.id else (BOB, ALICE)
    instance = double.activities.launch(THREAD, GUILD, int(mover.id)).instance_id
    double.activities.join(instance, int(CAROL.id))
    watcher = await activity.open(CAROL, instance)
    await expect(watcher.locator("#people-you")).to_have_text("You are watching.")
    await expect(watcher.locator("#people")).to_contain_text(f"{mover.name}, here")
    await expect(watcher.locator("#people")).to_contain_text(f"{waiting.name}, not here")
    assert await watcher.locator("#play").count() == 0
    player = await activity.open(mover, instance)
    await expect(player.locator("#people-you")).to_have_text("You play in this game.")
    # the seat's picture came with the bearer token, shown from memory
    await expect(player.locator("#board")).to_have_attribute("src", re.compile(r"^blob:"))
    target = player.locator("#cells button.target").first  # the cube is picked already
    await target.click()
    await expect(player.locator("#play-said")).to_have_attribute("data-answers", "1")
    assert len(await service.play.entries(gid)) == 1
    # the spectator's page follows the game: the move is in its list at once
    await expect(player.locator("#moves li")).to_have_count(1)
    shown = await player.locator("#moves li").inner_text()
    await expect(watcher.locator("#moves li")).to_have_text([shown])
    # each participant counts by their pass, not by Discord's proxy's address: the stream
    # carries it in its address, the board's requests in a header
    streams = [url for url, _ in activity.asked if "/events?" in url]
    assert len(streams) == 2 and all("pass=" in url for url in streams)
    boards = [h for url, h in activity.asked if "/seat.json" in url]
    assert boards and all(h.get("x-banmen-pass") for h in boards)
    assert activity.errors == []


async def test_an_activity_in_a_channel_of_several_games_asks_which(activity: Activity) -> None:
    """Launched in the channel itself (not a game's thread): its running games to choose from,
    then the one chosen, in Japanese for a Japanese browser."""
    service, double = activity.service, activity.double
    games = [await start_game(service, "rokumentai") for _ in range(2)]
    for n, gid in enumerate(games):
        await placed(service, gid, CHANNEL, THREAD + 100 + n)
    instance = double.activities.launch(CHANNEL, GUILD, int(CAROL.id)).instance_id
    page = await activity.open(CAROL, instance, locale="ja-JP", shows="#activity-games")
    await expect(page.locator("#activity-choose")).to_have_text("どの対局にしますか？")
    choices = page.locator("#activity-list button")
    await expect(choices).to_have_count(2)
    await choices.first.click()
    await expect(page.locator("#people-you")).to_have_text("あなたは観戦しています。")
    await expect(page.locator("#activity-games")).to_be_hidden()
    assert activity.errors == []


async def test_the_activity_page_meets_wcag_aa(activity: Activity, tmp_path: Path) -> None:
    """A seated participant's Activity page, its board built, has no WCAG A or AA violation
    that axe finds (as the site's other pages: test_accessibility.py)."""
    axe = pytest.importorskip("axe_playwright_python.async_playwright")
    service, double = activity.service, activity.double
    gid = await start_game(service, "rokumentai")
    await placed(service, gid, CHANNEL, THREAD)
    first = (await service.play.game_info(gid)).seats[0].user_id
    mover = ALICE if first == ALICE.id else BOB
    instance = double.activities.launch(THREAD, GUILD, int(mover.id)).instance_id
    page = await activity.open(mover, instance, bypass_csp=True)
    await expect(page.locator("#board")).to_have_attribute("src", re.compile(r"^blob:"))
    await page.screenshot(path=str(tmp_path / "activity.png"), full_page=True)
    results = await axe.Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}})
    found = [
        f"{v['id']}: {v['help']} at " + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        for v in results.response["violations"]
    ]
    assert found == []
