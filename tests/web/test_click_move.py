"""Playing from the site (issue 51, 2), over plain HTTP on both stores: a seated visitor's board
(their seat's picture, its cells and their legal moves grouped by origin, from the service), a
move sent from it played as ``/move`` plays it, its announcement left to the delivery loop, and
every refusal: no session, a forged CSRF token, someone not seated, not their turn, a bad move,
a stale board. Nothing hidden reaches another seat's board."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

from bot.service import GameService, User
from tests.helpers import ALICE, BOB, CAROL, moves_of, pixels, start, suji_with

Client = TestClient[Any, Any]
JSON = {"Accept": "application/json"}


async def _as(service: GameService, client: Client, user: User) -> str:
    """Sign ``user`` in (the session the OAuth2 callback opens: test_sign_in.py goes through
    it); their CSRF token."""
    session = await service.review.sign_in(user)
    client.session.cookie_jar.update_cookies({"banmen_session": session.secret})
    return session.user.csrf


async def _game(service: GameService) -> tuple[int, str, User, User]:
    """A 六面体 game of alice and bob: its id, its page's token, who moves first, who waits."""
    gid = await start(service, "rokumentai")
    first = (await service.play.game_info(gid)).seats[0].user_id
    mover, waiting = (ALICE, BOB) if first == ALICE.id else (BOB, ALICE)
    return gid, await service.review.page_token(gid), mover, waiting


async def _seat(client: Client, token: str, lang: str = "en") -> Any:
    answer = await client.get(f"/g/{token}/seat.json?lang={lang}")
    assert answer.status == 200 and answer.headers["Cache-Control"] == "private, no-store"
    return await answer.json()


async def _move(client: Client, token: str, **form: Any) -> Any:
    return await client.post(f"/g/{token}/move", data=form, headers=JSON)


async def test_a_seated_player_clicks_a_move(site: tuple[GameService, Client], db_url: str) -> None:
    service, client = site
    gid, token, mover, _ = await _game(service)
    csrf = await _as(service, client, mover)
    page = await (await client.get(f"/g/{token}")).text()
    assert 'id="play"' in page and "/static/play.js" in page and f"/g/{token}/seat.png" in page
    board = await _seat(client, token)
    assert board["acting"] and board["live"] and not board["secret"]
    assert len(board["cells"]) == 49  # every square, each a box inside the picture
    for cell in board["cells"]:
        x0, y0, x1, y1 = cell["box"]
        assert 0 <= x0 < x1 <= board["width"] and 0 <= y0 < y1 <= board["height"]
    assert board["cells"][0]["words"].endswith(": empty")
    # the opening placements start from the hand (a cube) and go to a square
    assert [o["label"] for o in board["origins"]] == ["a cube"]
    first = board["choices"][0]
    assert first["from"] == board["origins"][0]["key"] and first["to"] is not None
    picture = await client.get(board["picture"])
    assert picture.status == 200 and picture.content_type == "image/png"
    played = await _move(client, token, move=first["move"], csrf=csrf, ply=str(board["ply"]))
    assert played.status == 200
    answer = await played.json()
    assert answer["ok"] and first["shown"] in answer["said"]
    assert moves_of(db_url, gid)[0][2] == first["move"]
    # the move's announcement is the delivery loop's now, and the loop was woken for it
    assert service.timer_changed.is_set()
    pending = await service.pending_announcements()
    assert [r.game_id for r in pending] == [gid]
    await service.announced(*pending[0].announcements)
    after = await _seat(client, token)
    assert not after["acting"] and after["choices"] == [] and after["version"] > board["version"]
    # the cell now names what stands on it, as the game names its pieces
    placed = next(c for c in after["cells"] if c["cell"] == first["to"])
    assert placed["words"].startswith(placed["name"] + ": ") and "occupy" in placed["words"]


