"""The site: ``aiohttp.web`` routes over the service's review front and Jinja2 templates.

Every route is a GET (HEAD too) but signing out and a signed-in player's move (each carrying
the session's CSRF token; the move is played by the service as ``/move`` plays it); nothing
else here writes anything. A page that is not there or not
shown (a malformed or unknown token, another server's unlisted page) is one 404 that says
nothing about which. Every answer carries the security headers (a CSP without inline script:
the JavaScript is ``static/site.js``; no framing); request bodies and URLs are bounded, each
address has a token bucket of requests (429 past it), at most :data:`PAGES_AT_ONCE` requests
are answered at once with :data:`PAGES_WAITING` more waiting (503 past it: the moves come
first), and live-update streams are capped per address and in all. Behind a reverse proxy the
client's address is read from ``X-Forwarded-For`` only when the request comes from a proxy the
settings trust (``BANMEN_WEB_TRUSTED_PROXIES``); anyone else's header is ignored.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from bot.i18n import t
from bot.lang import Lang
from bot.service import (
    ACTIVITY_NOT_HERE,
    BUSY,
    NOT_FOUND,
    GameService,
    Refusal,
    SeatBoard,
    Text,
    WebUpdate,
)
from bot.web import activity, auth

log = logging.getLogger("banmen.web")

HERE = Path(__file__).resolve().parent
UNREACHABLE = "refuse.store_unreachable"
MAX_URL = 2048
"""The longest path and query accepted (414 past it)."""
MAX_BODY = 1024
"""The largest request body accepted (a move's form, its longest a 数字将棋 setup, is well
below it)."""
KEEPALIVE = 20.0
"""Seconds between two comments on an idle event stream (proxies close silent ones)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
PAGES_AT_ONCE = 8
"""Requests answered at once (pages, pictures, files): the service's reads and pictures share
the machine with the moves, so the site takes a bounded part of it."""
PAGES_WAITING = 64
"""Requests that may wait for a place; past that, 503 with ``Retry-After`` (the browser or the
visitor asks again)."""
STREAMS_PER_ADDRESS = 4
"""Live-update streams one address may hold open (a visitor has a few tabs, not hundreds)."""
STREAMS_IN_ALL = 256
"""Live-update streams open at once in all (each holds a connection and a file)."""
PAGES_A_SECOND = 80.0
"""Requests the site starts a second, in all: the site shares the bot's event loop with the
moves, so its share of that loop is bounded by rate, not only by how many run at once (a cached
page costs well under a millisecond, but two thousand of them a second would be the whole loop).
A request over the pace waits its turn (a sleeping request costs nothing)."""
PACE_BURST = 40
"""Requests that may start at once above the pace (a visitor's page and its pictures come
together; only a sustained crowd waits its turn)."""
PACE_WAIT = 5.0
"""The longest a request waits for its turn; past that it is answered busy."""
BUSY_DELAY = 1.0
"""How long a busy (503) or over-the-limit (429) answer waits before it goes: a client that
ignores ``Retry-After`` and asks again at once cannot spin the loop with refusals."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
FRAMED = web.RequestKey("framed", bool)
"""Set on a request whose answer is the Activity's page: the one answer Discord may frame."""
T = TypeVar("T")


class Busy(Exception):
    """Too many requests wait already: answered 503, nothing done."""


