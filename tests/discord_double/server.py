"""A loopback Discord: enough of the REST API and the gateway for the real discord.py client.

One aiohttp server on 127.0.0.1 (an ephemeral port) serves ``/api/v10/...`` and the gateway
websocket (JSON, zlib-stream compressed as discord.py asks for). It keeps the guild, its channels,
threads and messages, records every request the bot makes, and lets a test act as users:
``slash``, ``autocomplete``, ``click`` and ``submit_modal`` dispatch INTERACTION_CREATE and
return when the bot has answered. A slash option given an :class:`Upload` is an attachment the
bot can download.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

from tests.discord_double import layout, payloads
from tests.discord_double.activity import Activities
from tests.discord_double.limits import Limits
from tests.discord_double.oauth import OAuth
from tests.discord_double.payloads import JSON, User, snowflake

EPHEMERAL = 1 << 6


@dataclass
class Upload:
    """A file the bot uploaded (multipart ``files[n]``)."""

    filename: str
    data: bytes
    content_type: str
    description: str | None = None
    """The attachment's description (its alt text), from ``payload_json``'s ``attachments``."""


ENTRY_POINT = 4
"""An application command's type PRIMARY_ENTRY_POINT: an Activity's "Launch" (issue 51, 3)."""
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
"""The idle times after which Discord may archive a thread (its only allowed values)."""


@dataclass
class Request:
    """One REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[Upload]
    at: float
    status: int = 200


@dataclass
class Reply:
    """One thing the bot sent in answer to an interaction.

    ``kind`` is ``callback`` (with ``type``: 4 message, 5 deferred, 6 deferred update, 7 update,
    8 autocomplete, 9 modal, 12 an Activity launched), ``followup`` or ``edit`` (of the original
    response).
    """

    kind: str
    type: int | None
    body: JSON
    files: list[Upload]
    at: float
    message: JSON | None = None


_DONE_CALLBACKS = {4, 7, 8, 9, 12}


@dataclass
class Interaction:
    """An interaction the double dispatched, with everything the bot answered."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    payload: JSON
    sent_at: float
    replies: list[Reply] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    responded: asyncio.Event = field(default_factory=asyncio.Event)

    # -- what the bot answered ---------------------------------------------------------------
    @property
    def callback(self) -> Reply | None:
        return next((r for r in self.replies if r.kind == "callback"), None)

    @property
    def response_time(self) -> float:
        """Seconds from dispatch to the first callback (Discord allows 3)."""
        cb = self.callback
        return float("inf") if cb is None else cb.at - self.sent_at

    @property
    def answer(self) -> Reply:
        """The reply that carries the answer: the last message-bearing reply."""
        for reply in reversed(self.replies):
            if reply.kind != "callback" or reply.type in _DONE_CALLBACKS:
                return reply
        if self.replies:
            return self.replies[-1]
        raise AssertionError(f"interaction {self.id} got no answer")

    @property
    def data(self) -> JSON:
        body = self.answer.body
        data = body.get("data", body) if self.answer.kind == "callback" else body
        return data if isinstance(data, dict) else {}

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def text(self) -> str:
        """Content, every embed's title, description and fields and the card's texts, for
        assertions."""
        return payloads.text_of(self.data)

    @property
    def files(self) -> list[Upload]:
        return [f for r in self.replies for f in r.files]

    @property
    def ephemeral(self) -> bool:
        cb = self.callback
        flags = 0
        if cb is not None and cb.type in (4, 5):
            flags |= int((cb.body.get("data") or {}).get("flags") or 0)
        flags |= int(self.data.get("flags") or 0)
        return bool(flags & EPHEMERAL)

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (callback type 8)."""
        cb = self.callback
        assert cb is not None and cb.type == 8, f"not an autocomplete answer: {self.replies}"
        return list((cb.body.get("data") or {}).get("choices") or [])

    @property
    def modal(self) -> JSON:
        cb = self.callback
        assert cb is not None and cb.type == 9, f"no modal was opened: {self.replies}"
        return dict(cb.body.get("data") or {})

    @property
    def message(self) -> JSON | None:
        """The message the answer created or edited, as the double stores it."""
        return self.answer.message


