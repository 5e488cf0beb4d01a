"""The board as a Discord Activity (issue 51, 3), over plain HTTP on both stores, against the
Discord double: the code the SDK's ``authorize`` gave traded at Discord (no redirect address),
the instance looked up there with the bot's token, a participant let in with a session carried
as a bearer token (no cookie), the participants against the seats, a seated participant's move
and a spectator's refusal, and every other refusal: a bad code, someone not in the instance, an
ended instance, a game played elsewhere, no session. Only the Activity's page may be framed,
and only by Discord."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from bot.service import GameService, User
from bot.web.activity import FRAMERS, INSTANCE_SECONDS
from bot.web.app import INSTANCES_KEY
from tests.discord_double import DiscordDouble
from tests.discord_double import User as DoubleUser
from tests.discord_double.oauth import CLIENT_ID, Grant
from tests.helpers import ALICE, BOB, CAROL, moves_of, placed, start

Client = TestClient[Any, Any]
JSON = {"Accept": "application/json"}
THREAD, CHANNEL, GUILD = (
    1_400_000_000_000_000_001,
    1_400_000_000_000_000_002,
    1_400_000_000_000_000_003,
)


def _in_double(user: User) -> DoubleUser:
    """``user`` as the double's OAuth2 knows them (the same id and name)."""
    return DoubleUser(int(user.id), user.name)


async def _game(service: GameService) -> tuple[int, str, User, User]:
    """A 六面体 game of alice and bob in :data:`THREAD`: its id, its page's token, who moves
    first, who waits."""
    gid = await start(service, "rokumentai")
    await placed(service, gid, CHANNEL, THREAD)
    first = (await service.play.game_info(gid)).seats[0].user_id
    mover, waiting = (ALICE, BOB) if first == ALICE.id else (BOB, ALICE)
    return gid, await service.review.page_token(gid), mover, waiting


async def _launched(
    service: GameService, double: DiscordDouble
) -> tuple[int, str, User, User, str]:
    """:func:`_game`, and the Activity its first player launched in its thread (the instance's
    id last)."""
    gid, token, mover, waiting = await _game(service)
    instance = double.activities.launch(THREAD, GUILD, int(mover.id))
    return gid, token, mover, waiting, instance.instance_id


async def _enter(client: Client, double: DiscordDouble, user: User, instance: str) -> Any:
    """``user``'s Activity page entering ``instance`` with the code Discord gave it."""
    code = double.oauth.activity_code(_in_double(user))
    return await client.post(
        "/activity/token", data={"code": code, "instance_id": instance}, headers=JSON
    )