@dataclass
class Bounds:
    """How much of the machine the site may take at once: requests answered, requests waiting,
    live-update streams per address and in all."""

    at_once: int = PAGES_AT_ONCE
    waiting_max: int = PAGES_WAITING
    streams_per_address: int = STREAMS_PER_ADDRESS
    streams_max: int = STREAMS_IN_ALL
    rate: float = PAGES_A_SECOND
    burst: int = PACE_BURST
    pace_wait: float = PACE_WAIT
    busy_delay: float = BUSY_DELAY
    clock: Callable[[], float] = time.monotonic
    waiting: int = 0
    running: int = 0
    _next_start: float = 0.0
    streams: Counter[str] = field(default_factory=Counter)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set each time a stream closes (what a test or a drain waits on)."""
    _free: asyncio.Condition | None = None

    def _condition(self) -> asyncio.Condition:
        if self._free is None:
            self._free = asyncio.Condition()
        return self._free

    async def answer(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` at its turn of the pace and once a place is free (:class:`Busy` if its
        turn is too far off or too many wait already)."""
        now = self.clock()
        step = 1.0 / self.rate
        # a token bucket kept as the time the next start is due: up to ``burst`` starts may
        # be owed at once, each later one waits its step
        start = max(now, self._next_start - self.burst * step)
        if start - now > self.pace_wait:
            raise Busy
        self._next_start = max(self._next_start, now) + step
        if start > now:
            await asyncio.sleep(start - now)
        free = self._condition()
        async with free:
            if self.running >= self.at_once:
                if self.waiting >= self.waiting_max:
                    raise Busy
                self.waiting += 1
                try:
                    await free.wait_for(lambda: self.running < self.at_once)
                finally:
                    self.waiting -= 1
            self.running += 1
        try:
            return await work()
        finally:
            async with free:
                self.running -= 1
                free.notify()

    def open_stream(self, address: str) -> bool:
        """Take a stream's place for ``address`` (False: over its cap or over the total)."""
        if self.streams[address] >= self.streams_per_address:
            return False
        if sum(self.streams.values()) >= self.streams_max:
            return False
        self.streams[address] += 1
        return True

    def close_stream(self, address: str) -> None:
        self.streams[address] -= 1
        if self.streams[address] <= 0:
            del self.streams[address]
        self.closed.set()


@dataclass
class RateLimit:
    """A token bucket per address: ``burst`` requests at once, ``rate`` a second after that."""

    rate: float = 20.0
    burst: float = 120.0
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    max_addresses: int = 10_000

    def allow(self, address: str) -> bool:
        now = self.clock()
        tokens, at = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if len(self.buckets) >= self.max_addresses and address not in self.buckets:
            self._forget(now)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1.0, now)
        return True

    def _forget(self, now: float) -> None:
        """Drop the buckets that have filled up again (they hold nothing to remember)."""
        full = [
            a for a, (n, at) in self.buckets.items() if n + (now - at) * self.rate >= self.burst
        ]
        for a in full:
            del self.buckets[a]
        if len(self.buckets) >= self.max_addresses:
            self.buckets.clear()


SERVICE_KEY = web.AppKey("service", GameService)
LIMITER_KEY = web.AppKey("limiter", RateLimit)
BOUNDS_KEY = web.AppKey("bounds", Bounds)
PROXIES_KEY = web.AppKey("proxies", frozenset[str])
INSTANCES_KEY = web.AppKey("instances", activity.Instances)
TEMPLATES_KEY = web.AppKey("templates", jinja2.Environment)
BASE_KEY = web.AppKey("base", str)


def lang_of(request: web.Request) -> Lang:
    """``?lang=`` when given, else the browser's first language we speak, else English."""
    asked = request.query.get("lang", "")
    if asked in ("en", "ja"):
        return Lang.of(asked)
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in ("en", "ja"):
            return Lang.of(tag)
    return Lang.EN


def _tr(lang: Lang) -> Callable[[Text | str], str]:
    def tr(value: Text | str) -> str:
        return value if isinstance(value, str) else lang.pick(value.en, value.ja)

    return tr


def render(request: web.Request, name: str, status: int = 200, **context: Any) -> web.Response:
    lang = lang_of(request)
    template = request.app[TEMPLATES_KEY].get_template(name + ".html")
    html = template.render(
        lang=lang.value,
        other=Lang.JA.value if lang is Lang.EN else Lang.EN.value,
        t=lambda key, **params: t(key, lang.value, **params),
        tr=_tr(lang),
        path=request.path,
        base=request.app[BASE_KEY],
        sign_in=auth.enabled(request.app[SERVICE_KEY]),
        signed=auth.SESSION_COOKIE in request.cookies,
        **context,
    )
    return web.Response(text=html, content_type="text/html", status=status)


def visitor_key(request: web.Request) -> str:
    """Whom the site's bounds count a request against: an Activity's participant by their
    pass (Discord's proxy brings them all from its few addresses: :func:`activity.issue_pass`),
    anyone else by their address."""
    service = request.app[SERVICE_KEY]
    given = request.headers.get(activity.PASS_HEADER) or request.query.get("pass")
    user_id = activity.holder(service, given) if given else None
    return f"participant:{user_id}" if user_id else client_address(request)


