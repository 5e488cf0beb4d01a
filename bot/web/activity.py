"""The board as a Discord Activity (issue 51, 3): what the site asks Discord.

Discord shows the Activity's page (``/activity``) in a frame of its client, served through its
proxy from the site's public address (the developer portal's URL mapping: docs/activity.md).
The page runs the Embedded App SDK (``static/vendor/discord-sdk.js``, ``static/activity.js``):
``authorize`` gives it a code, which it posts to ``/activity/token``; the site trades the code
at Discord (:func:`bot.web.auth.exchange`, no ``redirect_uri`` in the Activity's flow) for the
participant and an access token (the SDK's ``authenticate`` takes it), and asks Discord, with
the bot's token, for the instance the page says it runs in (:func:`instance`): who is in it,
where. The service decides the rest (:mod:`bot.service.review.activity`). Nothing the page says
about who or where is believed.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp

from bot.service import ACTIVITY_NOT_HERE, GameService, Instance, Refusal
from bot.web.auth import DISCORD_API, EXCHANGE_TIMEOUT

log = logging.getLogger("banmen.web.activity")
T = TypeVar("T")

FAILED = "activity.refuse.failed"
"""The refusal of an Activity whose code or instance Discord did not confirm."""
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""What an instance id looks like (anything else is never looked up)."""
FRAMERS = "https://discord.com https://*.discord.com https://*.discordsays.com"
"""Who may frame the Activity's page: Discord's clients (the web and desktop app, its test
builds) and its proxy's domain, under which the page is served in the frame."""
ACTIVITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
        f"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors {FRAMERS}"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""The Activity page's headers: the site's, but Discord may frame it (no ``X-Frame-Options``,
which cannot name an origin), and a seated player's picture may be a ``blob:`` (fetched with
the session's bearer token, which an ``<img>`` cannot send)."""


PASS_HEADER = "X-Banmen-Pass"
"""The header an Activity's requests carry their pass in (a stream, which cannot send one,
carries it as ``pass`` in its address)."""
PASS_SECONDS = 12 * 3600
"""How long a pass lasts (as long as the Activity's session)."""


INSTANCE_SECONDS = 2.0
"""How long an instance Discord described is believed again without asking (a page and its
participants' refresh ask often; everyone's page asks when someone joins)."""


class Instances:
    """The instances Discord described lately, each for :data:`INSTANCE_SECONDS`: when someone
    joins, every participant's page asks for the game again, and one lookup at Discord serves
    them all. Someone not in a remembered instance is looked up afresh (they may just have
    joined): :meth:`let_in`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[str, tuple[float, Instance]] = {}

    async def let_in(
        self, service: GameService, instance_id: str, enter: Callable[[Instance], Awaitable[T]]
    ) -> T:
        """``enter`` the instance as remembered, or as Discord says now if it was not, or if
        the remembered one does not let the visitor in."""
        now = self.clock()
        kept = self.seen.get(instance_id)
        if kept is not None and now - kept[0] < INSTANCE_SECONDS:
            try:
                return await enter(kept[1])
            except Refusal as exc:
                if exc.key != ACTIVITY_NOT_HERE:
                    raise
        fresh = await instance(service, instance_id)
        self.seen = {k: v for k, v in self.seen.items() if now - v[0] < INSTANCE_SECONDS}
        self.seen[instance_id] = (now, fresh)
        return await enter(fresh)


def enabled(service: GameService) -> bool:
    return service.review.activity_on()


def _pass_key(service: GameService) -> bytes:
    """The key passes are signed with, the same in every site process: drawn from the OAuth2
    client's secret, which Activities need anyway (a pass is no secret of Discord's)."""
    secret = service.settings.oauth_client_secret or ""
    return hashlib.sha256(b"banmen activity pass\0" + secret.encode()).digest()


def _signed(service: GameService, body: str) -> str:
    mac = hmac.new(_pass_key(service), body.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(mac).decode()


def issue_pass(service: GameService, user_id: str, now: float | None = None) -> str:
    """A participant's pass: who they are, until when, signed. Discord's proxy shows every
    participant to the site from a few addresses of its own, so the site's bounds per address
    (its rate limit, four live streams) would let a handful of participants use up an
    Activity; with the pass they count per participant instead (:func:`holder`), and a pass
    cannot be made up without the key, so it opens no way round the bounds."""
    until = int((time.time() if now is None else now) + PASS_SECONDS)
    body = f"{user_id}.{until}"
    return f"{body}.{_signed(service, body)}"


def holder(service: GameService, text: str | None, now: float | None = None) -> str | None:
    """Whose pass ``text`` is (None: none, a forged one, or one past its time)."""
    if not text or not enabled(service) or len(text) > 100:
        return None
    body, _, mac = text.rpartition(".")
    user_id, _, until = body.partition(".")
    if not (user_id.isdigit() and until.isdigit()):
        return None
    if not hmac.compare_digest(mac, _signed(service, body)):
        return None
    if int(until) < (time.time() if now is None else now):
        return None
    return user_id


async def instance(service: GameService, instance_id: str) -> Instance:
    """The Activity's instance ``instance_id`` as Discord describes it (``GET
    /applications/{id}/activity-instances/{instance}``, with the bot's token): refused when
    Discord does not know it (ended, or another application's)."""
    settings = service.settings
    if not INSTANCE_ID.fullmatch(instance_id) or not settings.discord_token:
        raise Refusal(FAILED)
    # a request with the bot's token: it counts against the bot's global limit, so it takes a
    # slot of the budget every process shares, as the bot's own requests do (issue 49)
    while (wait := await service.rest_slot(int(time.time() * 1000))) > 0:
        await asyncio.sleep(wait)
    api = (settings.discord_api_base or DISCORD_API).rstrip("/")
    app_id = settings.oauth_client_id or ""
    url = f"{api}/applications/{app_id}/activity-instances/{instance_id}"
    headers = {"Authorization": f"Bot {settings.discord_token}"}
    timeout = aiohttp.ClientTimeout(total=EXCHANGE_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as http,
            http.get(url, headers=headers) as answer,
        ):
            found: dict[str, Any] = await answer.json() if answer.status == 200 else {}
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        log.warning("the Activity's instance could not be looked up: %s", exc)
        raise Refusal(FAILED) from exc
    location = found.get("location") or {}
    channel, users = location.get("channel_id"), found.get("users")
    if found.get("instance_id") != instance_id or not isinstance(channel, str):
        raise Refusal(FAILED)
    if not isinstance(users, list) or not all(isinstance(u, str) for u in users):
        raise Refusal(FAILED)
    guild = location.get("guild_id")
    return Instance(instance_id, channel, guild if isinstance(guild, str) else None, tuple(users))