async def test_every_refusal_is_a_clear_answer_that_changes_nothing(
    site: tuple[GameService, Client], db_url: str
) -> None:
    service, client = site
    gid, token, mover, waiting = await _game(service)
    form = {"move": "四04占", "ply": "0"}
    nobody = await _move(client, token, csrf="x", **form)
    assert nobody.status == 401 and "Sign in" in (await nobody.json())["said"]
    assert (await client.get(f"/g/{token}/seat.json")).status == 401
    csrf = await _as(service, client, waiting)
    forged = await _move(client, token, csrf="forged", **form)
    assert forged.status == 403
    assert "did not come from your own page" in (await forged.json())["said"]
    turn = await _move(client, token, csrf=csrf, **form)
    assert turn.status == 409 and "turn" in (await turn.json())["said"]
    assert not (await _seat(client, token))["acting"]
    carol = await _as(service, client, CAROL)
    outsider = await _move(client, token, csrf=carol, **form)
    assert outsider.status == 403
    said_ja = (await (await client.get(f"/g/{token}/seat.json?lang=ja")).json())["said"]
    assert said_ja.startswith("あなたは") or "参加" in said_ja
    page = await (await client.get(f"/g/{token}")).text()
    assert 'id="play"' not in page  # someone not seated sees the spectator's page
    csrf = await _as(service, client, mover)
    bad = await _move(client, token, csrf=csrf, move="四04Z", ply="0")
    assert bad.status == 422 and "四04" in (await bad.json())["said"]
    stale = await _move(client, token, csrf=csrf, move="四04占", ply="3")
    assert stale.status == 409
    assert moves_of(db_url, gid) == []
    # without the script: a plain form comes back to the game's page
    sent = await client.post(f"/g/{token}/move", data={"csrf": csrf, **form}, allow_redirects=False)
    assert sent.status == 303 and sent.headers["Location"] == f"/g/{token}?lang=en"
    assert len(moves_of(db_url, gid)) == 1
    refused = await client.post(f"/g/{token}/move", data={"csrf": csrf, **form})
    assert refused.status == 409 and "text/html" in refused.content_type
    # an unknown game is the one 404
    assert (await _move(client, "x" * 22, csrf=csrf, **form)).status == 404


async def test_a_secret_setup_from_the_board_stays_the_players_own(
    site: tuple[GameService, Client],
) -> None:
    service, client = site
    gid = await suji_with(service, "123/456")
    token = await service.review.page_token(gid)
    csrf = await _as(service, client, BOB)
    bobs = await _seat(client, token)
    assert bobs["acting"] and bobs["secret"]
    assert all(c["from"] == "" for c in bobs["choices"])  # clicked nowhere: a setup
    assert len(bobs["choices"]) == 720
    # each setup says what it puts on which of bob's cells (the page arranges it by clicks)
    assert bobs["pieces"] == [f"piece {n}" for n in range(1, 7)]
    for choice in bobs["choices"]:
        assert sorted(p for _, p in choice["placed"]) == list(range(6))
    assert len({tuple(map(tuple, c["placed"])) for c in bobs["choices"]}) == 720
    bob_picture = await (await client.get(bobs["picture"])).read()
    sent = await _move(client, token, move="654/321", csrf=csrf, ply=str(bobs["ply"]))
    answer = await sent.json()
    assert sent.status == 200 and "654/321" in answer["said"]
    await _as(service, client, ALICE)
    alices = await _seat(client, token)
    text = str(alices)
    # alice's board names her own pieces and, after the reveal, bob's
    assert "piece 1" in text
    alice_picture = await (await client.get(alices["picture"])).read()
    assert pixels(alice_picture) != pixels(bob_picture)


async def test_before_the_reveal_a_board_shows_no_other_setup(
    site: tuple[GameService, Client],
) -> None:
    service, client = site
    first, second = await suji_with(service, "123/456"), await suji_with(service, "654/321")
    boards = []
    for gid in (first, second):
        token = await service.review.page_token(gid)
        await _as(service, client, BOB)
        board = await _seat(client, token)
        picture = await (await client.get(board["picture"])).read()
        boards.append((board["cells"], board["described"], board["choices"], pixels(picture)))
    # bob's boards of the two games are the same: alice's arrangement is in neither
    assert boards[0] == boards[1]
