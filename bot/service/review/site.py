"""The read-only web pages' use cases: a game by its token, its pictures and record files, a
server's games, leaderboards and player pages (the site itself: :mod:`bot.web`).

Everything here is what a spectator may see: pictures and moves come from the replays'
spectator view (a 数字将棋 setup stays hidden until the reveal), record files from
:meth:`Records.record` with no viewer (a solitaire's seed only once it may be shown). A game is
reached by an unguessable token (``secrets.token_urlsafe``), never by its counting id; a server's
lists and leaderboards only once it opted in (``/settings web public``). Whatever is not there
or not shown is one refusal, :data:`NOT_FOUND`, that says nothing about which.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any, TypeVar

from bot import i18n
from bot.clock import from_ms
from bot.model import GameStatus, RatingChange
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.guard import entry
from bot.service.play.records import Records, check_daily_view
from bot.service.ratings import row_text, shown
from bot.service.review.analysis import Analysis, WebAnalysis
from bot.service.review.following import Following
from bot.service.review.replays import Replays, positions
from bot.service.values import File, Line, Refusal, Reply
from engines.core import State, Text
from engines.registry import all_games, get_game

NOT_FOUND = "web.not_found"
"""The one refusal of every page that is not there or not shown (an unknown or malformed token,
another server's unlisted page)."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a token looks like (``secrets.token_urlsafe(16)`` makes 22 characters)."""
BUSY = "web.busy"
"""The refusal of a picture while too many wait to be drawn (the moves come first)."""
TOKENS_KEPT = 10_000
"""Tokens whose game is remembered (the least recently asked forgotten first)."""
UPDATES_KEPT = 2_000
"""Games' updates kept (one a game: its latest version's)."""
PICTURE_CACHE = 512
"""Pictures kept in memory (a page's step-through asks for the same plies again and again)."""
DRAWING = 2
"""Pictures the site draws at once (more wait: the worker pool and the moves' own pictures keep
the rest of the machine)."""
WAITING = 16
"""Pictures that may wait to be drawn; past that, :data:`BUSY` (the browser asks again)."""
LISTED_GAMES = 50
"""Games a server's page lists."""
BOARD_SIZE = 20
"""Players a server's leaderboard of one game shows."""
HISTORY = 200
"""Rated games a player page reads (its chart and recent games)."""
T = TypeVar("T")
RECORD_KINDS = ("kifu", "kif", "json")


@dataclass(frozen=True, slots=True)
class WebPly:
    number: int
    """1-based: the picture after it is ``number``."""
    move: Text


@dataclass(frozen=True, slots=True)
class WebUpdate:
    """What a running page updates itself from (an event of its stream): the moves, the
    result, who is to move, and the latest position in words, as a spectator sees them."""

    version: int
    live: bool
    plies: tuple[WebPly, ...]
    ends: tuple[Text, ...]
    """The result lines (empty while the game runs)."""
    to_move: str
    described: Text
    """The latest position in words, as a spectator sees it: what a running page announces."""

    @property
    def total(self) -> int:
        return len(self.plies)


@dataclass(frozen=True, slots=True)
class WebGame(WebUpdate):
    """A game as its page shows it to anyone holding its token: its update, and the rest."""

    token: str
    game_type: str
    title: Text
    seats: tuple[tuple[Text, str], ...]
    """(seat name, player name) by seat."""
    status: str
    clock: str
    deadline: datetime | None
    started: datetime | None
    records: tuple[str, ...]
    """The record files offered (of :data:`RECORD_KINDS`)."""
    guild_id: str | None
    listed: bool
    """Its server opted in: the page may link the server's page."""
    analysable: bool = False
    """A finished game of two or three players with an open position: its analysis board."""


@dataclass(frozen=True, slots=True)
class WebListed:
    """A line of a server's game list."""

    token: str
    title: Text
    players: str
    status: str
    ends: tuple[Text, ...]


@dataclass(frozen=True, slots=True)
class WebRank:
    place: int
    user_id: str
    name: str
    rating: str
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class WebBoard:
    """One game's leaderboard in a server."""

    game_type: str
    title: Text
    ranks: tuple[WebRank, ...]


@dataclass(frozen=True, slots=True)
class WebGuild:
    guild_id: str
    games: tuple[WebListed, ...]
    boards: tuple[WebBoard, ...]


@dataclass(frozen=True, slots=True)
class WebRated:
    """A rated game on a player page: its game, result, rating after it, and its token when
    the game has a page."""

    game_type: str
    title: Text
    result: Text
    opponents: str
    rating: int
    at: datetime
    token: str | None


@dataclass(frozen=True, slots=True)
class WebPlayer:
    guild_id: str
    user_id: str
    name: str
    ratings: tuple[tuple[Text, str, int], ...]
    """(game title, rating as shown, games) per game."""
    chart: tuple[tuple[Text, tuple[int, ...]], ...]
    """Per game, the shown rating after each rated game in this server, oldest first."""
    recent: tuple[WebRated, ...]


class Site:
    def __init__(
        self, ctx: Context, replays: Replays, records: Records, analysis: Analysis
    ) -> None:
        self.ctx = ctx
        self.replays = replays
        self.records = records
        self.analysis = analysis
        self._pictures: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        self._kinds: OrderedDict[tuple[int, int], tuple[str, ...]] = OrderedDict()
        """The record files a game offers at a version (made once, not at every page view)."""
        self._tokens: OrderedDict[str, int] = OrderedDict()
        """The game of each token looked up lately (a page and its stream ask again and
        again)."""
        self._updates: OrderedDict[tuple[int, int], tuple[WebUpdate, bool]] = OrderedDict()
        """A game's update at a version (its pages' next event, made once)."""
        self.following = Following(ctx)
        """The live pages' waits, and a site process's copies of the games."""
        self._drawing = asyncio.Semaphore(DRAWING)
        self._waiting = 0

    # -- tokens --------------------------------------------------------------------------------
    @entry
    async def token(self, game_id: int) -> str:
        """The token of ``game_id``'s page (made the first time it is asked for)."""
        await self.ctx.games.read(game_id)  # refuses an unknown game
        return await self.ctx.store.web_token(game_id, secrets.token_urlsafe(16))

    @entry
    async def link(self, game_id: int, base: str | None = None) -> str | None:
        """The address of ``game_id``'s page under ``base`` (default: ``BANMEN_PUBLIC_URL``;
        ``None`` when there is none)."""
        base = base or self.ctx.settings.public_url
        if not base:
            return None
        return f"{base.rstrip('/')}/g/{await self.token(game_id)}"

    @entry
    async def linked(self, reply: Reply) -> Reply:
        """``reply`` with a line linking its game's page when ``BANMEN_PUBLIC_URL`` is set (a
        game's first message, ``/record``)."""
        if not self.ctx.settings.public_url or reply.game_id is None:
            return reply
        if not await self.shown(await self.ctx.games.read(reply.game_id)):
            return reply  # a daily deal's page opens when its day is over: no dead link now
        url = await self.link(reply.game_id)
        return replace(reply, lines=(*reply.lines, Line("web.link", {"url": url})))

    async def loaded(self, token: str) -> Loaded:
        """The game behind ``token`` if its page is shown (else :data:`NOT_FOUND`)."""
        return await self._game(token)

    async def _game(self, token: str) -> Loaded:
        if not TOKEN.fullmatch(token):
            raise Refusal(NOT_FOUND)
        game_id = self._tokens.get(token)
        if game_id is None:
            game_id = await self.ctx.store.web_game(token)
            if game_id is None:
                raise Refusal(NOT_FOUND)
            self._tokens[token] = game_id  # a token is its game's for good
            while len(self._tokens) > TOKENS_KEPT:
                self._tokens.popitem(last=False)
        else:
            self._tokens.move_to_end(token)
        try:
            loaded = await self.following.read(game_id)
        except Refusal as exc:  # gone since (its data erased)
            self._tokens.pop(token, None)
            raise Refusal(NOT_FOUND) from exc
        if loaded.row.started_ms is None or not await self.shown(loaded):
            raise Refusal(NOT_FOUND)  # a lobby that never started has no board
        return loaded

    async def shown(self, loaded: Loaded) -> bool:
        """May anyone see this game? Not a daily deal whose day is still being played (every
        player of that day has the same deal: its draws are theirs to come)."""
        try:
            await check_daily_view(self.ctx, loaded, None)
        except Refusal:
            return False
        return True

    # -- a game --------------------------------------------------------------------------------
    @entry
    async def update(self, token: str) -> WebUpdate:
        """What the game's running pages show now (made once a version, however many pages
        show it)."""
        loaded = await self._game(token)
        update, _ = await self._update(loaded)
        return update

    async def _update(self, loaded: Loaded) -> tuple[WebUpdate, bool]:
        """The game's update, and whether any of its positions is open to everyone."""
        key = (loaded.id, loaded.row.version)
        made = self._updates.get(key)
        if made is not None:
            self._updates.move_to_end(key)
            return made
        found = await asyncio.to_thread(positions, loaded.row, loaded.entries)
        plies = []
        for number, position in enumerate(found[1:], start=1):
            move = position.shown()
            assert move is not None
            plies.append(WebPly(number, move))
        update = WebUpdate(
            version=loaded.row.version,
            live=loaded.row.status is GameStatus.ACTIVE,
            plies=tuple(plies),
            ends=tuple(i18n.text(line.key, **line.params) for line in present.end_lines(loaded)),
            to_move=loaded.acting_names(),
            described=_described(found[-1].state, found[-1].move, loaded, True),
        )
        made = update, any(p.state.observe(None) is p.state for p in found)
        self._updates[key] = made
        while len(self._updates) > UPDATES_KEPT:
            self._updates.popitem(last=False)
        return made

    @entry
    async def game(self, token: str) -> WebGame:
        loaded = await self._game(token)
        row = loaded.row
        update, open_view = await self._update(loaded)
        settings = await self.ctx.guild(row.guild_id)
        records = await self._record_kinds(loaded)
        return WebGame(
            **{f.name: getattr(update, f.name) for f in fields(WebUpdate)},
            token=token,
            game_type=row.game_type,
            title=present.title(loaded.game),
            seats=tuple((_seat_name(loaded, s), loaded.name(s)) for s in range(row.players)),
            status=row.status.value,
            clock=row.clock,
            deadline=from_ms(row.deadline_ms) if row.deadline_ms else None,
            started=from_ms(row.started_ms) if row.started_ms else None,
            records=records,
            guild_id=row.guild_id,
            listed=row.guild_id is not None and settings.web == "public",
            analysable=(
                row.status in (GameStatus.FINISHED, GameStatus.ABORTED)
                and row.players > 1
                and open_view
            ),
        )

    async def _record_kinds(self, loaded: Loaded) -> tuple[str, ...]:
        """The record files a download of ``loaded`` gets (a ``.kif`` only when Shift-JIS can
        hold it), kept per version."""
        key = (loaded.id, loaded.row.version)
        kinds = self._kinds.get(key)
        if kinds is None:
            files = (await self.records.record(loaded.id, None)).files
            kinds = tuple(k for k in RECORD_KINDS if any(f.name.endswith("." + k) for f in files))
            self._kinds[key] = kinds
            while len(self._kinds) > PICTURE_CACHE:
                self._kinds.popitem(last=False)
        return kinds

    @entry
    async def words(self, token: str, ply: int) -> Text:
        """The spectator's picture after ply ``ply`` in words: its alt text (0: the start;
        clamped to the game)."""
        loaded = await self._game(token)
        total = loaded.move_number()
        ply = min(max(ply, 0), total)
        found = await asyncio.to_thread(positions, loaded.row, loaded.entries, ply)
        return _described(found[ply].state, found[ply].move, loaded, ply == total)

    @entry
    async def picture(self, token: str, ply: int) -> bytes:
        """The spectator's picture after ply ``ply`` (0: the start; clamped to the game)."""
        loaded = await self._game(token)
        ply = min(max(ply, 0), loaded.move_number())
        key = (loaded.id, loaded.row.version, ply)
        cached = self._pictures.get(key)
        if cached is not None:
            self._pictures.move_to_end(key)
            return cached
        try:
            reply = await self._bounded(lambda: self.replays.step(loaded.id, None, ply))
        except Refusal as exc:  # no renderer for this game
            raise Refusal(BUSY if exc.key == BUSY else NOT_FOUND) from exc
        assert reply.image is not None and reply.image_viewer is None
        self._pictures[key] = reply.image
        while len(self._pictures) > PICTURE_CACHE:
            self._pictures.popitem(last=False)
        return reply.image

    # -- the analysis board of a finished game (issue 50, 3) ---------------------------------
    @entry
    async def analysis_board(
        self, token: str, ply: int | None, moves: Sequence[str], best: bool = False
    ) -> WebAnalysis:
        """A finished game's analysis board at ``ply`` after ``moves`` (the address holds
        them: nothing is kept), with the computer's line when ``best`` (drawn like a picture:
        a few at once, the others wait or are told the site is busy)."""
        loaded = await self._game(token)
        if not best:
            return await self.analysis.web(loaded, token, ply, moves, False)
        return await self._bounded(lambda: self.analysis.web(loaded, token, ply, moves, True))

    @entry
    async def analysis_picture(self, token: str, ply: int | None, moves: Sequence[str]) -> bytes:
        """The analysis board's picture (a spectator's)."""
        loaded = await self._game(token)
        _, _, state, last = await self.analysis.web_board(loaded, ply, moves)
        image = await self._bounded(lambda: self.ctx.pictures.draw(None, state, None, last))
        if image is None:
            raise Refusal(NOT_FOUND)
        return image

    async def _bounded(self, work: Callable[[], Awaitable[T]]) -> T:
        """``work`` (a picture, a search) a few at a time; too many waiting: busy."""
        if self._waiting >= WAITING:
            raise Refusal(BUSY)
        self._waiting += 1
        try:
            async with self._drawing:
                return await work()
        finally:
            self._waiting -= 1

    @entry
    async def record(self, token: str, kind: str) -> File:
        """The record file of ``kind`` (``kifu``, ``kif``, ``json``) as a spectator gets it."""
        loaded = await self._game(token)
        reply = await self.records.record(loaded.id, None)
        for f in reply.files:
            if kind in RECORD_KINDS and f.name.endswith("." + kind):
                return f
        raise Refusal(NOT_FOUND)

    async def changed(self, token: str, version: int) -> int:
        """The game's version once it differs from ``version`` (at once if it already does):
        a running page waits here for the next move (server-sent events)."""
        return await self.following.changed(version, lambda: self._game(token))

    async def stop(self) -> None:
        """Stop following the games (the service closes)."""
        await self.following.stop()

    # -- a server ------------------------------------------------------------------------------
    async def _listed(self, guild_id: str) -> None:
        if not guild_id.isdigit() or len(guild_id) > 20:
            raise Refusal(NOT_FOUND)
        if (await self.ctx.guild(guild_id)).web != "public":
            raise Refusal(NOT_FOUND)

    @entry
    async def guild(self, guild_id: str) -> WebGuild:
        """A server's latest games with a page and its leaderboards (once it opted in)."""
        await self._listed(guild_id)
        games = []
        for game_id, token in await self.ctx.store.web_games(guild_id, LISTED_GAMES):
            loaded = await self.ctx.games.read(game_id)
            if not await self.shown(loaded):
                continue
            games.append(listed(loaded, token))
        boards = []
        for game in all_games():
            if max(game.player_counts) < 2:
                continue
            _, rows = await self.ctx.store.leaderboard(
                game.id, guild_id, server=True, min_games=0, offset=0, limit=BOARD_SIZE
            )
            if rows:
                ranks = tuple(
                    WebRank(
                        i + 1,
                        r.user_id,
                        r.name or r.user_id,
                        row_text(r),
                        r.games,
                        r.wins,
                        r.losses,
                        r.draws,
                    )
                    for i, r in enumerate(rows)
                )
                boards.append(WebBoard(game.id, present.title(game), ranks))
        return WebGuild(guild_id, tuple(games), tuple(boards))

    @entry
    async def player(self, guild_id: str, user_id: str) -> WebPlayer:
        """A player of an opted-in server: ratings, a chart and recent games of that server."""
        await self._listed(guild_id)
        if not user_id.isdigit() and not re.fullmatch(r"[\w.-]{1,64}", user_id):
            raise Refusal(NOT_FOUND)
        history = [
            c
            for c in await self.ctx.store.rating_history(user_id, None, HISTORY)
            if c.guild_id == guild_id
        ]
        mine = [c for c in history if c.user_id == user_id]
        if not mine:
            raise Refusal(NOT_FOUND)
        rows = await self.ctx.store.ratings(None, [user_id])
        tokens = dict(await self.ctx.store.web_games(guild_id, HISTORY))
        chart: dict[str, list[int]] = {}
        for c in sorted(mine, key=lambda c: c.seq):
            chart.setdefault(c.game_type, []).append(shown(c.mu_after, c.sigma_after))
        recent = [
            WebRated(
                c.game_type,
                _title(c.game_type),
                i18n.text(f"rating.result.{c.result.value}"),
                ", ".join(o.name or o.user_id for o in _others(history, c)),
                shown(c.mu_after, c.sigma_after),
                from_ms(c.at_ms),
                tokens.get(c.game_id),
            )
            for c in sorted(mine, key=lambda c: -c.seq)[:10]
        ]
        name = mine[0].name or next((r.name for r in rows if r.name), None) or user_id
        return WebPlayer(
            guild_id,
            user_id,
            name,
            tuple((_title(r.game_type), row_text(r), r.games) for r in rows),
            tuple((_title(k), tuple(v)) for k, v in chart.items()),
            tuple(recent),
        )


def listed(loaded: Loaded, token: str) -> WebListed:
    """``loaded`` as a line of a list of games."""
    return WebListed(
        token,
        present.title(loaded.game),
        ", ".join(loaded.name(s) for s in range(loaded.row.players)),
        loaded.row.status.value,
        tuple(i18n.text(x.key, **x.params) for x in present.end_lines(loaded)),
    )


def _others(history: list[RatingChange], mine: RatingChange) -> list[RatingChange]:
    return [c for c in history if c.game_id == mine.game_id and c.user_id != mine.user_id]


def _seat_name(loaded: Loaded, seat: int) -> Text:
    game, players = loaded.game, loaded.row.players
    return Text(game.seat_name(seat, "en", players), game.seat_name(seat, "ja", players))


def _title(game_type: str) -> Text:
    return present.title(get_game(game_type))


def _described(state: State[Any], move: Any, loaded: Loaded, last: bool) -> Text:
    """A position of ``loaded`` in words as a spectator sees it (with the host's end on the
    ``last`` one, as its picture); the page's words for a picture when nothing describes it."""
    outcome = present.host_outcome(loaded.row) if last else None
    words = present.alt_text(state, None, move, outcome)
    return words if words is not None else i18n.text("picture.alt")