class Gateway:
    """One gateway connection: a zlib stream and the sequence number."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.seq = 0
        self.session_id = secrets.token_hex(8)
        self.shard: tuple[int, int] = (0, 1)
        """(shard id, shard count) as the bot identified."""
        self.identified = asyncio.Event()
        self.on_seq: Callable[[str, int], None] | None = None

    async def send(self, payload: JSON) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        if self.compressor is None:
            await self.ws.send_str(text)
        else:
            raw = self.compressor.compress(text.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
            await self.ws.send_bytes(raw)

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})
        if self.on_seq is not None:
            self.on_seq(self.session_id, self.seq)


Handler = Callable[[web.Request, re.Match[str], "Request"], Awaitable[web.StreamResponse]]


class DiscordDouble:
    """The loopback Discord. Use as ``async with DiscordDouble() as double:``."""

    def __init__(self) -> None:
        self.token = "double." + secrets.token_urlsafe(16)
        self.application_id = snowflake()
        self.bot_user = User(self.application_id, "banmen", bot=True)
        self.guild_id = snowflake()
        self.owner = User(snowflake(), "owner", permissions=payloads.ALL_PERMISSIONS)
        self.alice = User(snowflake(), "alice")
        self.bob = User(snowflake(), "bob", locale="ja")
        self.carol = User(snowflake(), "carol")
        self.mod = User(
            snowflake(), "mod", permissions=payloads.MEMBER_PERMISSIONS | payloads.MANAGE_THREADS
        )
        self.users = [self.owner, self.alice, self.bob, self.carol, self.mod]
        self.channel_id = snowflake()
        self.channels: dict[int, JSON] = {
            self.channel_id: payloads.text_channel(self.channel_id, self.guild_id, "games")
        }
        self.guild_ids: list[int] = [self.guild_id]
        """Every server the bot is in (:meth:`add_guild`); the first is :attr:`guild_id`."""
        self.guild_gateways: dict[int, Gateway] = {}
        """The connection that carries each server's events (its shard's)."""
        self.messages: dict[int, JSON] = {}
        self.message_order: list[int] = []
        self.files: dict[int, bytes] = {}
        self.requests: list[Request] = []
        self.app_permissions = payloads.ALL_PERMISSIONS
        """What the bot may do where it is asked (an interaction's ``app_permissions``)."""
        self.thread_members: dict[int, set[int]] = {}
        """Who was added to which thread (``PUT /channels/{thread}/thread-members/{user}``)."""
        self.unhandled: list[Request] = []
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.synced = asyncio.Event()
        self.gateway: Gateway | None = None
        """The connection that carries the guild (its shard's)."""
        self.gateways: dict[int, Gateway] = {}
        """Every shard's latest connection, by shard id."""
        self.shard_identifies: list[tuple[int, int]] = []
        """(shard id, shard count) of every IDENTIFY, in order."""
        self.recommended_shards = 1
        self.max_concurrency = 16
        """Logins at once (``session_start_limit.max_concurrency``): a shard's bucket is its
        id modulo this."""
        self.identify_interval: float | None = None
        """When set, Discord's login rate: a second IDENTIFY of one bucket within this many
        seconds is refused (op 9, the session invalid), as Discord refuses it."""
        self.identify_times: list[tuple[float, int]] = []
        """(loop time, shard id) of every IDENTIFY accepted, in order."""
        self.interaction_delay = 0.0
        """Seconds each interaction spent on its way before its event is sent (a busy bot's
        event loop, a slow network): its id's time is that far back, and Discord's three
        seconds to answer count from then."""
        self._delayed = itertools.count(1 << 21)
        self.identifies_refused = 0
        """What ``GET /gateway/bot`` advises."""
        self.connections = 0
        self.identifies = 0
        self.resumes = 0
        self.sessions: dict[str, int] = {}
        self.session_shards: dict[str, tuple[int, int]] = {}
        self.close_codes: list[int | None] = []
        """How each gateway connection ended (1000: the bot closed it cleanly)."""
        self.forbid_threads = False
        """Refuse thread creation (403), as a server that denies the bot the permission."""
        self.private_channels: dict[int, set[int]] = {}
        """Direct and group messages between people (issue 48), by channel id: who is in each.
        The bot is in none of them: it reaches them only through interactions (a channel post
        there is refused, 403 code 50001), as a user-installed app does."""
        self.user_installed: set[int] = set()
        """Servers where the bot is not a member, its commands there those its users
        installed: interactions only, like the private channels."""
        self.followup_limit = 5
        """Follow-ups a token may send where only a user installed the app (Discord's five)."""
        self.token_seconds = 15 * 60.0
        """How long an interaction's token lasts (Discord's 15 minutes)."""
        self.closed_dms: set[int] = set()
        """Users who take no direct messages from the bot: a message to their DM channel is
        refused as Discord refuses it (403, code 50007)."""
        self.before_request: Callable[[Request], bool] | None = None
        """Called with every REST request before it is handled; returning True drops it (no
        effect, no answer): a crash test kills the bot there, as if it died before sending."""
        self.after_request: Callable[[Request], None] | None = None
        """Called with every REST request once it has been handled (its effect is done)."""
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._install_routes()
        self.oauth = OAuth()
        """A site's Discord sign-in (tests/discord_double/oauth.py)."""
        self.activities = Activities()
        """The Activities launched, their instances and who is in each
        (tests/discord_double/activity.py)."""
        self.limits = Limits()
        """Discord's REST rate limits (tests/discord_double/limits.py): the global 50 a second
        for the token, and the per-route buckets a test asks for."""

    # -- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{id}/{name}", self._attachment)
        app.router.add_get("/oauth2/authorize", self.oauth.authorize)
        app.router.add_post("/api/v10/oauth2/token", self.oauth.token)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None)
        assert sockets
        self.port = int(sockets[0].getsockname()[1])

    async def close(self) -> None:
        for gw in {id(g): g for g in [*self.gateways.values(), self.gateway] if g}.values():
            with contextlib.suppress(ConnectionError, RuntimeError):
                await gw.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> DiscordDouble:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What the bot sets as ``DISCORD_API_BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What the bot sets as ``DISCORD_GATEWAY_URL``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- gateway -----------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=None, autoping=True)
        await ws.prepare(request)
        gw = Gateway(ws, compress=request.query.get("compress") == "zlib-stream")
        gw.on_seq = self.sessions.__setitem__
        self.connections += 1
        await gw.send({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await gw.send({"op": 11})
            elif op == 2:
                await self._identify(gw, data["d"])
            elif op == 6:
                await self._resume(gw, data["d"])
        self.close_codes.append(ws.close_code)
        async with self._changed:
            self._changed.notify_all()
        return ws

    async def _resume(self, gw: Gateway, data: JSON) -> None:
        """Resume a session this double started (missed events are not replayed: the double
        dispatches nothing while no bot is connected); an unknown one must identify again."""
        if data.get("token") != self.token or data.get("session_id") not in self.sessions:
            await gw.send({"op": 9, "d": False})
            return
        self.resumes += 1
        gw.session_id = str(data["session_id"])
        gw.seq = self.sessions[gw.session_id]
        await self._take_shard(gw, self.session_shards.get(gw.session_id, (0, 1)))
        await gw.dispatch("RESUMED", {})
        gw.identified.set()
        async with self._changed:
            self._changed.notify_all()

    async def _identify(self, gw: Gateway, data: JSON) -> None:
        if data.get("token") != self.token:
            await gw.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        now = asyncio.get_running_loop().time()
        bucket = int(shard[0]) % self.max_concurrency
        last = [t for t, s in self.identify_times if s % self.max_concurrency == bucket]
        if self.identify_interval is not None and last and now - last[-1] < self.identify_interval:
            self.identifies_refused += 1
            await gw.send({"op": 9, "d": False})  # too soon: the session is invalid
            return
        self.identify_times.append((now, int(shard[0])))
        self.identifies += 1
        self.sessions[gw.session_id] = 0
        self.session_shards[gw.session_id] = (int(shard[0]), int(shard[1]))
        self.shard_identifies.append(self.session_shards[gw.session_id])
        holds = await self._take_shard(gw, self.session_shards[gw.session_id])
        await gw.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(g), "unavailable": True} for g in holds],
                "session_id": gw.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "shard": list(gw.shard),
            },
        )
        if not holds:
            gw.identified.set()
            async with self._changed:
                self._changed.notify_all()
            return
        for guild_id in holds:
            here = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
            channels = [c for c in here if c["type"] == 0]
            guild = payloads.guild(guild_id, self.owner, channels, [self.bot_user, *self.users])
            guild["threads"] = [c for c in here if c["type"] in (11, 12)]
            await gw.dispatch("GUILD_CREATE", guild)
        gw.identified.set()
        async with self._changed:
            self._changed.notify_all()

    def shard_of_guild(self, shard_count: int, guild_id: int | None = None) -> int:
        """The shard that carries a server's events (Discord's rule; the first server's by
        default)."""
        return ((guild_id or self.guild_id) >> 22) % shard_count

    def add_guild(self, shard: int = 0, shard_count: int = 1) -> tuple[int, int]:
        """Another server with the bot in it, whose events ``shard`` of ``shard_count``
        carries, and its games channel: (server id, channel id). Its members are the same
        people. Add it before the bot connects."""
        now = snowflake() >> 22  # Discord's shard of a server: (its id >> 22) % shard count
        high = now - (now - shard) % shard_count  # a time not after now: no id made later
        # is this one, nor any made before (they never count that high within a millisecond)
        guild_id = (high << 22) | ((1 << 22) - 1 - len(self.guild_ids))
        channel_id = snowflake()
        self.guild_ids.append(guild_id)
        self.channels[channel_id] = payloads.text_channel(channel_id, guild_id, "games")
        return guild_id, channel_id

    def guild_of(self, channel_id: int) -> int:
        """The server of a channel or thread (the first one for an unknown channel)."""
        guild = self.channels.get(channel_id, {}).get("guild_id")
        return int(guild) if guild else self.guild_id

    async def _take_shard(self, gw: Gateway, shard: tuple[int, int]) -> list[int]:
        """``gw`` now runs ``shard`` (an older connection of that shard is replaced, 4000);
        the servers it carries."""
        gw.shard = shard
        old = self.gateways.get(shard[0])
        if old is not None and old is not gw and not old.ws.closed:
            await old.ws.close(code=4000)
        self.gateways[shard[0]] = gw
        holds = [g for g in self.guild_ids if self.shard_of_guild(shard[1], g) == shard[0]]
        for guild_id in holds:
            self.guild_gateways[guild_id] = gw
        if self.guild_id in holds:
            self.gateway = gw
        return holds

    async def request_reconnect(self) -> None:
        """Ask the bot to reconnect (op 7), as Discord does when it moves a session."""
        gw = self.gateway
        if gw is None:
            raise RuntimeError("the bot is not connected to the gateway")
        await gw.send({"op": 7, "d": None})

    async def _dispatch(self, event: str, data: JSON) -> None:
        guild = data.get("guild_id")
        gw = self.guild_gateways.get(int(guild)) if guild else self.gateway
        if gw is None or gw.ws.closed:
            raise RuntimeError("the bot is not connected to the gateway")
        await gw.dispatch(event, data)

    # -- REST --------------------------------------------------------------------------------
    def _install_routes(self) -> None:
        r = self._route
        r("GET", r"/users/@me", self._get_me)
        r("GET", r"/gateway/bot", self._get_gateway_bot)
        r("GET", r"/oauth2/applications/@me", self._get_application)
        r("GET", r"/applications/@me", self._get_application)
        r("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands)
        r("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._put_commands)
        r("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands)
        r("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._get_commands)
        r("POST", r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback", self._callback)
        r(
            "GET",
            r"/applications/(?P<app>\d+)/activity-instances/(?P<instance>[^/]+)",
            self._activity_instance,
        )
        r("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup)
        r(
            "GET",
            r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
            self._get_webhook_message,
        )
        r(
            "PATCH",
            r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
            self._edit_webhook_message,
        )
        r(
            "DELETE",
            r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
            self._delete_webhook_message,
        )
        r("GET", r"/channels/(?P<channel>\d+)", self._get_channel)
        r("POST", r"/channels/(?P<channel>\d+)/messages", self._post_message)
        r("GET", r"/channels/(?P<channel>\d+)/messages", self._get_messages)
        r("GET", r"/channels/(?P<channel>\d+)/messages/(?P<mid>\d+)", self._get_message)
        r("PATCH", r"/channels/(?P<channel>\d+)/messages/(?P<mid>\d+)", self._patch_message)
        r("DELETE", r"/channels/(?P<channel>\d+)/messages/(?P<mid>\d+)", self._delete_message)
        r("POST", r"/channels/(?P<channel>\d+)/threads", self._create_thread)
        r("POST", r"/channels/(?P<channel>\d+)/messages/(?P<mid>\d+)/threads", self._create_thread)
        r("PATCH", r"/channels/(?P<channel>\d+)", self._patch_channel)
        r("PUT", r"/channels/(?P<channel>\d+)/thread-members/(?P<user>@me|\d+)", self._join_thread)
        r("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member)
        r("GET", r"/users/(?P<user>\d+)", self._get_user)
        r("POST", r"/users/@me/channels", self._dm_channel)

    def _route(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method, re.compile(pattern + "$"), handler))

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        if path == "/users/@me" and request.headers.get("Authorization", "").startswith("Bearer "):
            return self.oauth.bearer(request)  # a site's signed-in visitor, not the bot
        body, files = await _read_body(request)
        rec = Request(request.method, path, dict(request.query), body, files, time.perf_counter())
        self.requests.append(rec)
        if self.before_request is not None and self.before_request(rec):
            rec.status = 503
            return _error(503, 0, "dropped by the test")
        limited, refused = self.limits.check(request.method, path)
        if refused is not None:
            rec.status = 429
            answer = _json(refused, status=429)
            answer.headers.update(limited)
            return answer
        for method, pattern, handler in self._routes:
            m = pattern.match(path)
            if m and method == request.method:
                needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
                if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    rec.status = 401
                    return _error(401, 0, "401: Unauthorized")
                response = await handler(request, m, rec)
                response.headers.update(limited)
                rec.status = response.status
                if self.after_request is not None:
                    self.after_request(rec)
                async with self._changed:
                    self._changed.notify_all()
                return response
        rec.status = 404
        self.unhandled.append(rec)
        return _error(404, 0, f"the double has no route {request.method} {path}")

    async def _no_content(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        return web.Response(status=204)

    async def _join_thread(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        thread = self.channels.get(int(m["channel"]))
        if thread is None or thread["type"] not in (11, 12):
            return _error(404, 10003, "Unknown Channel")
        user = self.bot_user.id if m["user"] == "@me" else int(m["user"])
        self.thread_members.setdefault(int(thread["id"]), set()).add(user)
        return web.Response(status=204)

    async def _get_gateway_bot(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _get_me(self, request: web.Request, m: re.Match[str], rec: Request) -> web.Response:
        return _json(self.bot_user.payload())

    async def _get_user(self, request: web.Request, m: re.Match[str], rec: Request) -> web.Response:
        user = self.user(int(m["user"]))
        return _json(user.payload())

    async def _get_member(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        return _json(self.user(int(m["user"])).member(self.guild_id))

    async def _dm_channel(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        recipient = self.user(int(rec.json["recipient_id"]))
        for data in self.channels.values():  # Discord opens one DM channel a user, for good
            if data.get("type") == 1 and data.get("recipients") == [recipient.payload()]:
                return _json(data)
        channel_id = snowflake()
        data = {"id": str(channel_id), "type": 1, "recipients": [recipient.payload()]}
        self.channels[channel_id] = data
        return _json(data)

    async def _get_application(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "Banmen",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.owner.payload(),
                "team": None,
                "flags": 0,
                "summary": "",
            }
        )

    async def _put_commands(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        guild = int(m["guild"]) if m.groupdict().get("guild") else None
        kept = [c for c in self.commands.get(guild, []) if c.get("type") == ENTRY_POINT]
        if kept and not any(c.get("type") == ENTRY_POINT for c in rec.json):
            return _error(
                400,
                50_240,
                "You cannot remove this app's Entry Point command in a bulk update operation.",
            )
        out = []
        for cmd in rec.json:
            cmd = dict(cmd)
            cmd.setdefault("type", 1)
            cmd.update(
                id=str(snowflake()),
                application_id=str(self.application_id),
                version=str(snowflake()),
            )
            if guild is not None:
                cmd["guild_id"] = str(guild)
            out.append(cmd)
        self.commands[guild] = out
        self.synced.set()
        return _json(out)

    def add_entry_point(self) -> JSON:
        """What enabling Activities in the developer portal does: a global Entry Point command
        (type 4, "launch", handled by Discord), which a bulk overwrite must carry along."""
        entry = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": ENTRY_POINT,
            "name": "launch",
            "description": "",
            "handler": 2,
            "integration_types": [0, 1],
            "contexts": [0, 1, 2],
        }
        self.commands.setdefault(None, []).append(entry)
        return entry

    async def _get_commands(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        guild = int(m["guild"]) if m.groupdict().get("guild") else None
        return _json(self.commands.get(guild, []))

    async def _callback(self, request: web.Request, m: re.Match[str], rec: Request) -> web.Response:
        inter = self.interactions.get(int(m["id"]))
        if inter is None or inter.token != m["token"]:
            return _error(404, 10062, "Unknown interaction")
        if inter.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if rec.at - inter.sent_at > 3.0:
            return _error(404, 10062, "Unknown interaction")
        body = rec.json or {}
        ctype = int(body.get("type", 0))
        reply = Reply("callback", ctype, body, rec.files, rec.at)
        data = dict(body.get("data") or {})
        edited = self.messages.get(int(inter.payload.get("message", {}).get("id") or 0))
        if refused := _layout_refusal(data, rec.files, edited if ctype == 7 else None):
            return refused
        message: JSON | None = None
        launched: JSON | None = None
        if ctype == 12:
            guild = inter.payload.get("guild_id")
            instance = self.activities.launch(
                inter.channel_id, int(guild) if guild else None, inter.user.id
            )
            launched = {"id": instance.instance_id}
        elif ctype in (4, 5):
            if ctype == 5:
                data = {"flags": data.get("flags", 0) | (1 << 7)}  # LOADING
            await self._revive(inter.channel_id, data)
            message = self._store(
                inter.channel_id, data, rec.files, self.bot_user.payload(), webhook=True
            )
            inter.payload["_original"] = message["id"]
        elif ctype == 7 and "message" in inter.payload:
            message = self._edit(int(inter.payload["message"]["id"]), data, rec.files)
            inter.payload["_original"] = message["id"]
        reply.message = message
        inter.replies.append(reply)
        inter.responded.set()
        if ctype in _DONE_CALLBACKS:
            inter.done.set()
        resource: JSON = {"type": ctype}
        if message is not None:
            resource["message"] = message
        if launched is not None:
            resource["activity_instance"] = launched
        return _json(
            {
                "interaction": {
                    "id": str(inter.id),
                    "type": inter.type,
                    "response_message_id": message["id"] if message else None,
                    "response_message_loading": ctype == 5,
                    "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
                    "activity_instance_id": launched["id"] if launched else None,
                },
                "resource": resource,
            }
        )

    async def _activity_instance(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        """An Activity's instance, for the application's bot (404 unknown or ended)."""
        instance = self.activities.instances.get(m["instance"])
        if instance is None or m["app"] not in (str(self.application_id), self.oauth.client_id):
            return _error(404, 10_064, "Unknown Activity instance")
        return _json(instance.payload(m["app"]))

    def _interaction_by_token(self, token: str) -> Interaction | None:
        return next((i for i in self.interactions.values() if i.token == token), None)

    async def _followup(self, request: web.Request, m: re.Match[str], rec: Request) -> web.Response:
        inter = self._interaction_by_token(m["token"])
        if inter is None:
            return _error(404, 10015, "Unknown Webhook")
        if refused := self._token_refusal(inter, followup=True):
            return refused
        body = rec.json or {}
        if refused := _layout_refusal(body, rec.files):
            return refused
        await self._revive(inter.channel_id, body)
        message = self._store(
            inter.channel_id, body, rec.files, self.bot_user.payload(), webhook=True
        )
        inter.replies.append(Reply("followup", None, body, rec.files, rec.at, message))
        inter.done.set()
        return _json(message)

    def _webhook_message_id(self, inter: Interaction, mid: str) -> int | None:
        if mid == "@original":
            original = inter.payload.get("_original")
            return None if original is None else int(original)
        return int(mid)

    async def _get_webhook_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        inter = self._interaction_by_token(m["token"])
        mid = None if inter is None else self._webhook_message_id(inter, m["mid"])
        if mid is None or mid not in self.messages:
            return _error(404, 10008, "Unknown Message")
        return _json(self.messages[mid])

    async def _edit_webhook_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        inter = self._interaction_by_token(m["token"])
        if inter is not None and (refused := self._token_refusal(inter, followup=False)):
            return refused
        mid = None if inter is None else self._webhook_message_id(inter, m["mid"])
        if inter is None or mid is None or mid not in self.messages:
            return _error(404, 10008, "Unknown Message")
        body = dict(rec.json or {})
        if refused := _layout_refusal(body, rec.files, self.messages[mid]):
            return refused
        message = self._edit(mid, body, rec.files)
        message["flags"] = int(message.get("flags") or 0) & ~(1 << 7)
        inter.replies.append(Reply("edit", None, body, rec.files, rec.at, message))
        inter.done.set()
        return _json(message)

    async def _delete_webhook_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        inter = self._interaction_by_token(m["token"])
        mid = None if inter is None else self._webhook_message_id(inter, m["mid"])
        if mid is not None:
            self.messages.pop(mid, None)
        return web.Response(status=204)

    async def _get_channel(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        channel = self.channels.get(int(m["channel"]))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json(channel)

    async def _patch_channel(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        channel = self.channels.get(int(m["channel"]))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        body = rec.json or {}
        meta = channel.get("thread_metadata")
        if meta is not None and meta.get("archived") and body.get("archived") is not False:
            # Discord: an archived thread takes no change but its unarchiving
            return _error(400, 50083, "Thread is archived")
        if meta is not None and body.get("auto_archive_duration") not in (None, *ARCHIVE_MINUTES):
            return _error(400, 50035, "Invalid Form Body")
        for key in ("name", "topic"):
            if key in body:
                channel[key] = body[key]
        if meta is not None:
            for key in ("archived", "locked", "auto_archive_duration"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = payloads.now_iso()
        return _json(channel)

    async def _revive(self, channel_id: int, body: JSON) -> bool:
        """Discord: a (non-ephemeral) message in an archived thread revives it, unless it is
        locked (then only a moderator may unarchive it: False, the message is refused)."""
        meta = (self.channels.get(channel_id) or {}).get("thread_metadata")
        if meta is None or not meta.get("archived") or int(body.get("flags") or 0) & EPHEMERAL:
            return True
        if meta.get("locked"):
            return False
        meta["archived"] = False
        meta["archive_timestamp"] = payloads.now_iso()
        await self._dispatch("THREAD_UPDATE", self.channels[channel_id])
        return True

    async def archive(self, thread_id: int, *, locked: bool = False) -> None:
        """Archive a thread as Discord does once it has been idle for its
        ``auto_archive_duration`` (or a moderator does, ``locked``), and tell the bot."""
        channel = self.channels[thread_id]
        meta = channel["thread_metadata"]
        meta.update(archived=True, locked=locked, archive_timestamp=payloads.now_iso())
        await self._dispatch("THREAD_UPDATE", channel)

    def archived(self, thread_id: int) -> bool:
        return bool(self.channels[thread_id]["thread_metadata"]["archived"])

    def archive_minutes(self, thread_id: int) -> int:
        """How long the thread may be idle before Discord archives it."""
        return int(self.channels[thread_id]["thread_metadata"]["auto_archive_duration"])

    async def _post_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        channel_id = int(m["channel"])
        if channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        channel = self.channels[channel_id]
        if channel_id in self.private_channels:
            return _error(403, 50001, "Missing Access")
        if channel.get("type") == 1 and any(
            int(r["id"]) in self.closed_dms for r in channel.get("recipients") or []
        ):
            return _error(403, 50007, "Cannot send messages to this user")
        body = rec.json or {}
        if refused := _layout_refusal(body, rec.files):
            return refused
        if not await self._revive(channel_id, body):
            return _error(400, 50083, "Thread is archived")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a second message with the same nonce from the same author (within a few
            # minutes) is not created; the first one is returned
            for mid in reversed(self.message_order):
                earlier = self.messages.get(mid)
                if earlier is not None and earlier.get("nonce") == str(nonce):
                    return _json(earlier)
        message = self._store(channel_id, body, rec.files, self.bot_user.payload())
        if nonce is not None:
            message["nonce"] = str(nonce)
        return _json(message)

    async def _get_messages(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        """A channel's history, newest first: ``limit`` (1-100), ``before``, ``after``."""
        channel_id = int(m["channel"])
        if channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        if channel_id in self.private_channels:
            return _error(403, 50001, "Missing Access")
        limit = max(1, min(100, int(rec.query.get("limit", 50))))
        before = int(rec.query["before"]) if "before" in rec.query else None
        after = int(rec.query["after"]) if "after" in rec.query else None
        found = [
            msg
            for msg in reversed(self.channel_messages(channel_id))
            if (before is None or int(msg["id"]) < before)
            and (after is None or int(msg["id"]) > after)
        ]
        if after is not None and before is None:  # Discord pages "after" oldest first
            found = sorted(found, key=lambda msg: int(msg["id"]))[:limit][::-1]
        return _json(found[:limit])

    async def _get_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        if int(m["channel"]) in self.private_channels:
            return _error(403, 50001, "Missing Access")
        message = self.messages.get(int(m["mid"]))
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message)

    async def _patch_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        mid = int(m["mid"])
        if int(m["channel"]) in self.private_channels:
            return _error(403, 50001, "Missing Access")
        if mid not in self.messages:
            return _error(404, 10008, "Unknown Message")
        if refused := _layout_refusal(rec.json or {}, rec.files, self.messages[mid]):
            return refused
        return _json(self._edit(mid, rec.json or {}, rec.files))

    async def _delete_message(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        self.messages.pop(int(m["mid"]), None)
        return web.Response(status=204)

    async def _create_thread(
        self, request: web.Request, m: re.Match[str], rec: Request
    ) -> web.Response:
        parent = int(m["channel"])
        if parent not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        if self.forbid_threads:
            return _error(403, 50013, "Missing Permissions")
        body = rec.json or {}
        private = body.get("type") == 12
        thread_id = int(m["mid"]) if m.groupdict().get("mid") else snowflake()
        thread = payloads.thread_channel(
            thread_id,
            self.guild_of(parent),
            parent,
            str(body.get("name", "thread")),
            self.bot_user.id,
            private,
        )
        if "auto_archive_duration" in body:
            thread["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        if private and "invitable" in body:
            thread["thread_metadata"]["invitable"] = bool(body["invitable"])
        self.channels[thread_id] = thread
        if m.groupdict().get("mid") and int(m["mid"]) in self.messages:
            self.messages[int(m["mid"])]["thread"] = thread
        elif not private:  # Discord marks a public thread opened from no message in its channel
            mid = snowflake()
            self.messages[mid] = payloads.message(
                mid,
                parent,
                self.guild_of(parent),
                self.bot_user.payload(),
                {"content": thread["name"]},
                [],
                message_type=THREAD_CREATED,
            )
            self.message_order.append(mid)
        await self._dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return _json(thread, status=201)

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.files.get(int(request.match_info["id"]))
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="image/png")

    # -- the message store -------------------------------------------------------------------
    def _attachments(self, body: JSON, files: list[Upload], keep: list[JSON]) -> list[JSON]:
        out: list[JSON] = []
        wanted = body.get("attachments")
        kept_ids = None if wanted is None else {str(a.get("id")) for a in wanted}
        for a in keep:
            if kept_ids is None or a["id"] in kept_ids:
                out.append(a)
        for upload in files:
            attachment_id = snowflake()
            self.files[attachment_id] = upload.data
            out.append(
                payloads.attachment(
                    attachment_id, upload.filename, upload.data, self.base_url, upload.description
                )
            )
        return out

    def _store(
        self,
        channel_id: int,
        body: JSON,
        files: list[Upload],
        author: JSON,
        *,
        webhook: bool = False,
    ) -> JSON:
        mid = snowflake()
        message = payloads.message(
            mid,
            channel_id,
            self.guild_of(channel_id),
            author,
            body,
            self._attachments(body, files, []),
            webhook_id=self.application_id if webhook else None,
        )
        message["allowed_mentions"] = body.get("allowed_mentions")
        message["mentions"] = self._mentions(body)
        self.messages[mid] = message
        self.message_order.append(mid)
        return message

    def _edit(self, mid: int, body: JSON, files: list[Upload]) -> JSON:
        message = self.messages[mid]
        kept = int(message.get("flags") or 0) & EPHEMERAL  # an edit cannot change that one
        for key, empty in (("content", ""), ("embeds", []), ("components", []), ("flags", 0)):
            if key in body:  # (null clears a field, as Discord reads an edit)
                message[key] = body[key] if body[key] is not None else empty
        message["flags"] = int(message.get("flags") or 0) | kept
        if "attachments" in body or files:
            message["attachments"] = self._attachments(body, files, message["attachments"])
        if "allowed_mentions" in body:
            message["allowed_mentions"] = body["allowed_mentions"]
        message["edited_timestamp"] = payloads.now_iso()
        message["edits"] = int(message.get("edits", 0)) + 1
        return message

    def _mentions(self, body: JSON) -> list[JSON]:
        """Who Discord would ping: user mentions in the content that allowed_mentions permits."""
        content = " ".join(
            [str(body.get("content") or ""), *payloads.texts(list(body.get("components") or []))]
        )
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", content)]
        allowed = body.get("allowed_mentions")
        if allowed is not None:
            parse = allowed.get("parse") or []
            if "users" not in parse:
                listed = {int(x) for x in allowed.get("users") or []}
                ids = [i for i in ids if i in listed]
        return [u.payload() for u in self.users if u.id in ids]

    # -- what tests use ----------------------------------------------------------------------
    def user(self, user_id: int) -> User:
        for u in [*self.users, self.bot_user]:
            if u.id == user_id:
                return u
        raise KeyError(user_id)

    def direct_messages(self, user: User) -> list[JSON]:
        """What the bot sent ``user`` by direct message, oldest first."""
        channels = {
            cid
            for cid, c in self.channels.items()
            if c.get("type") == 1
            and cid not in self.private_channels
            and any(int(r["id"]) == user.id for r in c["recipients"])
        }
        return [
            self.messages[m]
            for m in self.message_order
            if int(self.messages[m]["channel_id"]) in channels
        ]

    def channel_messages(self, channel_id: int) -> list[JSON]:
        return [
            self.messages[m]
            for m in self.message_order
            if m in self.messages and self.messages[m]["channel_id"] == str(channel_id)
        ]

    def threads(self) -> list[JSON]:
        return [c for c in self.channels.values() if c["type"] in (11, 12)]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every REST request)."""

        async def wait() -> Any:
            async with self._changed:
                while not (result := predicate()):
                    await self._changed.wait()
                return result

        return await asyncio.wait_for(wait(), timeout)

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Callable[[JSON], bool] = lambda m: True,
        *,
        after: int = 0,
        timeout: float = 10.0,
    ) -> JSON:
        """The first message in ``channel_id`` with id above ``after`` matching ``predicate``."""

        def find() -> JSON | None:
            for message in self.channel_messages(channel_id):
                if int(message["id"]) > after and predicate(message):
                    return message
            return None

        result: JSON = await self.wait_for(find, timeout)
        return result

    async def wait_connected(self, identifies: int = 1, timeout: float = 10.0) -> None:
        """Until the bot has identified on the gateway ``identifies`` times in all."""
        await self.wait_for(lambda: self.identifies >= identifies, timeout)

    def command(self, name: str, guild: int | None = None) -> JSON:
        for scope in (guild or self.guild_id, self.guild_id, None):  # the dev guild's anywhere
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        raise KeyError(f"command /{name} was not synced")

    def _channel_payload(self, channel_id: int) -> JSON:
        return dict(self.channels[channel_id])

    def context_of(self, channel_id: int) -> int:
        """An interaction's context there: 0 a server, 1 the bot's DM, 2 a private channel."""
        if channel_id in self.private_channels:
            return 2
        return 1 if self.channels.get(channel_id, {}).get("type") == 1 else 0

    def _base_interaction(self, itype: int, user: User, channel_id: int) -> Interaction:
        """An interaction of ``user`` in ``channel_id``, as Discord sends it there: in a server
        that added the bot, with the member, authorized by the server's install (``"0"``);
        elsewhere (a DM or group DM between people: context 2; the bot's DM: 1; a server
        that did not add it, :attr:`user_installed`) with the user only, authorized by the
        user's install (``"1"``; the bot's DM by the guild install's ``"0": "0"`` too)."""
        iid = snowflake()
        if self.interaction_delay:  # made back then (a count no id of its time has)
            made = (iid >> 22) - int(self.interaction_delay * 1000)
            iid = (made << 22) | next(self._delayed)
        token = "itoken." + secrets.token_urlsafe(24)
        context = self.context_of(channel_id)
        in_server = context == 0
        guild_id = self.guild_of(channel_id)
        by_server = in_server and guild_id not in self.user_installed
        owners: JSON = {"0": str(guild_id)} if by_server else {"1": str(user.id)}
        if context == 1:
            owners["0"] = "0"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "channel": self._channel_payload(channel_id),
            "app_permissions": str(
                self.app_permissions if by_server else payloads.MEMBER_PERMISSIONS
            ),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "context": context,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if in_server:
            payload.update(
                guild_id=str(guild_id),
                member=user.member(guild_id),
                guild_locale="en-US",
            )
        else:
            payload["user"] = user.payload()
        return Interaction(iid, token, itype, user, channel_id, payload, 0.0)

    def open_private(self, *users: User) -> int:
        """A conversation between ``users`` without the bot: a DM of two, a group DM of
        more (issue 48). Their interactions there have context 2."""
        channel_id = snowflake()
        recipients = [u.payload() for u in users]
        kind = 1 if len(users) == 2 else 3
        data: JSON = {"id": str(channel_id), "type": kind, "recipients": recipients}
        if kind == 3:
            data.update(name=None, owner_id=str(users[0].id), icon=None)
        self.channels[channel_id] = data
        self.private_channels[channel_id] = {u.id for u in users}
        return channel_id

    def open_bot_dm(self, user: User) -> int:
        """``user``'s direct messages with the bot (interactions there: context 1)."""
        for cid, data in self.channels.items():
            if (
                data.get("type") == 1
                and cid not in self.private_channels
                and data.get("recipients") == [user.payload()]
            ):
                return cid
        channel_id = snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 1,
            "recipients": [user.payload()],
        }
        return channel_id

    def age(self, seconds: float) -> None:
        """Every interaction so far is ``seconds`` older (their tokens expire after
        :attr:`token_seconds`): time passes without a test sleeping."""
        for inter in self.interactions.values():
            inter.sent_at -= seconds

    def _token_refusal(self, inter: Interaction, followup: bool) -> web.Response | None:
        """Discord's limits of an interaction's token: it lasts :attr:`token_seconds`; where
        only a user installed the app, it sends at most :attr:`followup_limit` follow-ups."""
        if time.perf_counter() - inter.sent_at > self.token_seconds:
            return _error(401, 50027, "Invalid Webhook Token")
        owners = inter.payload.get("authorizing_integration_owners") or {}
        if followup and "0" not in owners:
            sent = sum(1 for r in inter.replies if r.kind == "followup")
            if sent >= self.followup_limit:
                return _error(
                    400, 40094, "This interaction has hit the maximum number of follow up messages"
                )
        return None

    def _offered(self, cmd: JSON, inter: Interaction) -> None:
        """Discord offers a command only in the contexts it allows (``contexts``: 0 servers, 1
        the bot's DM, 2 private channels) and, where the bot is no member, only when it may be
        installed by a user (``integration_types`` with 1): anything else is a test's error."""
        context = int(inter.payload["context"])
        contexts = cmd.get("contexts")
        if contexts is not None and context not in contexts:
            raise KeyError(f"/{cmd['name']} is not offered in context {context}")
        owners = inter.payload.get("authorizing_integration_owners") or {}
        types = cmd.get("integration_types") or [0]
        if "0" not in owners and 1 not in types:
            raise KeyError(f"/{cmd['name']} cannot be installed by a user")

    def _options(
        self, cmd: JSON, values: dict[str, Any], focused: str | None, members: bool = True
    ) -> tuple[list[JSON], JSON]:
        specs = {o["name"]: o for o in cmd.get("options") or []}
        options: list[JSON] = []
        resolved: JSON = {}
        for name, value in values.items():
            if name not in specs:
                raise KeyError(f"/{cmd['name']} has no option {name!r}; it has {list(specs)}")
            otype = int(specs[name]["type"])
            if otype in (1, 2):  # a subcommand (group): its own options, nested
                sub, sub_resolved = self._options(specs[name], dict(value or {}), focused, members)
                for key, table in sub_resolved.items():
                    resolved.setdefault(key, {}).update(table)
                options.append({"name": name, "type": otype, "options": sub})
                continue
            if isinstance(value, Upload):  # an attachment option: served like any upload
                attachment_id = snowflake()
                self.files[attachment_id] = value.data
                resolved.setdefault("attachments", {})[str(attachment_id)] = payloads.attachment(
                    attachment_id, value.filename, value.data, self.base_url
                )
                value = str(attachment_id)
            elif isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if members:
                    resolved.setdefault("members", {})[str(value.id)] = value.member(
                        self.guild_id, with_user=False
                    )
                value = str(value.id)
            option: JSON = {"name": name, "type": otype, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    async def _send(self, inter: Interaction, timeout: float, wait: str) -> Interaction:
        self.interactions[inter.id] = inter
        inter.sent_at = time.perf_counter() - self.interaction_delay
        await self._dispatch("INTERACTION_CREATE", inter.payload)
        event = inter.done if wait == "done" else inter.responded
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"the bot did not answer interaction {inter.payload.get('data')} "
                f"within {timeout}s; replies so far: {inter.replies}"
            ) from None
        return inter

    async def slash(
        self,
        user: User,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        channel: int | None = None,
        timeout: float = 10.0,
        wait: str = "done",
    ) -> Interaction:
        """``user`` runs ``/name`` with ``options``; returns once the bot has answered."""
        cmd = self.command(name)
        inter = self._base_interaction(2, user, channel or self.channel_id)
        self._offered(cmd, inter)
        opts, resolved = self._options(cmd, options or {}, None, "member" in inter.payload)
        data: JSON = {"id": cmd["id"], "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in inter.payload:
            data["guild_id"] = inter.payload["guild_id"]
        inter.payload["data"] = data
        return await self._send(inter, timeout, wait)

    async def autocomplete(
        self,
        user: User,
        name: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: int | None = None,
        timeout: float = 10.0,
    ) -> Interaction:
        """``user`` is typing option ``focused`` of ``/name``; returns the choices answer."""
        cmd = self.command(name)
        inter = self._base_interaction(4, user, channel or self.channel_id)
        self._offered(cmd, inter)
        opts, _ = self._options(cmd, options, focused, "member" in inter.payload)
        inter.payload["data"] = {"id": cmd["id"], "name": name, "type": 1, "options": opts}
        return await self._send(inter, timeout, "done")

    async def click(
        self,
        user: User,
        message: JSON,
        custom_id: str,
        *,
        values: list[str] | None = None,
        timeout: float = 10.0,
        wait: str = "done",
    ) -> Interaction:
        """``user`` presses the button (or picks ``values`` of the select) ``custom_id``."""
        message = self.messages.get(int(message["id"]), message)
        if custom_id not in payloads.custom_ids(message.get("components") or []):
            raise KeyError(f"no component {custom_id!r} on message {message['id']}")
        inter = self._base_interaction(3, user, int(message["channel_id"]))
        data: JSON = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        inter.payload["data"] = data
        inter.payload["message"] = json.loads(json.dumps(message))
        return await self._send(inter, timeout, wait)

    async def submit_modal(
        self,
        user: User,
        opened_by: Interaction,
        values: dict[str, str],
        *,
        timeout: float = 10.0,
        wait: str = "done",
    ) -> Interaction:
        """``user`` fills the modal ``opened_by`` opened (text input custom_id -> value)."""
        modal = opened_by.modal
        rows: list[JSON] = []
        for text_input in payloads.find_components(modal.get("components") or [], 4):
            cid = str(text_input["custom_id"])
            rows.append(
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": cid, "value": values.get(cid, "")}],
                }
            )
        inter = self._base_interaction(5, user, opened_by.channel_id)
        inter.payload["data"] = {"custom_id": modal["custom_id"], "components": rows}
        if "message" in opened_by.payload:
            inter.payload["message"] = opened_by.payload["message"]
        return await self._send(inter, timeout, wait)

    def text_of(self, message: JSON) -> str:
        """What ``message`` says now (its latest stored version): content, embeds, card."""
        return payloads.text_of(self.messages.get(int(message["id"]), message))

    def pinged(self, message: JSON) -> list[int]:
        """The ids of the users ``message`` pinged (as Discord resolved its mentions)."""
        message = self.messages.get(int(message["id"]), message)
        return [int(u["id"]) for u in message.get("mentions") or []]

    def mark(self, message: JSON) -> str:
        """The small mark at the foot of a card (``#12``, ``#12 · 35``), or of an embed."""
        message = self.messages.get(int(message["id"]), message)
        for e in message.get("embeds") or []:
            if e.get("footer"):
                return str(e["footer"].get("text") or "")
        marks = [
            t for t in payloads.texts(list(message.get("components") or [])) if t.startswith("-# ")
        ]
        return marks[-1].removeprefix("-# ") if marks else ""

    def buttons(self, message: JSON) -> dict[str, str]:
        """Label -> custom_id of every button on ``message`` (its latest stored version)."""
        message = self.messages.get(int(message["id"]), message)
        return {
            str(b.get("label") or b.get("emoji", {}).get("name") or ""): str(b["custom_id"])
            for b in payloads.find_components(message.get("components") or [], 2)
            if "custom_id" in b
        }


THREAD_CREATED = 18
"""The type of the system message a thread opened from no message leaves in its channel."""


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON exactly as Discord labels it: discord.py compares the content type verbatim."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


def _described(body: Any, files: list[Upload]) -> list[Upload]:
    """``files`` (each named ``files[n]`` in its description for now) with the description
    ``payload_json`` gives attachment ``n``, as Discord reads it (``None`` without one)."""
    data = body.get("data", body) if isinstance(body, dict) else None
    listed = data.get("attachments") if isinstance(data, dict) else None
    by_id = {str(a.get("id")): a.get("description") for a in listed or [] if isinstance(a, dict)}
    out = []
    for upload in files:
        index = (upload.description or "").removeprefix("files[").removesuffix("]")
        out.append(replace(upload, description=by_id.get(index)))
    return out


def _layout_refusal(
    body: JSON, files: list[Upload], existing: JSON | None = None
) -> web.Response | None:
    """Discord's 400 for a message that breaks the Components V2 rules (layout.py), or None."""
    try:
        layout.check(body, [f.filename for f in files], existing)
    except layout.Invalid as bad:
        return _error(400, 50035, f"Invalid Form Body: {bad}")
    return None


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart ``payload_json`` with ``files[n]`` parts."""
    files: list[Upload] = []
    if request.content_type.startswith("multipart/"):
        body: Any = None
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            raw = await part.read()
            if part.name == "payload_json":
                body = json.loads(bytes(raw).decode())
            else:
                files.append(
                    Upload(
                        part.filename or part.name,
                        bytes(raw),
                        part.headers.get("Content-Type", "application/octet-stream"),
                        description=part.name,  # the part's name until the payload is read
                    )
                )
        return body, _described(body, files)
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else None), files
    return None, files
