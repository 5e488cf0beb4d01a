"""Click to move in a real browser (issue 51, 2): Playwright driving Debian's Chromium over the
game page of a signed-in player. A move in every rule set by clicking (a piece and its target,
a piece in hand, a promotion asked for, 数字将棋's secret setup and 略式易双六's choices from the
list), by keyboard alone, a three-player 三国志 game by three browsers following each other,
and the refusals: someone not seated, a write without the session's CSRF token. One SQLite
store (the service's moves are tested on both stores elsewhere)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService, User
from engines.registry import all_games
from tests.helpers import (
    ALICE,
    BOB,
    CAROL,
    PEOPLE,
    needs_chromium,
    signing_settings,
    site_in_chromium,
    start,
)

playwright = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
expect = playwright.expect

pytestmark = needs_chromium()
RULE_SETS = tuple(g.id for g in all_games())
"""Every registered rule set."""


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return str(tmp_path / "banmen.db")


@dataclass
class Site:
    """The site in Chromium: one browser, a context (a cookie jar) per signed-in player."""

    service: GameService
    base: str
    chrome: Any
    errors: list[str]

    async def page_of(self, user: User) -> Any:
        """A page of a browser where ``user`` is signed in (the session the OAuth2 callback
        opens; test_sign_in.py goes through the flow itself)."""
        session = await self.service.review.sign_in(user)
        context = await self.chrome.new_context(locale="en-US")
        await context.add_cookies(
            [{"name": "banmen_session", "value": session.secret, "url": self.base}]
        )
        page = await context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        return page

    async def open(self, user: User, game_id: int) -> Any:
        """``user``'s page of the game, once its board is built."""
        page = await self.page_of(user)
        token = await self.service.review.page_token(game_id)
        await page.goto(f"{self.base}/g/{token}")
        seat_picture = re.compile(r"/seat\.png")  # play.js has the seat's board
        await expect(page.locator("#game")).to_have_attribute("data-seat-picture", seat_picture)
        return page


@pytest.fixture
async def site(db_url: str) -> AsyncIterator[Site]:
    async with site_in_chromium(db_url, signing_settings) as (service, _, base, chrome):
        yield Site(service, base, chrome, [])


async def to_move(service: GameService, game_id: int) -> User:
    """Who is to act in ``game_id`` now (the first of them at a secret step)."""
    row = await service.play.game_info(game_id)
    state = service.play.current_state(game_id)
    assert state is not None
    seat = state.acting_players()[0]
    return next(p for p in PEOPLE if p.id == row.seats[seat].user_id)


async def click_a_move(page: Any) -> str:
    """Play the page's first move by clicking as a player would: its piece (or piece in hand)
    unless it is the only way to start, then its target, then the first move asked for if the
    target holds several; a move clicked nowhere (a setup, a pass, a draw) from the list. The
    move's notation."""
    board = await (await page.request.get(page.url.split("?")[0] + "/seat.json")).json()
    choices = board["choices"]
    starts = [o for o in board["origins"] if o["key"]]
    clickable = [c for c in choices if c["from"] and c["to"] is not None]
    if not clickable:
        await page.select_option("#other-moves", index=0)
        move = await page.input_value("#other-moves")
        await page.click("#other-form button[type=submit]")
        return str(move)
    first = clickable[0]
    if len(starts) > 1:
        origin = next(o for o in starts if o["key"] == first["from"])
        if origin["cell"] is None:
            await page.click(f"#hand button[data-origin='{origin['key']}']")
        else:
            await page.click(f"#cells button[data-cell='{origin['cell']}']")
    target = page.locator(f"#cells button[data-cell='{first['to']}']")
    await expect(target).to_have_class(re.compile("target"))
    await target.click()
    same = [c for c in clickable if (c["from"], c["to"]) == (first["from"], first["to"])]
    if len(same) > 1:
        await expect(page.locator("#which")).to_be_visible()
        await page.locator("#which-moves button").first.click()
    return str(first["move"])


async def played(site: Site, page: Any, game_id: int, before: int) -> None:
    """The page was answered and the game's log grew."""
    await expect(page.locator("#play-said")).to_have_attribute("data-answers", "1")
    assert len(await site.service.play.entries(game_id)) > before


@pytest.mark.parametrize("game_type", RULE_SETS)
async def test_a_click_move_in_each_rule_set(site: Site, game_type: str) -> None:
    gid = await start(site.service, game_type)
    for _ in range(2):  # two turns: each side's board, a secret setup each in 数字将棋
        player = await to_move(site.service, gid)
        page = await site.open(player, gid)
        before = len(await site.service.play.entries(gid))
        move = await click_a_move(page)
        await played(site, page, gid, before)
        made = [e.move for e in await site.service.play.entries(gid)]
        assert move in made
        await page.context.close()
    assert site.errors == []