def client_address(request: web.Request) -> str:
    """Who asks: the peer, or, when the peer is a trusted proxy, the nearest address in its
    ``X-Forwarded-For`` that is not itself a trusted proxy (what anyone else sends in that
    header is ignored: it costs nothing to forge)."""
    peer = request.remote or "?"
    trusted = request.app[PROXIES_KEY]
    if peer not in trusted:
        return peer
    hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed(hops):
        try:
            address = str(ipaddress.ip_address(hop))
        except ValueError:
            return peer  # a malformed chain: the proxy is all we know
        if address not in trusted:
            return address
    return peer


def _busy(request: web.Request) -> web.Response:
    response = render(request, "error", 503, message=t(BUSY, lang_of(request).value))
    response.headers["Retry-After"] = "1"
    return response


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bounds, the rate limit, the headers, and one 404 for whatever is not shown."""
    if len(str(request.rel_url)) > MAX_URL:
        raise web.HTTPRequestURITooLong()
    if request.content_length and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
    bounds = request.app[BOUNDS_KEY]
    if not request.app[LIMITER_KEY].allow(visitor_key(request)):
        await asyncio.sleep(bounds.busy_delay)
        response: web.StreamResponse = web.Response(
            status=429, text=t("web.too_many", lang_of(request)), headers={"Retry-After": "1"}
        )
    else:
        try:
            if request.match_info.route.name == "events":
                response = await handler(request)  # a stream waits: it holds no page's place
            else:
                response = await bounds.answer(lambda: handler(request))
        except Busy:
            await asyncio.sleep(bounds.busy_delay)
            response = _busy(request)
        except Refusal as exc:
            # One answer for whatever is not shown (bad text in a path included); only a store
            # that cannot be reached says so.
            unreachable = exc.key in (UNREACHABLE, BUSY)
            message = exc.text(lang_of(request)) if unreachable else t(NOT_FOUND, lang_of(request))
            response = render(request, "error", 503 if unreachable else 404, message=message)
            if exc.key == BUSY:
                response.headers["Retry-After"] = "1"
        except web.HTTPException as exc:
            if exc.status in (403, 404):  # a folder, a path outside the site: not there
                message = t(NOT_FOUND, lang_of(request).value)
                response = render(request, "error", 404, message=message)
            else:
                exc.headers.update(SECURITY_HEADERS)
                raise
    if not response.prepared:
        framed = request.get(FRAMED, False) and response.status == 200
        response.headers.update(activity.ACTIVITY_HEADERS if framed else SECURITY_HEADERS)
    return response


def _int(text: str | None, default: int) -> int:
    if text is None or not text.isdigit() or len(text) > 9:
        return default
    return int(text)


# --- routes ---------------------------------------------------------------------------------


async def index(request: web.Request) -> web.StreamResponse:
    if "frame_id" in request.query and activity.enabled(request.app[SERVICE_KEY]):
        return await activity_page(request)  # Discord launches the Activity at the root
    return render(request, "index", games=GameService.catalogue())


async def rules(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    game_id = request.match_info["game"]
    if game_id not in {g.id for g in service.catalogue()}:
        raise Refusal(NOT_FOUND)
    page = await service.learn.rules_page(game_id, _int(request.query.get("page"), 0))
    return render(request, "rules", page=page)


async def rules_picture(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    game_id = request.match_info["game"]
    if game_id not in {g.id for g in service.catalogue()}:
        raise Refusal(NOT_FOUND)
    index = _int(request.match_info["index"], -1)
    page = await service.learn.rules_page(game_id, index)
    if page.png is None or page.index != index:
        raise Refusal(NOT_FOUND)
    return _png(page.png)


def game_data(game: WebUpdate, lang: Lang) -> dict[str, Any]:
    """What a running page updates itself from (sent as an event): nothing a spectator could
    not see on the page itself."""
    tr = _tr(lang)
    return {
        "version": game.version,
        "total": game.total,
        "live": game.live,
        "moves": [tr(p.move) for p in game.plies],
        "ends": [tr(e) for e in game.ends],
        "to_move": game.to_move,
        "described": tr(game.described),
    }


async def game_page(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    game = await service.review.game_page(request.match_info["token"])
    ply = min(_int(request.query.get("ply"), game.total), game.total)
    words = (
        game.described if ply == game.total else await service.review.game_words(game.token, ply)
    )
    seat, csrf = None, ""
    who = await auth.visitor(service, request) if game.live else None
    if who is not None:
        try:
            seat = await service.review.seat_board(game.token, auth.session_of(request))
            csrf = who.csrf
        except Refusal as exc:
            if exc.key in (UNREACHABLE, BUSY):
                raise
            # a visitor who does not play in this game sees the spectator's page
    if seat is not None and ply == game.total:
        words = seat.described
    return render(
        request, "game", game=game, ply=ply, alt=words, seat=seat, csrf=csrf, framed=False
    )


# --- playing from the page (issue 51, 2) -----------------------------------------------------

PLAY_STATUS = {
    "web.refuse.sign_in": 401,
    "web.refuse.sign_in_failed": 401,
    "activity.refuse.failed": 401,
    ACTIVITY_NOT_HERE: 403,
    "activity.refuse.elsewhere": 403,
    "web.refuse.csrf": 403,
    "refuse.not_a_player": 403,
    "refuse.bad_move": 422,
    "refuse.too_long": 422,
    "refuse.bad_text": 422,
}
"""The HTTP status of each refusal of a move sent from the page (any other: 409, the game is
not where the move expected it)."""


def seat_data(token: str, seat: SeatBoard, lang: Lang) -> dict[str, Any]:
    """What the page's board is built from, for this visitor only: their seat's picture and
    cells, and their legal moves grouped by where they are clicked (canonical notation)."""
    tr = _tr(lang)
    width, height = seat.size
    return {
        "version": seat.version,
        "ply": seat.ply,
        "acting": seat.acting,
        "secret": seat.secret,
        "live": seat.live,
        "width": width,
        "height": height,
        "picture": f"/g/{token}/seat.png?v={seat.version}",
        "described": tr(seat.described),
        "cells": [
            {"cell": c.cell, "name": c.name, "box": list(c.box), "words": tr(c.words)}
            for c in seat.cells
        ],
        "origins": [{"key": o.key, "cell": o.cell, "label": tr(o.label)} for o in seat.origins],
        "choices": [
            {
                "move": c.notation,
                "shown": tr(c.shown),
                "from": c.origin,
                "to": c.target,
                **({"placed": [list(p) for p in c.placed]} if c.placed else {}),
            }
            for c in seat.choices
        ],
        "pieces": [tr(p) for p in seat.pieces],
    }


def _private(response: web.Response) -> web.Response:
    """One visitor's answer: never kept by a cache on the way."""
    response.headers["Cache-Control"] = "private, no-store"
    return response


