"""Sign in with Discord on the site (issue 51, 1), against the Discord double's OAuth2: the
authorization-code flow with its state, a session in an HTTP-only cookie (the store keeps only
its hash), the visitor's own games, and sign-out only with the session's CSRF token."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.config import Settings
from bot.service import GameService, User
from bot.web import create_app
from tests.discord_double import DiscordDouble
from tests.discord_double.oauth import CLIENT_ID
from tests.helpers import play_on, query

Client = TestClient[Any, Any]


async def _sign_in(client: Client, double: DiscordDouble, state: str | None = None) -> Any:
    """Through the sign-in as a browser would go (each redirect followed by hand); the answer
    of the site's callback."""
    leaving = await client.get("/auth/login?next=/me", allow_redirects=False)
    assert leaving.status == 302
    to_discord = leaving.headers["Location"]
    asked = parse_qs(urlsplit(to_discord).query)
    assert asked["scope"] == ["identify"] and asked["client_id"] == [CLIENT_ID]
    assert asked["response_type"] == ["code"] and asked["state"][0]
    async with (
        aiohttp.ClientSession() as browser,
        browser.get(to_discord, allow_redirects=False) as approved,
    ):
        back = approved.headers["Location"]
    if state is not None:  # someone else's answer: another state
        back = back.replace(f"state={asked['state'][0]}", f"state={state}")
    path = urlsplit(back)
    return await client.get(f"{path.path}?{path.query}", allow_redirects=False)


async def test_sign_in_see_my_games_and_sign_out(
    site: tuple[GameService, Client], double: DiscordDouble, db_url: str
) -> None:
    service, client = site
    alice = User(str(double.alice.id), "alice")
    bob = User(str(double.bob.id), "bob")
    made = await service.play.create_game(alice, "rokumentai", seated=[bob], seed="s")
    assert made.game_id is not None
    await play_on(service, made.game_id, 0)
    double.oauth.signing_in = double.alice
    before = await (await client.get("/")).text()
    assert "Sign in with Discord" in before
    back = await _sign_in(client, double)
    assert back.status == 302 and back.headers["Location"] == "/me"
    cookie = back.cookies["banmen_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    secret = cookie.value
    stored = query(db_url, "SELECT secret_hash, user_id FROM site_sessions")
    assert stored == [(stored[0][0], str(double.alice.id))] and secret not in stored[0][0]
    mine = await client.get("/me")
    page = await mine.text()
    assert mine.status == 200 and "Alice" in page and "Rokumentai" in page
    token = await service.review.page_token(made.game_id)
    assert f'href="/g/{token}?lang=en"' in page
    assert "My games" in await (await client.get("/")).text()
    # signing out needs the session's CSRF token: a form elsewhere cannot
    refused = await client.post("/auth/logout", data={"csrf": "forged"}, allow_redirects=False)
    assert refused.status == 403 and (await client.get("/me")).status == 200
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    out = await client.post("/auth/logout", data={"csrf": csrf}, allow_redirects=False)
    assert out.status == 303
    after = await client.get("/me", allow_redirects=False)
    assert after.status == 302 and after.headers["Location"].startswith("/auth/login")
    assert query(db_url, "SELECT count(*) FROM site_sessions") == [(0,)]


async def test_a_sign_in_that_does_not_hold_opens_no_session(
    site: tuple[GameService, Client], double: DiscordDouble, db_url: str
) -> None:
    service, client = site
    double.oauth.signing_in = double.alice
    wrong_state = await _sign_in(client, double, state="someone-elses")
    assert wrong_state.status == 403 and "did not complete" in await wrong_state.text()
    double.oauth.signing_in = None  # the visitor said no on Discord's page
    denied = await _sign_in(client, double)
    assert denied.status == 403
    double.oauth.signing_in = double.alice
    service.ctx.settings = replace(service.ctx.settings, oauth_client_secret="wrong")
    bad_client = await _sign_in(client, double)
    assert bad_client.status == 403
    assert query(db_url, "SELECT count(*) FROM site_sessions") == [(0,)]
    assert (await client.get("/me", allow_redirects=False)).status == 302
    # a made-up session cookie is nobody
    client.session.cookie_jar.update_cookies({"banmen_session": "x" * 43})
    assert (await client.get("/me", allow_redirects=False)).status == 302
    # the next address stays on this site
    leaving = await client.get("/auth/login?next=//evil.example/x", allow_redirects=False)
    assert "//evil.example" not in leaving.cookies["banmen_oauth"].value


async def test_without_the_settings_there_is_no_sign_in(db_url: str) -> None:
    service = await GameService.open(db_url, clock=FakeClock(), settings=Settings(db_path=db_url))
    try:
        app = create_app(service)
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            assert "Sign in" not in await (await client.get("/")).text()
            for path in ("/auth/login", "/me", "/auth/callback?code=x&state=y"):
                assert (await client.get(path, allow_redirects=False)).status == 404
    finally:
        await service.close()


async def test_ended_sessions_do_not_pile_up(db_url: str) -> None:
    """Every sign-in forgets the sessions that have ended (an Activity signs in each time it is
    opened, for half a day): the table holds the live ones."""
    clock = FakeClock()
    service = await GameService.open(db_url, clock=clock, settings=Settings(db_path=db_url))
    try:
        alice = User("100", "alice")
        first = await service.review.sign_in(alice)
        clock.advance(days=31)  # the first has ended
        second = await service.review.sign_in(alice)
        assert await service.review.signed_in(first.secret) is None
        assert await service.review.signed_in(second.secret) is not None
        rows = query(db_url, "SELECT count(*) FROM site_sessions")
        assert rows == [(1,)]
    finally:
        await service.close()