async def test_a_promotion_is_asked_for(site: Site) -> None:
    """数字将棋: played through the service until the mover may promote; then the click on the
    target asks which, and the promoting move is the one played."""
    service = site.service
    gid = await start(service, "suji-shogi")
    await service.play.setup(gid, ALICE, "123/456")
    await service.play.setup(gid, BOB, "123/456")
    while True:
        player = await to_move(service, gid)
        board = await service.play.seat_board(gid, player)
        promoting = [c for c in board.choices if c.notation.endswith("+")]
        if promoting:
            break
        await service.play.move(gid, player, board.choices[0].notation)
    page = await site.open(player, gid)
    wanted = promoting[0]
    await page.click(f"#cells button[data-cell='{wanted.origin[1:]}']")
    await page.click(f"#cells button[data-cell='{wanted.target}']")
    await expect(page.locator("#which-moves button")).to_have_count(2)
    await page.click(f"#which-moves button:has-text('{wanted.shown.en}')")
    await expect(page.locator("#play-said")).to_contain_text(wanted.shown.en)
    assert (await service.play.entries(gid))[-1].move == wanted.notation
    assert site.errors == []


async def test_a_secret_setup_arranged_by_clicks(site: Site) -> None:
    """数字将棋's setup cell by cell: each cell offers the pieces that still fit, its pick is
    written on it, and the one setup left is played on confirmation (nobody else sees it)."""
    service = site.service
    gid = await start(service, "suji-shogi")
    player = await to_move(service, gid)
    page = await site.open(player, gid)
    board = await (await page.request.get(page.url + "/seat.json")).json()
    wanted = next(c for c in board["choices"] if c["move"] == "654/321")
    for cell, piece in wanted["placed"]:
        await page.click(f"#cells button[data-cell='{cell}']")
        await page.click(f"#which-moves button:text-is('{board['pieces'][piece]}')")
    button = page.locator(f"#cells button[data-cell='{wanted['placed'][0][0]}']")
    await expect(button).to_have_attribute("data-pick", board["pieces"][wanted["placed"][0][1]])
    await page.click(f"#which-moves button:text-is('{wanted['shown']}')")
    await expect(page.locator("#play-said")).to_have_attribute("data-answers", "1")
    setups = [e for e in await service.play.entries(gid) if e.secret]
    assert [e.move for e in setups] == ["654/321"]
    assert site.errors == []


async def test_a_move_by_keyboard_alone(site: Site) -> None:
    """Tab to the board, arrows between cells (each named with what is on it), Enter picks and
    plays; the page says what happened."""
    gid = await start(site.service, "rokumentai")
    page = await site.open(await to_move(site.service, gid), gid)
    cells = page.locator("#cells button")
    await cells.first.focus()
    await expect(cells.first).to_have_attribute("aria-label", "一01: empty, a target")
    await page.keyboard.press("ArrowRight")
    await expect(page.locator("#cells button[data-cell='1']")).to_be_focused()
    await page.keyboard.press("ArrowDown")
    focused = page.locator("#cells button:focus")
    await expect(focused).to_have_attribute("aria-label", "二02: empty, a target")
    assert await page.get_attribute("#game", "data-ply") == "0"  # arrows on the board step nothing
    await page.keyboard.press("Enter")
    await expect(page.locator("#play-said")).to_contain_text("二02占")
    entries = await site.service.play.entries(gid)
    assert [e.move for e in entries] == ["二02占"]
    await expect(page.locator("#play-status")).to_have_text(re.compile("Not your turn"))
    # the board was built again: the keyboard is still on the cell it played to
    await expect(page.locator("#cells button:focus")).to_have_attribute("data-cell", "8")
    assert site.errors == []


async def test_three_players_follow_each_other(site: Site) -> None:
    """三国志 for three: each player in a browser of their own; each move clicked by the player
    to move reaches every page (its move list and its board)."""
    service = site.service
    gid = await start(service, "sangokushi")
    pages = {p.id: await site.open(p, gid) for p in PEOPLE}
    for ply in range(1, 4):
        player = await to_move(service, gid)
        page = pages[player.id]
        await expect(page.locator("#play-status")).to_have_text(re.compile("Your turn"))
        await click_a_move(page)
        for each in pages.values():
            await expect(each.locator("#moves li")).to_have_count(ply)
        nxt = await to_move(service, gid)
        await expect(pages[nxt.id].locator("#play-status")).to_have_text(re.compile("Your turn"))
    assert site.errors == []


async def test_refused_for_someone_not_seated_and_without_the_token(site: Site) -> None:
    service = site.service
    gid = await start(service, "rokumentai")
    token = await service.review.page_token(gid)
    outsider = await site.page_of(User("900", "dave"))
    await outsider.goto(f"{site.base}/g/{token}")
    await expect(outsider.locator("#board")).to_be_visible()
    assert await outsider.locator("#play").count() == 0  # a spectator's page
    session = await service.review.signed_in(
        next(c["value"] for c in await outsider.context.cookies() if c["name"] == "banmen_session")
    )
    assert session is not None
    form = {"move": "四04占", "csrf": session.csrf, "ply": "0"}
    headers = {"Accept": "application/json"}
    answer = await outsider.request.post(f"{site.base}/g/{token}/move", form=form, headers=headers)
    assert answer.status == 403 and "not a player" in (await answer.json())["said"]
    player = await site.open(await to_move(service, gid), gid)
    forged = {**form, "csrf": "from-another-site"}
    answer = await player.request.post(f"{site.base}/g/{token}/move", form=forged, headers=headers)
    assert answer.status == 403
    assert await service.play.entries(gid) == []
    # the page's own move goes through
    await click_a_move(player)
    await played(site, player, gid, 0)
    assert CAROL.id not in {e.user_id for e in await service.play.entries(gid)}
    assert site.errors == []
