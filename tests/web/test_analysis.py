"""The analysis board on the site (issue 50, 3): a finished game's page links it; each board is
an address (its start and the moves tried), so nothing is kept and a board can be shared; the
moves to try are links, one takes the last back, the computer's line comes on request; a running
game, a bad move and a 数字将棋 position still hidden have no board (the one 404)."""

from __future__ import annotations

import html
import re
from typing import Any

from bot.service import GameService
from tests.helpers import BOB, pixels, play_on, start

Client = Any


async def _finished(real: GameService, plies: int = 6) -> tuple[int, str]:
    gid = await start(real, "rokumentai")
    await play_on(real, gid, plies)
    await real.play.resign(gid, BOB)
    return gid, await real.review.page_token(gid)


def _links(page: str, cls: str) -> list[str]:
    block = page.split(f'<ul class="{cls}">', 1)[1].split("</ul>", 1)[0]
    return [html.unescape(h) for h in re.findall(r'href="([^"]+)"', block)]


async def test_a_board_is_an_address(real: GameService, client: Client) -> None:
    gid, token = await _finished(real)
    version = (await real.play.game_info(gid)).version
    game = await (await client.get(f"/g/{token}?ply=2")).text()
    assert f'id="analyse" href="/g/{token}/analyse?ply=2&amp;lang=en"' in game
    page = await client.get(f"/g/{token}/analyse?ply=2&lang=en")
    assert page.status == 200
    text = await page.text()
    assert "Analysis board: Rokumentai" in text and "From move 2 of 6" in text
    assert "None yet" in text and '<img id="board" src="/g/' in text
    assert "What players played here" in text and "no finished game has gone on" in text
    moves = _links(text, "legal")
    assert moves and all(m.startswith(f"/g/{token}/analyse?ply=2&m=") for m in moves)
    tried = await (await client.get(moves[0])).text()
    assert "Moves tried" in tried and "Take the last one back" in tried
    picture = re.search(r'<img id="board" src="([^"]+)" alt="([^"]+)"', tried)
    assert picture is not None and html.unescape(picture.group(2)).startswith("Rokumentai, ply 3")
    drawn = await client.get(html.unescape(picture.group(1)))
    assert drawn.status == 200 and drawn.content_type == "image/png"
    step = await real.review.replay_step(gid, None, 2)
    assert step.image is not None and pixels(await drawn.read()) != pixels(step.image)
    back = re.search(r'<a href="([^"]+)">Take the last one back</a>', tried)
    assert back is not None
    assert "None yet" in await (await client.get(html.unescape(back.group(1)))).text()
    asked = re.search(r'<a href="([^"]+)" rel="nofollow">Ask for its evaluation', tried)
    assert asked is not None
    line = await (await client.get(html.unescape(asked.group(1)))).text()
    assert re.search(r'<p id="line">.*%.*its line: ', line)
    japanese = await (await client.get(f"/g/{token}/analyse?ply=2&lang=ja")).text()
    assert "解析盤" in japanese and 'lang="ja"' in japanese
    assert (await real.play.game_info(gid)).version == version  # the record is as it was


async def test_no_board_where_there_is_nothing_to_analyse(
    real: GameService, client: Client
) -> None:
    running = await start(real, "rokumentai")
    await play_on(real, running, 2)
    token = await real.review.page_token(running)
    assert 'id="analyse"' not in await (await client.get(f"/g/{token}")).text()
    assert (await client.get(f"/g/{token}/analyse")).status == 404
    _, done = await _finished(real)
    for query in ("ply=2&m=nonsense", "m=" + "&m=".join(["一01占"] * 300)):
        answer = await client.get(f"/g/{done}/analyse?{query}")
        assert answer.status in (404, 414) and "Traceback" not in await answer.text()
    assert (await client.get(f"/g/{done}/analyse.png?ply=2&m=nonsense")).status == 404
    lenient = await (await client.get(f"/g/{done}/analyse?ply=x")).text()
    assert "From move 0 of 6" in lenient  # as the game page reads ?ply=: the start
    suji = await start(real, "suji-shogi")
    await real.play.resign(suji, BOB)  # during the secret setup: nothing open to analyse
    hidden = await real.review.page_token(suji)
    assert 'id="analyse"' not in await (await client.get(f"/g/{hidden}")).text()
    assert (await client.get(f"/g/{hidden}/analyse?ply=0")).status == 404
