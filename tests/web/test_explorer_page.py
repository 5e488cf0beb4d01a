"""The opening explorer on the site (issue 50, 1): a game's page lists the moves played from
the start in every server's finished games, each a link into its position; a position is its
address; rated only is a link away; a bad move, an unknown game or the solitaire is the 404."""

from __future__ import annotations

import html
import re
from typing import Any

from bot.service import GameService
from tests.helpers import one_move_resigned, pixels

Client = Any


async def test_the_explorer_steps_in_by_links(real: GameService, client: Client) -> None:
    _, first = await one_move_resigned(real)
    index = await (await client.get("/")).text()
    assert 'href="/explore/rokumentai?lang=en"' in index and "/explore/yosuko" not in index
    page = await client.get("/explore/rokumentai")
    text = await page.text()
    assert page.status == 200 and "Opening explorer: Rokumentai" in text
    assert "Moves played from here (1 game)" in text and "the mover won 1" in text
    links = [
        html.unescape(h) for h in re.findall(r'<ol class="explored"><li><a href="([^"]+)"', text)
    ]
    assert links and "m=" in links[0]
    inside = await (await client.get(links[0])).text()
    assert "No finished game has gone on from this position yet." in inside
    assert "One move back" in inside
    picture = re.search(r'<img id="board" src="([^"]+)"', inside)
    assert picture is not None
    drawn = await client.get(html.unescape(picture.group(1)))
    start = await client.get("/explore/rokumentai.png")
    assert drawn.status == 200 and start.status == 200
    assert pixels(await drawn.read()) != pixels(await start.read())
    rated = await (await client.get("/explore/rokumentai?rated=1")).text()
    assert "Moves played from here (0 games)" in rated  # the one game was casual
    japanese = await (await client.get("/explore/rokumentai?lang=ja")).text()
    assert "定跡エクスプローラー" in japanese and first  # (the move itself is in the link)


async def test_what_has_no_explorer_page(real: GameService, client: Client) -> None:
    for path in (
        "/explore/chess",
        "/explore/yosuko",
        "/explore/rokumentai?m=nonsense",
        "/explore/rokumentai.png?m=nonsense",
    ):
        answer = await client.get(path)
        assert answer.status == 404, path


async def test_the_computer_self_play_is_a_pool_of_its_own(
    real: GameService, client: Client
) -> None:
    await one_move_resigned(real)
    page = await (await client.get("/explore/socrates-twothree?pool=computer")).text()
    assert '<strong aria-current="page">the computer' in page
    assert "Moves played from here (0 games)" not in page
    links = [
        html.unescape(h) for h in re.findall(r'<ol class="explored"><li><a href="([^"]+)"', page)
    ]
    assert links and "pool=computer" in links[0]
    inside = await (await client.get(links[0])).text()
    assert "One move back" in inside and "pool=computer" in inside
    picture = re.search(r'<img id="board" src="([^"]+)"', inside)
    assert picture is not None and "pool=computer" in html.unescape(picture.group(1))
    assert (await client.get(html.unescape(picture.group(1)))).status == 200
    banmen = await (await client.get("/explore/rokumentai")).text()
    assert "Moves played from here (1 game)" in banmen  # Banmen's own game, apart
    assert "pool=computer" in banmen and "pool=rated" in banmen
