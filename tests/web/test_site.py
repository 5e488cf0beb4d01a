"""The web pages over plain HTTP: every route, tokens, opt-in, headers, bounds and the rate
limit; nothing a spectator may not see reaches a page, its events, its pictures or its files."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.config import load_settings
from bot.service import GameService, Refusal, User
from bot.web import RateLimit, create_app
from tests.helpers import ALICE, BOB, pixels, play_on, start, suji_with
from tests.web.conftest import PUBLIC

Client = TestClient[Any, Any]
GUILD = "123456789012345678"


async def test_a_game_page_by_its_token(real: GameService, client: Client) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 4)
    url = await real.review.page_link(gid)
    assert url is not None and url.startswith(PUBLIC + "/g/")
    token = url.rsplit("/", 1)[1]
    assert len(token) >= 20 and str(gid) not in token.split("-")
    assert await real.review.page_link(gid) == url  # one token per game
    page = await client.get(f"/g/{token}")
    assert page.status == 200
    html = await page.text()
    assert "alice" in html and "bob" in html
    assert html.count('<li><a href="?ply=') == 4 and 'data-total="4"' in html
    assert f'<meta property="og:image" content="{PUBLIC}/g/{token}/4.png">' in html
    assert '<script src="/static/site.js"' in html and "<script>" not in html
    # no media-control symbols (U+2300-23FF): a browser with plain fonts shows them as boxes
    assert not [ch for ch in html if 0x2300 <= ord(ch) <= 0x23FF]
    # every ply's picture, the same as a spectator's replay step
    for ply in (0, 4):
        picture = await client.get(f"/g/{token}/{ply}.png")
        assert picture.status == 200 and picture.content_type == "image/png"
        step = await real.review.replay_step(gid, None, ply)
        assert pixels(await picture.read()) == pixels(step.image)
    # ?ply= shows that ply without JavaScript
    assert f'src="/g/{token}/2.png"' in await (await client.get(f"/g/{token}?ply=2")).text()


async def test_every_picture_has_its_position_in_words(real: GameService, client: Client) -> None:
    """The board's ``alt`` is the position in words (a spectator's), for the ply shown and for
    each step (``<ply>.txt``); a running page has a live region for each new move."""
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 4)
    token = await real.review.page_token(gid)
    html = await (await client.get(f"/g/{token}")).text()
    alt = re.search(r'<img id="board"[^>]* alt="([^"]*)"', html)
    assert alt is not None and alt.group(1).startswith("Rokumentai, ply 4. ")
    assert "Last move: " in alt.group(1)
    assert 'id="announce" aria-live="polite"' in html
    ja = await (await client.get(f"/g/{token}?ply=2&lang=ja")).text()
    assert 'alt="六面体、2手目。' in ja
    step = await client.get(f"/g/{token}/2.txt")
    assert step.status == 200 and step.content_type == "text/plain"
    words = await step.text()
    assert words.startswith("Rokumentai, ply 2. ") and "Last move: " in words
    start_words = await (await client.get(f"/g/{token}/0.txt")).text()
    assert start_words.startswith("Rokumentai, ply 0. Black to move.")
    assert "Last move" not in start_words
    # each live update carries the new position in words, for the page to announce
    version = (await real.play.game_info(gid)).version
    events = await client.get(f"/g/{token}/events?v={version}")
    read = asyncio.ensure_future(events.content.readuntil(b"\n\n"))
    await play_on(real, gid, 1)
    data = json.loads((await read).decode().removeprefix("data: "))
    assert data["described"].startswith("Rokumentai, ply 5. ")
    events.close()


async def test_downloads(real: GameService, client: Client) -> None:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, 3)
    token = await real.review.page_token(gid)
    for kind in ("kifu", "kif", "json"):
        got = await client.get(f"/g/{token}/record.{kind}")
        assert got.status == 200, kind
        assert f'filename="banmen-{gid}.{kind}"' in got.headers["Content-Disposition"]
    data = json.loads(await (await client.get(f"/g/{token}/record.json")).read())
    assert len(data["moves"]) == 3 and data["seed"] == ""  # a running game shows no seed
    assert (await client.get(f"/g/{token}/record.pgn")).status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/g/AAAAAAAAAAAAAAAAAAAAAA",
        "/g/short",
        "/g/" + "x" * 80,
        "/g/1",
        "/g/AAAAAAAAAAAAAAAAAAAAAA/0.png",
        "/g/AAAAAAAAAAAAAAAAAAAAAA/record.kifu",
        "/g/AAAAAAAAAAAAAAAAAAAAAA/events",
        "/g/%00%00/0.png",
        "/rules/chess",
        "/s/" + GUILD,
        "/s/" + GUILD + "/p/100",
        "/nothing",
    ],
)
async def test_unknown_pages_are_one_404(client: Client, path: str) -> None:
    got = await client.get(path)
    assert got.status == 404
    assert "There is no page here (or it is not shown)." in await got.text()
    assert got.headers["X-Frame-Options"] == "DENY"


async def test_a_lobby_has_no_page(real: GameService, client: Client) -> None:
    lobby = await real.play.create_game(ALICE, "rokumentai", open_seats=1)
    assert lobby.game_id is not None
    token = await real.review.page_token(lobby.game_id)
    assert (await client.get(f"/g/{token}")).status == 404


async def test_security_headers_and_read_only(real: GameService, client: Client) -> None:
    gid = await start(real, "rokumentai")
    token = await real.review.page_token(gid)
    for path in ("/", f"/g/{token}", f"/g/{token}/0.png", "/rules/rokumentai", "/static/site.js"):
        got = await client.get(path)
        assert got.status == 200, path
        csp = got.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert got.headers["X-Content-Type-Options"] == "nosniff"
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert (await client.request(method, f"/g/{token}")).status == 405
    assert (await client.post("/", data=b"x" * 5000)).status in (405, 413)
    assert (await client.get("/rules/rokumentai?x=" + "a" * 3000)).status == 414


async def test_the_rate_limit(real: GameService) -> None:
    now = [0.0]
    limit = RateLimit(rate=1.0, burst=3.0, clock=lambda: now[0])
    async with TestClient(TestServer(create_app(real, limit=limit), host="127.0.0.1")) as c:
        assert [(await c.get("/")).status for _ in range(4)] == [200, 200, 200, 429]
        now[0] += 1.0
        assert (await c.get("/")).status == 200


def test_the_rate_limit_forgets_idle_addresses() -> None:
    now = [0.0]
    limit = RateLimit(rate=1.0, burst=2.0, clock=lambda: now[0], max_addresses=3)
    for address in ("a", "b", "c"):
        assert limit.allow(address)
    now[0] += 10
    assert limit.allow("d") and set(limit.buckets) == {"d"}


async def test_rules_pages(real: GameService, client: Client) -> None:
    index = await (await client.get("/")).text()
    for game in real.catalogue():
        assert f'href="/rules/{game.id}?lang=en"' in index
    first = await (await client.get("/rules/rokumentai")).text()
    page = await real.learn.rules_page("rokumentai", 0)
    assert page.heading.en in first and "/rules/rokumentai/0.png" in first
    ja = await (await client.get("/rules/rokumentai?page=1&lang=ja")).text()
    assert (
        await real.learn.rules_page("rokumentai", 1)
    ).heading.ja in ja and '<html lang="ja">' in ja
    picture = await client.get("/rules/rokumentai/0.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await client.get("/rules/rokumentai/999.png")).status == 404
    # /rules links the site's page once the public address is set
    assert page.link == f"{PUBLIC}/rules/rokumentai?page=0"


async def test_the_browser_language(real: GameService, client: Client) -> None:
    gid = await start(real, "rokumentai")
    token = await real.review.page_token(gid)
    ja = await (await client.get(f"/g/{token}", headers={"Accept-Language": "fr, ja;q=0.8"})).text()
    assert '<html lang="ja">' in ja and "指し手" in ja
    en = await (await client.get(f"/g/{token}?lang=en", headers={"Accept-Language": "ja"})).text()
    assert '<html lang="en">' in en and "Moves" in en


async def test_a_secret_setup_never_reaches_the_page(real: GameService, client: Client) -> None:
    first, second = await suji_with(real, "123/456"), await suji_with(real, "654/321")
    one, two = await real.review.page_token(first), await real.review.page_token(second)
    for token, other in ((one, two), (two, one)):
        html = await (await client.get(f"/g/{token}")).text()
        assert "123/456" not in html and "654/321" not in html
        a = await (await client.get(f"/g/{token}/0.png")).read()
        b = await (await client.get(f"/g/{other}/0.png")).read()
        assert pixels(a) == pixels(b)
        kifu = await (await client.get(f"/g/{token}/record.kifu")).text()
        assert "123/456" not in kifu and "654/321" not in kifu
        assert (await client.get(f"/g/{token}/record.json")).status == 404
        events = await client.get(f"/g/{token}/events")
        first_event = await events.content.readuntil(b"\n\n")
        assert b"123/456" not in first_event and b"654/321" not in first_event
        events.close()
        # the position in words is the same for both arrangements, as the pictures are
        words = [await (await client.get(f"/g/{t}/0.txt")).text() for t in (token, other)]
        assert words[0] == words[1] and "face down" in words[0]


async def test_a_solitaires_seed_stays_hidden(real: GameService, client: Client) -> None:
    gid = await start(real, "yosuko")
    await play_on(real, gid, 3)
    seed = (await real.play.game_info(gid)).seed
    token = await real.review.page_token(gid)
    for path in (f"/g/{token}", f"/g/{token}/record.kifu", f"/g/{token}/record.json"):
        body = await (await client.get(path)).text()
        assert seed not in body, path


async def test_events_follow_a_running_game(real: GameService, client: Client) -> None:
    gid = await start(real, "rokumentai")
    token = await real.review.page_token(gid)
    version = (await real.play.game_info(gid)).version
    events = await client.get(f"/g/{token}/events?v={version}")
    assert events.status == 200 and events.content_type == "text/event-stream"
    read = asyncio.ensure_future(events.content.readuntil(b"\n\n"))
    await play_on(real, gid, 1)
    data = json.loads((await read).decode().removeprefix("data: "))
    assert data["total"] == 1 and data["live"] and len(data["moves"]) == 1
    await real.play.resign(gid, BOB)
    while True:  # the last event says the game is over, then the stream ends
        chunk = await events.content.readuntil(b"\n\n")
        if chunk.startswith(b"data: "):
            last = json.loads(chunk.decode().removeprefix("data: "))
            if not last["live"]:
                break
    assert last["ends"] and await events.content.read() == b""


async def test_a_server_opts_in(real: GameService, client: Client) -> None:
    carol = User("300", "carol")
    gid = await start_rated(real, [ALICE, BOB])
    await real.play.resign(gid, BOB)
    token = await real.review.page_token(gid)
    assert (await client.get(f"/s/{GUILD}")).status == 404
    assert (await client.get(f"/s/{GUILD}/p/{ALICE.id}")).status == 404
    finished = await client.get(f"/g/{token}")
    html = await finished.text()
    assert finished.status == 200 and "resign" in html.lower()
    assert f"/s/{GUILD}" not in html  # an unlisted server's page is not linked
    with pytest.raises(Refusal):
        await real.play.set_guild_setting(GUILD, "web", "everyone")
    await real.play.set_guild_setting(GUILD, "web", "public")
    server = await (await client.get(f"/s/{GUILD}")).text()
    assert f"/g/{token}" in server and "alice" in server
    assert f'href="/s/{GUILD}?lang=en"' in await (await client.get(f"/g/{token}")).text()
    assert f"/s/{GUILD}/p/{ALICE.id}" in server
    player = await (await client.get(f"/s/{GUILD}/p/{ALICE.id}")).text()
    assert "alice" in player and "<polyline" in player and f"/g/{token}" in player
    assert (await client.get(f"/s/{GUILD}/p/{carol.id}")).status == 404  # no games here
    assert (await client.get("/s/999/p/100")).status == 404  # another server


async def start_rated(service: GameService, people: list[User]) -> int:
    reply = await service.play.create_game(
        people[0], "rokumentai", seated=people[1:], guild_id=GUILD, rated=True
    )
    assert reply.game_id is not None
    return reply.game_id


async def test_links_in_the_record_and_the_settings(real: GameService) -> None:
    gid = await start(real, "rokumentai")
    record = await real.play.record(gid, None)
    url = await real.review.page_link(gid)
    assert url is not None and url in record.text("en") and url in record.text("ja")
    env = {"BANMEN_WEB_PORT": "9000", "BANMEN_PUBLIC_URL": "https://x.example/"}
    settings = load_settings(None, env)
    assert (settings.web_host, settings.web_port, settings.public_url) == (
        "127.0.0.1",
        9000,
        "https://x.example",
    )
    with pytest.raises(ValueError, match="BANMEN_WEB_PORT"):
        load_settings(None, {"BANMEN_WEB_PORT": "70000"})


async def test_the_site_serves_on_a_port(real: GameService) -> None:
    from bot.web import serve, start

    site = await start(real, "127.0.0.1", 0)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", site.url) and not site.url.endswith(":0")
        # a port already taken: the bot goes on without its site
        port = int(site.url.rsplit(":", 1)[1])
        busy = replace(real.settings, web_port=port)
        real.ctx.settings = busy
        assert await serve(real) is None
        real.ctx.settings = replace(busy, web_port=0)
        assert await serve(real) is None
    finally:
        await site.stop()


async def test_the_sandbox_prints_each_started_games_page(real: GameService, tmp_path: Any) -> None:
    import io

    from bot.sandbox import Sandbox

    out = io.StringIO()
    sandbox = Sandbox(real, tmp_path / "out", out=out, site="http://127.0.0.1:8080")
    await sandbox.run(
        ["/play rokumentai @bob seats=listed", "/as bob", "/accept"], echo=True, strict=True
    )
    printed = out.getvalue()
    links = re.findall(r"Watch and replay: (http://127\.0\.0\.1:8080/g/\S+)", printed)
    assert len(links) == 1  # once, when the game starts (not for the challenge)
    assert links[0].rsplit("/", 1)[1] == await real.review.page_token(1)


async def test_pictures_past_the_queue_are_refused_busy(
    real: GameService, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.service.review.site

    gid = await start(real, "rokumentai")
    token = await real.review.page_token(gid)
    monkeypatch.setattr(bot.service.review.site, "WAITING", 0)
    busy = await client.get(f"/g/{token}/0.png")
    assert busy.status == 503 and busy.headers["Retry-After"] == "1"
    assert "try again" in await busy.text()
    monkeypatch.setattr(bot.service.review.site, "WAITING", 16)
    assert (await client.get(f"/g/{token}/0.png")).status == 200


async def test_a_daily_deal_has_no_page_until_its_day_is_over(
    real: GameService, client: Client
) -> None:
    """Everyone gets the same deal on a day: a daily's page (and its listing) would show the
    others their draws to come, so it is one 404 until that day is over for everyone."""
    clock = real.clock
    assert isinstance(clock, FakeClock)
    clock.set(datetime(2026, 11, 27, 9, 0, tzinfo=UTC))
    gid = (await real.play.daily(ALICE, GUILD)).game_id
    assert gid is not None
    token = await real.review.page_token(gid)
    assert (await client.get(f"/g/{token}")).status == 404
    await real.play.resign(gid, ALICE)
    assert (await client.get(f"/g/{token}")).status == 404  # over, but not its day
    clock.set(datetime(2026, 11, 28, 12, 0, tzinfo=UTC))
    assert (await client.get(f"/g/{token}")).status == 200