async def seat_board(request: web.Request) -> web.StreamResponse:
    """The signed-in visitor's board (JSON): refused (their words) for anyone else."""
    service = request.app[SERVICE_KEY]
    if not auth.enabled(service):
        raise Refusal(NOT_FOUND)
    token, lang = request.match_info["token"], lang_of(request)
    try:
        seat = await service.review.seat_board(token, auth.session_of(request))
    except Refusal as exc:
        return _refused(exc, lang)
    return _private(web.json_response(seat_data(token, seat, lang)))


async def seat_picture(request: web.Request) -> web.StreamResponse:
    """The picture the signed-in visitor's seat sees now."""
    service = request.app[SERVICE_KEY]
    if not auth.enabled(service):
        raise Refusal(NOT_FOUND)
    token = request.match_info["token"]
    try:
        picture = await service.review.seat_picture(token, auth.session_of(request))
    except Refusal as exc:
        return _refused(exc, lang_of(request))
    return _private(web.Response(body=picture, content_type="image/png"))


def _refused(exc: Refusal, lang: Lang) -> web.Response:
    """A refusal of the board or of a move, as JSON in the page's language (a page that is
    not shown stays the one 404)."""
    if exc.key in (NOT_FOUND, UNREACHABLE, BUSY):
        raise exc
    status = PLAY_STATUS.get(exc.key, 409)
    return _private(web.json_response({"ok": False, "said": exc.text(lang)}, status=status))


