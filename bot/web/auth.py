"""Sign in with Discord (issue 51, 1): OAuth2's authorization-code flow, ``identify`` only.

``/auth/login`` sends the visitor to Discord's authorize page with a fresh ``state`` (kept in a
short-lived HTTP-only cookie, so the answer must come back to the browser that asked);
``/auth/callback`` checks it, trades the code for a token at Discord, asks who the token is
(``/users/@me``) and has the service open a session (an HTTP-only, ``SameSite=Lax`` cookie,
``Secure`` when the site is served over HTTPS); ``/auth/logout`` (a POST carrying the session's
CSRF token) ends it; ``/me`` lists the visitor's own games. Discord's token is used once and
forgotten: the site keeps no access to the visitor's account. Without the settings
(``BANMEN_OAUTH_CLIENT_ID`` and ``_SECRET``) none of this is served and the site stays what it
was, read-only.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
from aiohttp import web

from bot.service import GameService, Refusal, User
from bot.service.review.accounts import SESSION_DAYS, SiteUser

log = logging.getLogger("banmen.web.auth")

SESSION_COOKIE = "banmen_session"
STATE_COOKIE = "banmen_oauth"
STATE_SECONDS = 600
"""How long a sign-in may take between leaving for Discord and coming back."""
DISCORD_API = "https://discord.com/api/v10"
EXCHANGE_TIMEOUT = 10.0
"""Seconds the site waits for Discord's token and user answers."""
NOT_SIGNED_IN = "web.refuse.sign_in_failed"


def enabled(service: GameService) -> bool:
    settings = service.settings
    return bool(settings.oauth_client_id and settings.oauth_client_secret)


def _secure(request: web.Request, base: str) -> bool:
    return (base or str(request.url)).startswith("https://")


def _origin(request: web.Request, base: str) -> str:
    return base or f"{request.scheme}://{request.host}"


def _redirect_uri(request: web.Request, base: str) -> str:
    return _origin(request, base) + "/auth/callback"


def _local(path: str | None) -> str:
    """``path`` if it is a path of this site (never another site's address), else ``/me``."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/me"
    parts = urlsplit(path)
    return path if not parts.scheme and not parts.netloc else "/me"


async def visitor(service: GameService, request: web.Request) -> SiteUser | None:
    """Who is signed in on ``request`` (None: nobody, or sign-in is off)."""
    if not enabled(service):
        return None
    return await service.review.signed_in(session_of(request))


async def login(request: web.Request, service: GameService, base: str) -> web.StreamResponse:
    """Off to Discord's authorize page, with a fresh state that must come back."""
    if not enabled(service):
        raise Refusal("web.not_found")
    state = secrets.token_urlsafe(24)
    settings = service.settings
    query = urlencode(
        {
            "response_type": "code",
            "client_id": settings.oauth_client_id or "",
            "scope": "identify",
            "state": state,
            "redirect_uri": _redirect_uri(request, base),
            "prompt": "none",
        }
    )
    response = _go(f"{settings.oauth_authorize_url}?{query}")
    response.set_cookie(
        STATE_COOKIE,
        f"{state}|{_local(request.query.get('next'))}",
        max_age=STATE_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=_secure(request, base),
        path="/auth/",
    )
    return response


async def callback(request: web.Request, service: GameService, base: str) -> web.StreamResponse:
    """Back from Discord: the state checked, the code traded for who the visitor is, a
    session opened. Anything wrong: refused, nothing kept."""
    if not enabled(service):
        raise Refusal("web.not_found")
    kept, _, then = request.cookies.get(STATE_COOKIE, "").partition("|")
    state, code = request.query.get("state", ""), request.query.get("code", "")
    if not kept or not code or not hmac.compare_digest(kept.encode(), state.encode()):
        raise Refusal(NOT_SIGNED_IN)
    user = await _who(service, code, _redirect_uri(request, base))
    session = await service.review.sign_in(user)
    response = _go(_local(then))
    response.del_cookie(STATE_COOKIE, path="/auth/")
    response.set_cookie(
        SESSION_COOKIE,
        session.secret,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=_secure(request, base),
        path="/",
    )
    return response


async def _who(service: GameService, code: str, redirect_uri: str) -> User:
    """The Discord user the code was given for (the token is used once, then dropped)."""
    user, _ = await exchange(service, code, redirect_uri)
    return user


async def exchange(service: GameService, code: str, redirect_uri: str | None) -> tuple[User, str]:
    """Trade an OAuth2 code at Discord for its user and access token (``redirect_uri`` None: a
    code the Embedded App SDK's ``authorize`` gave an Activity, which names none). Anything
    wrong is :data:`NOT_SIGNED_IN`."""
    settings = service.settings
    api = (settings.discord_api_base or DISCORD_API).rstrip("/")
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": settings.oauth_client_id or "",
        "client_secret": settings.oauth_client_secret or "",
    }
    if redirect_uri is not None:
        form["redirect_uri"] = redirect_uri
    timeout = aiohttp.ClientTimeout(total=EXCHANGE_TIMEOUT)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as http:
            async with http.post(f"{api}/oauth2/token", data=form) as answer:
                granted: dict[str, Any] = await answer.json() if answer.status == 200 else {}
            token = granted.get("access_token")
            if not isinstance(token, str) or "identify" not in str(granted.get("scope", "")):
                raise Refusal(NOT_SIGNED_IN)
            headers = {"Authorization": f"Bearer {token}"}
            async with http.get(f"{api}/users/@me", headers=headers) as answer:
                me: dict[str, Any] = await answer.json() if answer.status == 200 else {}
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        log.warning("the Discord sign-in could not be completed: %s", exc)
        raise Refusal(NOT_SIGNED_IN) from exc
    user_id, name = str(me.get("id", "")), me.get("global_name") or me.get("username")
    if not user_id.isdigit() or not isinstance(name, str) or not name:
        raise Refusal(NOT_SIGNED_IN)
    return User(user_id, name[:100]), token


def session_of(request: web.Request) -> str | None:
    """The session secret a request carries: a bearer token (the Activity's page keeps it in
    memory: a cookie in Discord's frame is unreliable, and a header no other site can make a
    browser send), else the site's cookie."""
    bearer = request.headers.get("Authorization", "")
    if bearer.startswith("Bearer "):
        return bearer.removeprefix("Bearer ").strip()
    return request.cookies.get(SESSION_COOKIE)


async def logout(request: web.Request, service: GameService) -> web.StreamResponse:
    """End the session: only with its CSRF token (a page elsewhere cannot sign anyone out)."""
    form = await request.post()
    csrf = form.get("csrf")
    await service.review.sign_out(
        request.cookies.get(SESSION_COOKIE), csrf if isinstance(csrf, str) else ""
    )
    response = _go("/", 303)
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


def _go(location: str, status: int = 302) -> web.Response:
    """A redirect, as a plain response (the site's guard gives it the security headers)."""
    return web.Response(status=status, headers={"Location": location})