def _bearer(entered: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {entered['session']}"}


async def test_only_the_activity_page_may_be_framed_and_only_by_discord(
    activity_site: tuple[GameService, Client],
) -> None:
    service, client = activity_site
    page = await client.get("/activity")
    assert page.status == 200
    policy = page.headers["Content-Security-Policy"]
    assert f"frame-ancestors {FRAMERS}" in policy and "'none'" not in policy.split("frame-")[1]
    assert "X-Frame-Options" not in page.headers
    assert "script-src 'self';" in policy and "unsafe" not in policy  # still no inline script
    html = await page.text()
    assert "/static/vendor/discord-sdk.js" in html and "/static/activity.js" in html
    # Discord launches it at the URL mapping's root, with its frame's id in the address
    launched = await client.get("/?frame_id=f1&instance_id=i1&platform=desktop")
    assert launched.status == 200 and await launched.text() == html
    assert launched.headers["Content-Security-Policy"] == policy
    for path in ("/", "/activity/token", "/activity/g/" + "x" * 22, "/static/activity.js"):
        other = await client.get(path)
        assert "frame-ancestors 'none'" in other.headers["Content-Security-Policy"], path
        assert other.headers["X-Frame-Options"] == "DENY", path
    # the Embedded App SDK is served from the site itself, pinned (scripts/vendor)
    sdk = await client.get("/static/vendor/discord-sdk.js")
    assert sdk.status == 200 and "@discord/embedded-app-sdk 2.5.0" in await sdk.text()
    # without BANMEN_ACTIVITY nothing of it is served, and nothing may frame the 404
    service.ctx.settings = replace(service.ctx.settings, activity=False)
    off = await client.get("/activity")
    assert off.status == 404 and off.headers["X-Frame-Options"] == "DENY"
    assert (await client.post("/activity/token", data={"code": "x"})).status == 404


async def test_a_seated_participant_enters_and_plays_by_bearer_token(
    activity_site: tuple[GameService, Client], double: DiscordDouble, db_url: str
) -> None:
    service, client = activity_site
    gid, token, mover, waiting, iid = await _launched(service, double)
    answer = await _enter(client, double, mover, iid)
    assert answer.status == 200 and answer.headers["Cache-Control"] == "private, no-store"
    assert "Set-Cookie" not in answer.headers  # the session travels in the page's memory
    entered = await answer.json()
    assert entered["access_token"] in double.oauth.tokens  # Discord's, for the SDK
    assert [g["token"] for g in entered["games"]] == [token]
    assert double.oauth.exchanges == 1
    # the game as the Activity shows it: the participants against the seats, the board
    shown = await client.get(f"/activity/g/{token}?instance_id={iid}", headers=_bearer(entered))
    assert shown.status == 200
    html = await shown.text()
    assert f"{mover.name}, here" in html and f"{waiting.name}, not here" in html
    assert "Watching: 0" in html and "You play in this game." in html
    assert 'id="play"' in html and entered["csrf"] in html
    assert "/analyse" not in html and "/rules/" not in html  # no page the frame cannot show
    board = await client.get(f"/g/{token}/seat.json", headers=_bearer(entered))
    assert board.status == 200
    seat = await board.json()
    picture = await client.get(seat["picture"], headers=_bearer(entered))
    assert picture.status == 200 and picture.content_type == "image/png"
    first = seat["choices"][0]
    form = {"move": first["move"], "csrf": entered["csrf"], "ply": str(seat["ply"])}
    played = await client.post(f"/g/{token}/move", data=form, headers={**JSON, **_bearer(entered)})
    assert played.status == 200 and (await played.json())["ok"]
    assert moves_of(db_url, gid)[0][2] == first["move"]
    # the other player joins the Activity: here now; in Japanese too
    double.activities.join(iid, int(waiting.id))
    other = await (await _enter(client, double, waiting, iid)).json()
    people = await client.get(
        f"/activity/g/{token}?instance_id={iid}&part=people&lang=ja",
        headers=_bearer(other),
    )
    text = await people.text()
    assert f"{waiting.name}（参加中）" in text and "観戦：0人" in text and 'id="game"' not in text


async def test_a_spectator_watches_and_cannot_move(
    activity_site: tuple[GameService, Client], double: DiscordDouble, db_url: str
) -> None:
    service, client = activity_site
    gid, token, _, _, iid = await _launched(service, double)
    double.activities.join(iid, int(CAROL.id))
    entered = await (await _enter(client, double, CAROL, iid)).json()
    shown = await client.get(f"/activity/g/{token}?instance_id={iid}", headers=_bearer(entered))
    html = await shown.text()
    assert shown.status == 200 and "You are watching." in html and "Watching: 1" in html
    assert 'id="play"' not in html and 'id="game"' in html
    form = {"move": "四04占", "csrf": entered["csrf"], "ply": "0"}
    refused = await client.post(f"/g/{token}/move", data=form, headers={**JSON, **_bearer(entered)})
    assert refused.status == 403
    assert (await client.get(f"/g/{token}/seat.json", headers=_bearer(entered))).status == 403
    assert moves_of(db_url, gid) == []


async def test_every_refusal_of_the_activity_says_why_and_opens_nothing(
    activity_site: tuple[GameService, Client], double: DiscordDouble
) -> None:
    service, client = activity_site
    gid, token, mover, _, iid = await _launched(service, double)
    # a code Discord never gave (the mock client's own), or one used already
    bad = await client.post("/activity/token", data={"code": "mock_code", "instance_id": iid})
    assert bad.status == 401 and "sign-in" in (await bad.json())["said"]
    code = double.oauth.activity_code(_in_double(mover))
    assert (await client.post("/activity/token", data={"code": code, "instance_id": iid})).ok
    again = await client.post("/activity/token", data={"code": code, "instance_id": iid})
    assert again.status == 401
    # a site sign-in's code (given for a redirect address) is not an Activity's
    signed = "site-code"
    double.oauth.codes[signed] = Grant(_in_double(mover), CLIENT_ID, "https://x/auth/callback")
    site_code = await client.post("/activity/token", data={"code": signed, "instance_id": iid})
    assert site_code.status == 401
    # someone Discord does not list in the instance
    outsider = await _enter(client, double, CAROL, iid)
    assert outsider.status == 403 and "does not list you" in (await outsider.json())["said"]
    # an instance Discord does not know (ended, or made up)
    unknown = await _enter(client, double, mover, "i-unknown")
    assert unknown.status == 401 and "could not confirm" in (await unknown.json())["said"]
    entered = await (await _enter(client, double, mover, iid)).json()
    # a game that is not played where the Activity runs (in another thread of the channel)
    elsewhere = await start(service, "rokumentai")
    await placed(service, elsewhere, CHANNEL, THREAD + 10)
    # launched in the channel itself, both are offered (the page lets the participant choose)
    in_channel = double.activities.launch(CHANNEL, GUILD, int(mover.id)).instance_id
    both = await (await _enter(client, double, mover, in_channel)).json()
    assert {g["token"] for g in both["games"]} == {
        token,
        await service.review.page_token(elsewhere),
    }
    far = await service.review.page_token(elsewhere)
    wrong = await client.get(f"/activity/g/{far}?instance_id={iid}", headers=_bearer(entered))
    assert wrong.status == 403 and "not played where" in (await wrong.json())["said"]
    # no session, or a participant who left (once what Discord said is two seconds old)
    assert (await client.get(f"/activity/g/{token}?instance_id={iid}")).status == 401
    instances = client.server.app[INSTANCES_KEY]
    instances.clock = lambda: time.monotonic() + INSTANCE_SECONDS
    double.activities.leave(iid, int(mover.id))
    left = await client.get(f"/activity/g/{token}?instance_id={iid}", headers=_bearer(entered))
    assert left.status == 403
    double.activities.end(iid)
    ended = await client.get(f"/activity/g/{token}?instance_id={iid}", headers=_bearer(entered))
    assert ended.status == 401
    assert gid != elsewhere


async def test_open_the_board_launches_where_activities_are_on_else_links_the_page(
    activity_site: tuple[GameService, Client],
) -> None:
    service, _ = activity_site
    gid, _, mover, _ = await _game(service)
    launch = await service.review.open_board(gid, mover)
    assert launch.params["launch"] and not launch.public and launch.audience == mover.id
    # a game's first card offers it (the card the Discord adapter links)
    first = await service.review.linked(await service.play.board(gid, mover))
    assert "open_board" in [b.action.value for b in first.actions]
    # off: the game's page, privately (none without a public address); no button on the card
    service.ctx.settings = replace(service.ctx.settings, activity=False)
    assert (await service.review.open_board(gid, mover)).key == "activity.no_site"
    card = await service.review.linked(await service.play.board(gid, mover))
    assert "open_board" not in [b.action.value for b in card.actions]
    service.ctx.settings = replace(service.ctx.settings, public_url="https://banmen.example")
    link = await service.review.open_board(gid, mover)
    assert not link.params["launch"] and link.key == "activity.link"
    assert link.text("en").startswith(f"The board of game #{gid}: https://banmen.example/g/")


def test_the_bundled_sdk_is_the_one_the_lock_pins() -> None:
    """``bot/web/static/vendor/discord-sdk.js`` is built from ``scripts/vendor``'s lock (``make
    vendor``): its head names the version package.json and the lock pin, and what it holds."""
    root = Path(__file__).resolve().parents[2]
    vendor = root / "scripts" / "vendor"
    pinned = json.loads((vendor / "package.json").read_text())["dependencies"]
    version = pinned["@discord/embedded-app-sdk"]
    lock = json.loads((vendor / "package-lock.json").read_text())["packages"]
    assert lock["node_modules/@discord/embedded-app-sdk"]["version"] == version
    bundle = (root / "bot" / "web" / "static" / "vendor" / "discord-sdk.js").read_text()
    head = bundle.split("*/", 1)[0]
    assert head.startswith(f"/*! @discord/embedded-app-sdk {version} (MIT")
    for path, package in lock.items():
        if path and not package.get("dev"):
            name = path.removeprefix("node_modules/")
            assert f" * {name} {package['version']} " in head, name
    assert "var DiscordEmbeddedAppSdk=" in bundle  # the global activity.js reads


async def test_participants_count_by_their_pass_not_by_discords_address(
    activity_site: tuple[GameService, Client], double: DiscordDouble
) -> None:
    """Discord's proxy brings every participant from its own few addresses (here: all from
    127.0.0.1). With the signed pass the token's answer gives, each counts on their own
    against the site's bounds (four live streams each), not all together; a made-up or
    altered pass counts as the address."""
    from bot.web import activity

    service, client = activity_site
    _, token, mover, waiting, iid = await _launched(service, double)
    double.activities.join(iid, int(waiting.id))
    passes = []
    for user in (mover, waiting):
        entered = await (await _enter(client, double, user, iid)).json()
        assert activity.holder(service, entered["pass"]) == user.id
        passes.append(entered["pass"])
    user_id, until, mac = passes[0].split(".")
    for forged in (f"{waiting.id}.{until}.{mac}", f"{user_id}.{int(until) + 9}.{mac}", "1.2.3"):
        assert activity.holder(service, forged) is None
    assert activity.holder(service, passes[0], now=int(until) + 1) is None  # past its time
    streams = []
    try:
        for p in passes:  # four streams each, eight from one address
            for _ in range(4):
                stream = await client.get(f"/g/{token}/events", params={"pass": p})
                assert stream.status == 200
                streams.append(stream)
        fifth = await client.get(f"/g/{token}/events", params={"pass": passes[0]})
        assert fifth.status == 429  # a participant's own four
        fifth.release()
        forged = passes[1][:-2] + "AA"
        for p in ("", forged, "", forged, forged):  # none or forged: the address's four
            streams.append(await client.get(f"/g/{token}/events", params={"pass": p}))
        assert [s.status for s in streams[-5:]] == [200] * 4 + [429]
    finally:
        for s in streams:
            s.release()


async def test_the_instance_lookup_takes_a_slot_of_the_shared_budget(
    activity_site: tuple[GameService, Client], double: DiscordDouble
) -> None:
    """Looking the instance up is a request with the bot's token, counted by Discord against
    the bot's global limit: it takes a slot of the REST budget every process shares, as the
    bot's own requests do (issue 49)."""
    service, client = activity_site
    _, _, mover, _, iid = await _launched(service, double)
    store: Any = service.ctx.store
    take, taken = store.take_rest_slot, []

    async def counted(now_ms: int, interval_ms: int, ahead_ms: int) -> int:
        taken.append(now_ms)
        return int(await take(now_ms, interval_ms, ahead_ms))

    store.take_rest_slot = counted
    lookups = len([r for r in double.requests if "/activity-instances/" in r.path])
    assert (await _enter(client, double, mover, iid)).status == 200
    looked = len([r for r in double.requests if "/activity-instances/" in r.path]) - lookups
    assert looked == 1 and len(taken) == 1


async def test_one_lookup_serves_a_crowd_and_a_newcomer_is_looked_up_afresh(
    activity_site: tuple[GameService, Client], double: DiscordDouble
) -> None:
    """Everyone's page asks for the game again when someone joins: an instance Discord
    described is believed for two seconds, so one lookup serves them; someone it does not
    list (they just joined) is looked up afresh, not refused."""
    service, client = activity_site
    _, token, mover, waiting, iid = await _launched(service, double)

    def lookups() -> int:
        return len([r for r in double.requests if "/activity-instances/" in r.path])

    mine = await (await _enter(client, double, mover, iid)).json()
    address = f"/activity/g/{token}"
    query = {"instance_id": iid, "part": "people"}
    before = lookups()
    for _ in range(3):
        assert (await client.get(address, params=query, headers=_bearer(mine))).status == 200
    assert lookups() == before + 1
    double.activities.join(iid, int(waiting.id))
    theirs = await (await _enter(client, double, waiting, iid)).json()
    before = lookups()
    assert (await client.get(address, params=query, headers=_bearer(theirs))).status == 200
    assert lookups() == before + 1  # the remembered instance did not list them: asked again