async def site_move(request: web.Request) -> web.StreamResponse:
    """``POST /g/<token>/move`` (``move``, ``csrf``, ``ply``): the signed-in visitor's move,
    played as ``/move`` plays it. The page's script asks for JSON; a form sent without it
    (no script) comes back to the game's page, or to the refusal's words."""
    service = request.app[SERVICE_KEY]
    if not auth.enabled(service):
        raise Refusal(NOT_FOUND)
    token, lang = request.match_info["token"], lang_of(request)
    form = await request.post()
    move, csrf, ply = form.get("move"), form.get("csrf"), form.get("ply")
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        reply = await service.review.site_move(
            token,
            auth.session_of(request),
            csrf if isinstance(csrf, str) else "",
            move if isinstance(move, str) else "",
            _int(ply if isinstance(ply, str) else None, -1) if ply else None,
        )
    except Refusal as exc:
        refused = _refused(exc, lang)
        if wants_json:
            return refused
        return render(request, "error", refused.status, message=exc.text(lang))
    said = reply.text(lang.value, turn=False, deadline=False)
    if wants_json:
        return _private(web.json_response({"ok": True, "said": said}))
    return web.Response(status=303, headers={"Location": f"/g/{token}?lang={lang.value}"})


# --- the board as a Discord Activity (issue 51, 3) -------------------------------------------


async def activity_page(request: web.Request) -> web.StreamResponse:
    """The page Discord frames (the only one it may: :data:`activity.ACTIVITY_HEADERS`): the
    Embedded App SDK, then the game of the Activity's channel, built by ``activity.js``. Also
    served at ``/`` when Discord launches the Activity there (the URL mapping's root, with its
    ``frame_id`` in the address)."""
    service = request.app[SERVICE_KEY]
    if not activity.enabled(service):
        raise Refusal(NOT_FOUND)
    request[FRAMED] = True
    return render(request, "activity", client_id=service.settings.oauth_client_id or "")


async def activity_token(request: web.Request) -> web.StreamResponse:
    """``POST /activity/token`` (``code``, ``instance_id``): the code the SDK's ``authorize``
    gave, traded at Discord; the instance looked up at Discord; the participant let in by the
    service. JSON: Discord's access token (for the SDK's ``authenticate``), the session's
    secret and CSRF token (the page keeps them in memory and sends the secret as a bearer
    token), the running games where the Activity runs."""
    service = request.app[SERVICE_KEY]
    if not activity.enabled(service):
        raise Refusal(NOT_FOUND)
    lang = lang_of(request)
    form = await request.post()
    code, instance_id = form.get("code"), form.get("instance_id")
    try:
        user, access = await auth.exchange(service, code if isinstance(code, str) else "", None)
        where = await activity.instance(
            service, instance_id if isinstance(instance_id, str) else ""
        )
        entered = await service.review.enter_activity(user, where)
    except Refusal as exc:
        return _refused(exc, lang)
    tr = _tr(lang)
    games = [{"token": g.token, "title": tr(g.title), "players": g.players} for g in entered.games]
    session = entered.session
    answer = {
        "access_token": access,
        "session": session.secret,
        "csrf": session.user.csrf,
        "pass": activity.issue_pass(service, user.id),
        "games": games,
    }
    return _private(web.json_response(answer))


async def activity_game(request: web.Request) -> web.StreamResponse:
    """The Activity's game (``?instance_id=``; the session as a bearer token): the
    participants against its seats and the game's page, a seated participant's board in it
    (an HTML part the page puts in place); ``part=people``: the participants alone."""
    service = request.app[SERVICE_KEY]
    if not activity.enabled(service):
        raise Refusal(NOT_FOUND)
    token, lang = request.match_info["token"], lang_of(request)
    secret = auth.session_of(request)
    try:
        gathering = await request.app[INSTANCES_KEY].let_in(
            service,
            request.query.get("instance_id", ""),
            lambda where: service.review.activity_gathering(token, secret, where),
        )
    except Refusal as exc:
        return _refused(exc, lang)
    if request.query.get("part") == "people":
        return _private(render(request, "_people", gathering=gathering))
    game = await service.review.game_page(token)
    seat, csrf, words = None, "", game.described
    if gathering.plays and game.live:  # (the gathering read the session: the visitor's own)
        seat = await service.review.seat_board(token, secret)
        csrf, words = gathering.csrf, seat.described
    page = render(
        request,
        "activity_game",
        game=game,
        ply=game.total,
        alt=words,
        seat=seat,
        csrf=csrf,
        framed=True,
        gathering=gathering,
    )
    return _private(page)


def _analysis_query(request: web.Request) -> tuple[int | None, list[str]]:
    """The analysis board's start (``ply``; none: the game's end) and the moves tried (each
    ``m``, in order) from the address."""
    ply = request.query.get("ply")
    return (None if ply is None else _int(ply, 0)), request.query.getall("m", [])


def analysis_address(token: str, ply: int, moves: list[str], lang: str, **more: str) -> str:
    """The address of the analysis board after ``moves`` (what its links are made of)."""
    query = [("ply", str(ply)), *(("m", m) for m in moves), ("lang", lang), *more.items()]
    return f"/g/{token}/analyse?{urlencode(query)}"


async def analysis_page(request: web.Request) -> web.StreamResponse:
    """A finished game's analysis board: moves tried for either side (in the address, so a
    board is a link), taken back, and the computer's line on request (issue 50, 3)."""
    service = request.app[SERVICE_KEY]
    ply, moves = _analysis_query(request)
    best = request.query.get("best") == "1"
    board = await service.review.analysis_page(request.match_info["token"], ply, moves, best)
    lang = lang_of(request).value
    tried = [notation for _, notation in board.tried]

    def address(*more: str, **extra: str) -> str:
        return analysis_address(board.token, board.ply, [*tried, *more], lang, **extra)

    return render(
        request,
        "analyse",
        board=board,
        picture=f"/g/{board.token}/analyse.png?" + address().split("?", 1)[1],
        back=analysis_address(board.token, board.ply, tried[:-1], lang) if tried else None,
        best_link=address(best="1"),
        next_move=lambda notation: address(notation),
        start_at=lambda at: analysis_address(board.token, at, [], lang),
        keep=urlencode([("ply", str(board.ply)), *(("m", m) for m in tried)]),
    )


async def analysis_picture(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    ply, moves = _analysis_query(request)
    return _png(await service.review.analysis_picture(request.match_info["token"], ply, moves))


async def sign_in(request: web.Request) -> web.StreamResponse:
    return await auth.login(request, request.app[SERVICE_KEY], request.app[BASE_KEY])


async def signed_in(request: web.Request) -> web.StreamResponse:
    try:
        return await auth.callback(request, request.app[SERVICE_KEY], request.app[BASE_KEY])
    except Refusal as exc:
        if exc.key != auth.NOT_SIGNED_IN:
            raise
        return render(request, "error", 403, message=exc.text(lang_of(request)))


async def sign_out(request: web.Request) -> web.StreamResponse:
    try:
        return await auth.logout(request, request.app[SERVICE_KEY])
    except Refusal as exc:
        if exc.key != "web.refuse.csrf":
            raise
        return render(request, "error", 403, message=exc.text(lang_of(request)))


async def my_page(request: web.Request) -> web.StreamResponse:
    """The signed-in visitor's own games (to the sign-in first, if nobody is)."""
    service = request.app[SERVICE_KEY]
    if not auth.enabled(service):
        raise Refusal(NOT_FOUND)
    who = await auth.visitor(service, request)
    if who is None:
        return web.Response(status=302, headers={"Location": "/auth/login?next=/me"})
    return render(request, "me", who=who, games=await service.review.my_games(who))


EXPLORER_POOLS = ("all", "rated", "computer")
"""The explorer's pools on the site: every server's finished games, the rated ones, the
computer's self-play at levels 6-8 (``pool=`` in the address; ``rated=1`` as before)."""


def _explorer_query(request: web.Request) -> tuple[list[str], str]:
    pool = request.query.get("pool", "rated" if request.query.get("rated") == "1" else "all")
    return request.query.getall("m", []), pool if pool in EXPLORER_POOLS else "all"


def _pool_query(pool: str) -> list[tuple[str, str]]:
    return [("pool", pool)] if pool != "all" else []


def explorer_address(game: str, moves: list[str], lang: str, pool: str) -> str:
    """The address of the explorer's position after ``moves`` (what its links are made of)."""
    query = [*(("m", m) for m in moves), ("lang", lang), *_pool_query(pool)]
    return f"/explore/{game}?{urlencode(query)}"


async def explorer_page(request: web.Request) -> web.StreamResponse:
    """The opening explorer of a game (issue 50): the moves played from a position in every
    server's finished games, each a link into it; a position is its address."""
    service = request.app[SERVICE_KEY]
    game = request.match_info["game"]
    if game not in {g.id for g in service.catalogue()}:
        raise Refusal(NOT_FOUND)
    moves, pool = _explorer_query(request)
    board = await service.review.explorer_page(
        game, moves, pool == "rated", computer=pool == "computer"
    )
    lang = lang_of(request).value
    done = list(board.moves)
    keep = urlencode([*(("m", m) for m in done), *_pool_query(pool)])
    return render(
        request,
        "explore",
        board=board,
        picture=f"/explore/{board.game}.png?{keep}",
        into=lambda move: explorer_address(board.game, [*done, move], lang, pool),
        back=explorer_address(board.game, done[:-1], lang, pool) if done else None,
        start=explorer_address(board.game, [], lang, pool),
        pools=[(p, explorer_address(board.game, done, lang, p), p == pool) for p in EXPLORER_POOLS],
        keep=keep,
    )


async def explorer_picture(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    game = request.match_info["game"]
    if game not in {g.id for g in service.catalogue()}:
        raise Refusal(NOT_FOUND)
    moves, pool = _explorer_query(request)
    picture = await service.review.explorer_picture(
        game, moves, pool == "rated", computer=pool == "computer"
    )
    return _png(picture)


async def game_words(request: web.Request) -> web.StreamResponse:
    """The picture after a ply in words, as plain text (the page's script sets it as the
    picture's ``alt`` when a visitor steps)."""
    service = request.app[SERVICE_KEY]
    words = await service.review.game_words(
        request.match_info["token"], int(request.match_info["ply"])
    )
    return web.Response(text=words.get(lang_of(request).value))


async def game_picture(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    ply = _int(request.match_info["ply"], -1)
    if ply < 0:
        raise Refusal(NOT_FOUND)
    return _png(await service.review.game_picture(request.match_info["token"], ply))


async def game_record(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    found = await service.review.game_file(request.match_info["token"], request.match_info["kind"])
    kind = found.name.rsplit(".", 1)[-1]
    types = {"json": "application/json", "kifu": "text/plain", "kif": "text/plain"}
    charset = "shift_jis" if kind == "kif" else "utf-8"
    return web.Response(
        body=found.data,
        headers={
            "Content-Type": f"{types[kind]}; charset={charset}",
            "Content-Disposition": f'attachment; filename="{found.name}"',
        },
    )


async def game_events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: the game's data each time it changes, until it ends. A visitor who
    closes the page closes the stream: that is how every stream ends, not an error."""
    service = request.app[SERVICE_KEY]
    bounds = request.app[BOUNDS_KEY]
    token = request.match_info["token"]
    lang = lang_of(request)
    game = await bounds.answer(lambda: service.review.game_update(token))
    version = _int(request.query.get("v"), -1)
    address = visitor_key(request)
    if not bounds.open_stream(address):
        return web.Response(status=429, text=t("web.too_many", lang), headers={"Retry-After": "5"})
    try:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                **SECURITY_HEADERS,
            }
        )
        await response.prepare(request)
        sent: dict[str, Any] = {}
        while True:
            if game.version != version:
                version = game.version
                data = game_data(game, lang)
                shown = {k: v for k, v in data.items() if k != "version"}
                if shown != sent:  # (a change the page does not show: nothing to send)
                    sent = shown
                    text = json.dumps(data, ensure_ascii=False)
                    await response.write(f"data: {text}\n\n".encode())
            if not game.live:
                break
            try:
                await asyncio.wait_for(service.review.game_changed(token, version), KEEPALIVE)
            except TimeoutError:
                await response.write(b": idle\n\n")
                continue
            game = await service.review.game_update(token)
        await response.write_eof()
    except ConnectionResetError:
        log.debug("a live-update stream of %s closed by its visitor", address)
    finally:
        bounds.close_stream(address)
    return response


async def guild_page(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    found = await service.review.server_page(request.match_info["guild"])
    return render(request, "guild", guild=found)


async def player_page(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE_KEY]
    found = await service.review.player_page(
        request.match_info["guild"], request.match_info["user"]
    )
    return render(request, "player", player=found, chart=chart_points(found.chart))


def chart_points(
    series: tuple[tuple[Text, tuple[int, ...]], ...], width: int = 600, height: int = 160
) -> list[tuple[Text, str, int, int]]:
    """Each game's rating history as an SVG polyline's points: (title, points, first, last)."""
    out = []
    values = [v for _, s in series for v in s]
    if not values:
        return []
    low, high = min(values), max(values)
    span = max(high - low, 1)
    for title, points in series:
        step = width / max(len(points) - 1, 1)
        xy = " ".join(
            f"{i * step:.1f},{height - (v - low) * height / span:.1f}" for i, v in enumerate(points)
        )
        out.append((title, xy, points[0], points[-1]))
    return out


def _png(data: bytes) -> web.Response:
    return web.Response(
        body=data, content_type="image/png", headers={"Cache-Control": "public, max-age=60"}
    )


def create_app(
    service: GameService,
    *,
    base: str | None = None,
    limit: RateLimit | None = None,
    bounds: Bounds | None = None,
) -> web.Application:
    """The site over ``service``; ``base``: the address links and Open Graph tags use
    (default ``BANMEN_PUBLIC_URL``, else links stay relative)."""
    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app[SERVICE_KEY] = service
    app[LIMITER_KEY] = limit or RateLimit()
    app[BOUNDS_KEY] = bounds or Bounds()
    app[PROXIES_KEY] = frozenset(service.settings.web_trusted_proxies)
    app[INSTANCES_KEY] = activity.Instances()
    app[BASE_KEY] = (base or service.settings.public_url or "").rstrip("/")
    app[TEMPLATES_KEY] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    app.router.add_get("/", index)
    app.router.add_get("/rules/{game}", rules)
    app.router.add_get(r"/rules/{game}/{index:\d+}.png", rules_picture)
    app.router.add_get("/g/{token}", game_page)
    app.router.add_get(r"/g/{token}/{ply:\d+}.png", game_picture)
    app.router.add_get(r"/g/{token}/{ply:\d+}.txt", game_words)
    app.router.add_get("/g/{token}/record.{kind}", game_record)
    app.router.add_get("/g/{token}/analyse", analysis_page)
    app.router.add_get("/g/{token}/analyse.png", analysis_picture)
    app.router.add_get("/g/{token}/events", game_events, name="events")
    app.router.add_get("/g/{token}/seat.json", seat_board)
    app.router.add_get("/g/{token}/seat.png", seat_picture)
    app.router.add_post("/g/{token}/move", site_move)
    app.router.add_get(r"/explore/{game:[a-z0-9-]+}.png", explorer_picture)
    app.router.add_get(r"/explore/{game:[a-z0-9-]+}", explorer_page)
    app.router.add_get("/auth/login", sign_in)
    app.router.add_get("/auth/callback", signed_in)
    app.router.add_post("/auth/logout", sign_out)
    app.router.add_get("/me", my_page)
    app.router.add_get("/activity", activity_page)
    app.router.add_post("/activity/token", activity_token)
    app.router.add_get("/activity/g/{token}", activity_game)
    app.router.add_get(r"/s/{guild:\d+}", guild_page)
    app.router.add_get(r"/s/{guild:\d+}/p/{user}", player_page)
    app.router.add_static("/static", HERE / "static", append_version=False)
    return app


class Running:
    """A started site: its address and how to stop it."""

    def __init__(self, runner: web.AppRunner, site: web.TCPSite, url: str) -> None:
        self.runner = runner
        self.site = site
        self.url = url

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start(
    service: GameService,
    host: str | None = None,
    port: int | None = None,
    *,
    limit: RateLimit | None = None,
) -> Running:
    """Serve the site on ``host``:``port`` (default the settings'; port 0: any free one) in the
    running event loop."""
    settings = service.settings
    host = settings.web_host if host is None else host
    port = settings.web_port if port is None else port
    # a visitor who leaves ends their request's handler at once (every route only reads): a
    # closed stream gives back its place now, not at its next keep-alive
    runner = web.AppRunner(
        create_app(service, limit=limit),
        access_log=None,
        shutdown_timeout=1,
        handler_cancellation=True,
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    url = f"http://{host}:{bound}"
    log.info("web pages at %s", url)
    return Running(runner, site, url)


async def serve(service: GameService) -> Running | None:
    """The site on the settings' address, unless its port is 0; a port already taken is one
    warning, not a stop (the bot and the sandbox go on without their site)."""
    settings = service.settings
    if not settings.web_port:
        return None
    try:
        return await start(service)
    except OSError as exc:
        log.warning(
            "cannot serve the web pages on %s:%d (%s); set BANMEN_WEB_PORT (0: off)",
            settings.web_host,
            settings.web_port,
            exc.strerror or exc,
        )
        return None
